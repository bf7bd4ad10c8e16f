import { CommanderError } from 'commander';
import { createContext, type IO } from './cli/context.js';
import { EXIT, EXIT_BY_CODE } from './cli/exit-codes.js';
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
  try {
    await program.parseAsync(argv);
    return ctx.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return EXIT.ok;
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage; // commander has printed the message
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
        ? e
        : new DomainError('internal', `unexpected error: ${(e as Error)?.message ?? String(e)}`);
    if (jsonErrors) {
      io.stderr.write(JSON.stringify({ error: err.message, code: err.code, details: err.details }) + '\n');
    } else {
      const red = io.color ? (s: string) => `\u001b[31m${s}\u001b[39m` : (s: string) => s;
      io.stderr.write(`${red('error:')} ${err.message}\n`);
      if (err.details.length > 1) for (const d of err.details) io.stderr.write(`  ${d.path}: ${d.message}\n`);
    }
    if (err.code === 'internal' && env.COMPLIANCE_DEBUG) io.stderr.write(`${(e as Error)?.stack}\n`);
    return EXIT_BY_CODE[err.code];
  } finally {
    await ctx.close().catch(() => undefined);
  }
}
