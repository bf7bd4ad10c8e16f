import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { collect, listFlag, readText } from '../input.js';
import { printJson } from '../output.js';

/** `compliance redact FILE`: shows on any text the redaction that guards every prompt sent to a language model. */
export function createRedactCommand(ctx: CliContext): Command {
  return new Command('redact')
    .description('replace personal data in a text with placeholders, as done before every LLM prompt')
    .argument('<file>', 'text file; - reads stdin')
    .option('--names <names>', 'people to recognise, comma-separated (repeatable)', collect)
    .option('--names-file <file>', 'people to recognise, one per line')
    .action((file: string, o: Omit<RedactOptions, 'file'>) => run(ctx, { ...o, file }));
}

/** What `redact` reads: the text and the names to recognise. */
export interface RedactOptions {
  file: string;
  names?: string[];
  namesFile?: string;
}

export async function run(ctx: CliContext, { file, ...o }: RedactOptions): Promise<void> {
  const { redact } = await import('../../domain/training/redaction.js');
  const names = [
    ...(listFlag(o.names) ?? []),
    ...(o.namesFile
      ? (await readText(ctx, o.namesFile))
          .split(/\r?\n/)
          .map((s) => s.trim())
          .filter(Boolean)
      : []),
  ];
  const r = redact(await readText(ctx, file), names);
  if (ctx.config().json) return printJson(ctx, { text: r.text, counts: r.counts });
  ctx.io.stdout.write(r.text);
  const summary = Object.entries(r.counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  ctx.io.stderr.write(`redacted: ${summary || 'nothing'}\n`);
}
