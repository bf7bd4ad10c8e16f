import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

/**
 * Optional fields for the parts of Art. 35(7) GDPR the specification's DSFA record has no field for: NULL while unset.
 * Lists and structured items are JSON text, as the record's other lists.
 */
const DSFA_ART35_COLUMNS = [
  'controller',
  'purposes',
  'data_subjects',
  'necessity_assessment',
  'risks',
  'measure_details',
  'dpo_opinion',
  'dpo_name',
  'dpo_opinion_date',
  'review_date',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  // one statement per column: SQLite adds a single column per ALTER TABLE
  for (const column of DSFA_ART35_COLUMNS) await db.schema.alterTable('dsfa').addColumn(column, text).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...DSFA_ART35_COLUMNS].reverse())
    await db.schema.alterTable('dsfa').dropColumn(column).execute();
}
