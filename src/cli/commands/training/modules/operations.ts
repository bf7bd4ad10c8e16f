import type { Module } from '../../../../domain/training/training.schema.js';
import { FREQUENCY_TYPES, REGULATION_AREAS } from '../../../../domain/training/training.values.js';
import { operationVerb } from '../../../operation-verb.js';
import { printList, type Column } from '../../../output.js';

const moduleColumns: Column<Module>[] = [
  { header: 'ID', value: (m) => m.id, id: true },
  { header: 'CODE', value: (m) => m.module_code },
  { header: 'TITLE', value: (m) => m.title },
  { header: 'AREA', value: (m) => m.regulation_area },
  { header: 'FREQUENCY', value: (m) => m.frequency_type },
  { header: 'MIN', value: (m) => m.duration_minutes },
  { header: 'QUESTIONS', value: (m) => m.question_count },
];

/** The verbs of `training modules` that call one operation and print its answer. */
export const list = operationVerb({
  area: 'training',
  operation: 'listModules',
  name: 'list',
  description: 'list modules by area and code; filter by area, role or text',
  query: [
    { flags: '--area <area>', field: 'regulation_area', description: REGULATION_AREAS.join(', ') },
    { flags: '--frequency <type>', field: 'frequency_type', description: FREQUENCY_TYPES.join(', ') },
    { flags: '--search <words>', field: 'search', description: 'full text over title and description' },
  ],
  print: (ctx, modules) =>
    printList(ctx, modules, moduleColumns, { empty: 'no modules (try `compliance training catalog install`)' }),
});
