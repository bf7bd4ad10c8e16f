import type { Command } from 'commander';
import { PassThrough } from 'node:stream';
import { createContext } from '../../src/cli/context.js';
import { createProgram } from '../../src/cli/program.js';

/** A CLI context whose streams go nowhere: for building the program, not running it. */
export function quietContext() {
  const quiet = new PassThrough();
  const io = {
    stdin: quiet,
    stdout: quiet,
    stderr: quiet,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    color: false,
  };
  return createContext(io, {});
}

/** The usage of a command without commander's generic "[options]" and the help command. */
const usage = (c: Command): string =>
  c
    .usage()
    .replace(/\[options\]\s*/g, '')
    .replace(/\s*\[command\]$/, '')
    .trim();

/**
 * The command reference of README.md, generated from the program itself so it cannot drift: one line per command
 * that runs (groups are headings), `compliance <path> <arguments>` and what it does.
 */
export async function commandReference(): Promise<string> {
  const program = await createProgram(quietContext());
  const lines: string[] = [];
  const walk = (c: Command, path: string[]) => {
    const subs = c.commands.filter((s) => s.name() !== 'help');
    // a group that also runs itself (`compliance sync` beside `sync status`) has its own line
    const runs = (c as unknown as { _actionHandler?: unknown })._actionHandler != null;
    if (subs.length === 0 || (runs && path.length > 0)) {
      const args = usage(c);
      const cmd = ['compliance', ...path, args].filter(Boolean).join(' ');
      lines.push(`| \`${cmd}\` | ${c.description().replace(/\|/g, '\\|')} |`);
      if (subs.length === 0) return;
    }
    for (const s of subs) walk(s, [...path, s.name()]);
  };
  walk(program, []);
  return ['| command | what it does |', '|---|---|', ...lines].join('\n');
}
