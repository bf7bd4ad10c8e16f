import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

// Several replicas on one PostgreSQL database: concurrent `compute` runs must not give a user a second open assignment
// for a module. The index makes the database refuse it (the store writes with ON CONFLICT DO NOTHING); certificates
// are already unique per assignment (0004). SQLite needs no index for it: every writer, in any process, holds the
// file's write lock for its whole transaction (BEGIN IMMEDIATE), and a second index would cost bulk compute a third
// of its time there.
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createIndex('training_assignment_open_once')
    .on('training_assignment')
    .columns(['tenant_id', 'user_id', 'module_id'])
    .unique()
    .where(sql.ref('status'), 'in', sql`('pending', 'in_progress')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema.dropIndex('training_assignment_open_once').execute();
}
