import type { CommanderError } from 'commander';
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
 * A usage error commander raised (unknown option, missing argument, a value outside its choices) as the error every
 * other command prints: the same message, code `bad_request` (exit 2), and details naming the flag or argument, so
 * `--json` prints one error body for every command.
 */
export function usageError(e: CommanderError): DomainError {
  // one line: commander puts its suggestion on a line of its own
  const message = e.message.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ');
  for (const [pattern, details] of PATTERNS) {
    const m = pattern.exec(message);
    if (m) return new DomainError('bad_request', message, details(m));
  }
  return new DomainError('bad_request', message, []);
}
