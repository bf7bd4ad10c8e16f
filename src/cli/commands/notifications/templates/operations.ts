import type { Template } from '../../../../domain/notifications/notification.schema.js';
import { TEMPLATE_NAMES } from '../../../../domain/notifications/notification.values.js';
import { operationVerb } from '../../../operation-verb.js';
import { printJson, printList, printRecord, writeOut } from '../../../output.js';

const templateArgs = [
  ['<name>', 'name', TEMPLATE_NAMES.join(', ')],
  ['<language>', 'language', 'de or en'],
] as const;

/** The verbs of `notifications templates` that call one operation and print its answer. */
export const list = operationVerb({
  area: 'notifications',
  operation: 'templates',
  name: 'list',
  description: 'every template in force',
  print: (ctx, rows) =>
    printList(ctx, rows, [
      { header: 'NAME', value: (x: Template) => x.name },
      { header: 'LANGUAGE', value: (x: Template) => x.language },
      { header: 'OVERRIDDEN', value: (x: Template) => (x.overridden ? 'yes' : 'no') },
      { header: 'SUBJECT', value: (x: Template) => x.subject },
    ]),
});

export const show = operationVerb({
  area: 'notifications',
  operation: 'template',
  name: 'show',
  description: 'one template in force',
  args: templateArgs,
  print: (ctx, x) => {
    if (ctx.config().json) return printJson(ctx, x);
    writeOut(ctx, `subject: ${x.subject}\n\n${x.body_text}\n\n${x.body_html}`);
  },
});

export const reset = operationVerb({
  area: 'notifications',
  operation: 'resetTemplate',
  name: 'reset',
  description: 'back to the built-in template',
  args: templateArgs,
  writes: true,
  print: (ctx, x) =>
    printRecord(ctx, x, [
      ['name', x.name],
      ['language', x.language],
      ['overridden', x.overridden],
    ]),
});
