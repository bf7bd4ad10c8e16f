import type { Command } from 'commander';
import { DomainError, type ErrorDetail } from '../domain/errors.js';
import { summarize } from '../domain/validation.js';

/**
 * Commands hand their flags to the backend as query, body and path fields, and validation names those fields
 * (`delimiter`, `ip_address`, `invalid query parameter …`), which is how the HTTP API speaks. On the command line an
 * error names the flag instead. A flag maps to the field of its own name in snake_case (`--date-format` →
 * `date_format`), an argument to its name (`<assignment-id>` → `assignmentId`); `flagFields` declares the others.
 */
const declared = new WeakMap<Command, Record<string, string>>();

/**
 * Declares the fields a command's flags fill whose names differ from the flag's.
 *
 * @example flagFields(cmd, { data_point_id: '--data-point', ip_address: '--ip' })
 */
export function flagFields<C extends Command>(cmd: C, fields: Record<string, string>): C {
  declared.set(cmd, { ...declared.get(cmd), ...fields });
  return cmd;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, '_');
const camel = (s: string) => s.replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase());

/** Field name → flag, for the flags the command was given (a field from a file keeps its name) and its arguments. */
function fieldsOf(cmd: Command): Map<string, string> {
  const out = new Map<string, string>();
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const o of c.options) {
      const name = o.attributeName();
      if (!o.long || c.getOptionValue(name) === undefined) continue;
      for (const field of [name, snake(name), o.long.replace(/^--(no-)?/, '')])
        if (!out.has(field)) out.set(field, o.long);
    }
  }
  for (const [field, flag] of Object.entries(declared.get(cmd) ?? {})) {
    const option = cmd.options.find((o) => o.long === flag);
    if (!option || cmd.getOptionValue(option.attributeName()) !== undefined) out.set(field, flag);
  }
  for (const a of cmd.registeredArguments)
    for (const field of [a.name(), camel(a.name()), snake(a.name())]) out.set(field, `<${a.name()}>`);
  return out;
}

// the API's own wording of a request that fails validation, from contract/bind.ts and domain/validation.ts
const WRAPPER = /^invalid (query parameter|body|path parameter|input)\b:? ?/;

/**
 * A validation error of a command in the words of its command line: detail paths name the flag (`--delimiter`, or
 * `--risks 0.title` inside a flag's file), and the message follows. Other errors, and fields no flag filled, stay.
 */
export function inFlagTerms(err: DomainError, cmd: Command | undefined): DomainError {
  if (!cmd || (err.code !== 'validation' && err.code !== 'bad_request') || err.details.length === 0) return err;
  const fields = fieldsOf(cmd);
  const flagOf = (path: string): string | undefined => {
    if (fields.has(path)) return fields.get(path);
    const [head, ...rest] = path.split('.');
    const flag = fields.get(head!);
    return flag && `${flag} ${rest.join('.')}`;
  };
  const renamed: Array<[string, string]> = [];
  const details: ErrorDetail[] = err.details.map((d) => {
    const flag = flagOf(d.path);
    if (flag === undefined || flag === d.path) return d;
    renamed.push([d.path, flag]);
    return { path: flag, message: d.message };
  });
  if (renamed.length === 0) return err;
  let message: string;
  if (WRAPPER.test(err.message)) message = summarize(details);
  else {
    // API field names inside a message of its own (snake_case ones only: plain words such as "status" are prose too)
    message = err.message;
    for (const [field, flag] of renamed)
      if (field.includes('_')) message = message.replace(new RegExp(`\\b${field}\\b`, 'g'), flag);
    const [only] = renamed;
    if (renamed.length === 1 && !message.includes(only![1].split(' ')[0]!)) message = `${only![1]}: ${message}`;
  }
  return new DomainError(err.code, message, details);
}
