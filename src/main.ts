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

/** Resolves once a stream has handed its buffered output on, or has failed or closed. */
async function flushed(out: NodeJS.WritableStream): Promise<void> {
  const w = out as NodeJS.WritableStream & { writableLength?: number; destroyed?: boolean };
  if (w.destroyed || !w.writableLength) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const event of ['drain', 'error', 'close']) w.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'error', 'close']) w.once(event, done);
  });
}

/** Runs one command line and resolves to its exit code; the only caller that exits is bin/compliance.js. */
export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const io = deps.io ?? processIO(env);
  const ctx = createContext(io, env, deps.clock);
  const program = await createProgram(ctx, argv);
  let jsonErrors = argv.includes('--json');
  // a stdout that cannot be written (a full disk, a reader that closed the pipe) emits 'error' once; unheard it would
  // end the process with a stack trace, so it is noted here and reported as one line when the command is done
  let stdoutFailed: unknown;
  io.stdout.on('error', (e) => (stdoutFailed ??= e));
  // the event comes a tick after the failed write: a command that ends right after it is asked the stream itself
  const failedWrite = () => stdoutFailed ?? (io.stdout as { errored?: Error | null }).errored ?? undefined;
  // nothing can be reported when stderr fails too
  if (!deps.io) io.stderr.on('error', () => undefined);
  const stdoutFailure = async () => (await import('./cli/output-file.js')).stdoutError(failedWrite());
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
    // the real stdout may still hold output (a pipe a reader drains slowly); it may fail only then
    if (!deps.io) await flushed(io.stdout);
    if (failedWrite() !== undefined) return fail(await stdoutFailure());
    return ctx.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return EXIT.ok;
      if (e.exitCode === 0) return EXIT.ok;
      // commander printed nothing (see program.ts): its usage errors look like every other error, JSON with --json
      const { commandAt, usageError } = await import('./cli/usage-error.js');
      return fail(usageError(e, commandAt(program, argv.slice(2))), { usage: true });
    }
    // Ctrl-C in a prompt (@inquirer's ExitPromptError) ends quietly, as a shell expects of an interrupt.
    if ((e as Error)?.name === 'ExitPromptError') return EXIT.interrupted;
    // a command that stopped because stdout failed: that failure is the news, not how the command noticed it
    if (failedWrite() !== undefined) return fail(await stdoutFailure());
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
