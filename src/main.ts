import { CommanderError } from 'commander';
import { createContext, type IO } from './cli/context.js';
import { EXIT, EXIT_BY_CODE } from './cli/exit-codes.js';
import { inFlagTerms } from './cli/flag-names.js';
import { createProgram } from './cli/program.js';
import type { Clock } from './domain/clock.js';
import { DomainError } from './domain/errors.js';

export interface MainDeps {
  io?: IO;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}

function processIO(env: NodeJS.ProcessEnv): IO {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY,
    stderrIsTTY,
    color: stderrIsTTY && !env.NO_COLOR,
  };
}

/** Runs one command line and resolves to its exit code; the only caller that exits is bin/compliance.js. */
export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const io = deps.io ?? processIO(env);
  const ctx = createContext(io, env, deps.clock);
  const program = createProgram(ctx);
  let jsonErrors = argv.includes('--json');
  const fail = (err: DomainError, opts: { usage?: boolean; stack?: string } = {}): number => {
    if (jsonErrors) {
      io.stderr.write(JSON.stringify({ error: err.message, code: err.code, details: err.details }) + '\n');
    } else {
      const red = io.color ? (s: string) => `\u001b[31m${s}\u001b[39m` : (s: string) => s;
      io.stderr.write(`${red('error:')} ${err.message}\n`);
      if (err.details.length > 1) for (const d of err.details) io.stderr.write(`  ${d.path}: ${d.message}\n`);
      if (opts.usage) io.stderr.write('(add --help for usage)\n');
    }
    if (err.code === 'internal' && env.COMPLIANCE_DEBUG && opts.stack) io.stderr.write(`${opts.stack}\n`);
    return EXIT_BY_CODE[err.code];
  };
  try {
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return EXIT.ok;
      if (e.exitCode === 0) return EXIT.ok;
      // commander printed nothing (see program.ts): its usage errors look like every other error, JSON with --json
      const { usageError } = await import('./cli/usage-error.js');
      return fail(usageError(e), { usage: true });
    }
    // Ctrl-C in a prompt (@inquirer's ExitPromptError) ends quietly, as a shell expects of an interrupt.
    if ((e as Error)?.name === 'ExitPromptError') return EXIT.interrupted;
    try {
      jsonErrors = ctx.config().json;
    } catch {
      /* configuration itself was invalid */
    }
    const err =
      e instanceof DomainError
        ? inFlagTerms(e, ctx.command)
        : new DomainError('internal', `unexpected error: ${(e as Error)?.message ?? String(e)}`);
    return fail(err, { stack: (e as Error)?.stack });
  } finally {
    await ctx.close().catch(() => undefined);
  }
}
