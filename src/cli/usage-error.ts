import type { Command, CommanderError } from 'commander';
import { DomainError, type ErrorDetail } from '../domain/errors.js';

/** Commander's wording of each usage error, and the detail each becomes (the flag or argument it names). */
const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => ErrorDetail[]]> = [
  [/^unknown option '([^']+)'(?:\s*\((.*)\))?/, (m) => [{ path: m[1]!, message: `unknown option${suggestion(m[2])}` }]],
  [
    /^unknown command '([^']+)'(?:\s*\((.*)\))?/,
    (m) => [{ path: '<command>', message: `unknown command ${JSON.stringify(m[1])}${suggestion(m[2])}` }],
  ],
  [/^missing required argument '([^']+)'/, (m) => [{ path: `<${m[1]}>`, message: 'required' }]],
  [/^option '(\S+)[^']*' argument missing/, (m) => [{ path: flagOf(m[1]!), message: 'needs a value' }]],
  [/^required option '(\S+)[^']*' not specified/, (m) => [{ path: flagOf(m[1]!), message: 'required' }]],
  [
    /^option '(\S+)[^']*' argument '(.*)' is invalid\.\s*(?:Allowed choices are (.*)\.)?(.*)$/s,
    (m) => [{ path: flagOf(m[1]!), message: invalid(m[2]!, m[3], m[4]) }],
  ],
  [
    /^command-argument value '(.*)' is invalid for argument '([^']+)'\.\s*(?:Allowed choices are (.*)\.)?(.*)$/s,
    (m) => [{ path: `<${m[2]}>`, message: invalid(m[1]!, m[3], m[4]) }],
  ],
  [
    /^too many arguments.*Expected (\d+) arguments? but got (\d+)/,
    (m) => [{ path: '<arguments>', message: `expected ${m[1]}, got ${m[2]}` }],
  ],
  [
    /^(?:option|environment variable) '(\S+)[^']*' cannot be used with (?:option|environment variable) '(\S+)[^']*'/,
    (m) => [
      { path: flagOf(m[1]!), message: `cannot be used with ${flagOf(m[2]!)}` },
      { path: flagOf(m[2]!), message: `cannot be used with ${flagOf(m[1]!)}` },
    ],
  ],
];

const suggestion = (s: string | undefined) => (s ? `; ${s.charAt(0).toLowerCase()}${s.slice(1)}` : '');

/** `-o, --output` names the option by its long flag. */
const flagOf = (flags: string) => flags.split(/[, |]+/).find((f) => f.startsWith('--')) ?? flags.replace(/,$/, '');

const invalid = (value: string, choices: string | undefined, rest: string | undefined) =>
  choices
    ? `${JSON.stringify(value)} is not allowed; allowed values: ${choices}`
    : `${JSON.stringify(value)} is not valid${rest?.trim() ? `: ${rest.trim()}` : ''}`;

/**
 * The command a command line runs, as far as its words name commands (commander does not say which command refused
 * an option): each word that names a subcommand of the command reached so far goes one level down.
 */
export function commandAt(root: Command, args: string[]): Command {
  let cmd = root;
  for (const word of args) {
    if (word === '--') break;
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) cmd = sub;
  }
  return cmd;
}

/**
 * `--junit` where `--format junit` was meant: the options of `cmd` and its parents that take the unknown flag's
 * name as one of their values.
 */
export function valueHint(cmd: Command, flag: string): string | undefined {
  const value = flag.replace(/^-+/, '').split('=')[0]!;
  const options: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent)
    for (const o of c.options) if (o.long && o.argChoices?.includes(value)) options.push(`${o.long} ${value}`);
  return options.length ? `Did you mean ${options.join(' or ')}?` : undefined;
}

/**
 * A usage error commander raised (unknown option, missing argument, a value outside its choices) as the error every
 * other command prints: the same message, code `bad_request` (exit 2), and details naming the flag or argument, so
 * `--json` prints one error body for every command. Given the command that refused it, an unknown option that is a
 * value of one of its options says so (`unknown option '--junit' (Did you mean --format junit?)`).
 */
export function usageError(e: CommanderError, cmd?: Command): DomainError {
  // one line: commander puts its suggestion on a line of its own
  let message = e.message.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ');
  const unknown = /^unknown option '([^']+)'/.exec(message);
  const hint = unknown && cmd && valueHint(cmd, unknown[1]!);
  if (hint) message = `${unknown[0]} (${hint})`;
  for (const [pattern, details] of PATTERNS) {
    const m = pattern.exec(message);
    if (m) return new DomainError('bad_request', message, details(m));
  }
  return new DomainError('bad_request', message, []);
}
