import type { Command } from 'commander';
import { DomainError } from '../../../../domain/errors.js';
import { TEMPLATE_NAMES } from '../../../../domain/notifications/notification.values.js';
import type { CliContext } from '../../../context.js';
import { readText } from '../../../input.js';
import { req } from '../../../operation-verb.js';
import { printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';

/** `notifications templates set <name> <language>`: a tenant's own subject and bodies. */
export interface SetOptions {
  name: string;
  language: string;
  subject: string;
  text: string;
  html: string;
}

export function register(templates: Command, ctx: CliContext): Command {
  return writes(templates.command('set'))
    .description(
      'override a template: {{name}}, {{count}}, {{people}}, {{items}}, {{link}}, {{tenant}} are filled in; ' +
        '{{#key}}…{{/key}} shows text only when the value is not empty, {{^key}}…{{/key}} only when it is',
    )
    .argument('<name>', TEMPLATE_NAMES.join(', '))
    .argument('<language>', 'de or en')
    .requiredOption('--subject <text>')
    .requiredOption('--text <file>', 'the plain-text body (- reads stdin)')
    .requiredOption('--html <file>', 'the HTML body')
    .action((name: string, language: string, o: Omit<SetOptions, 'name' | 'language'>) =>
      run(ctx, { ...o, name, language }),
    );
}

export async function run(ctx: CliContext, { name, language, ...o }: SetOptions): Promise<void> {
  if (o.text === '-' && o.html === '-')
    throw new DomainError('bad_request', '--text and --html cannot both read stdin', [
      { path: '--html', message: 'name a file' },
    ]);
  const body = {
    subject: o.subject,
    body_text: await readText(ctx, o.text),
    body_html: await readText(ctx, o.html),
  };
  const x = await (await ctx.backend()).notifications.setTemplate({ ...req(ctx), params: { name, language }, body });
  await printRecord(ctx, x, [
    ['name', x.name],
    ['language', x.language],
    ['overridden', x.overridden],
  ]);
}
