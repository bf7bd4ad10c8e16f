import { sql, type Kysely } from 'kysely';

// Several replicas on one database: concurrent `compute` runs must not give a user a second open assignment for a
// module. The index makes the database refuse it (the store writes with ON CONFLICT DO NOTHING); certificates are
// already unique per assignment (0004).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('training_assignment_open_once')
    .on('training_assignment')
    .columns(['tenant_id', 'user_id', 'module_id'])
    .unique()
    .where(sql.ref('status'), 'in', sql`('pending', 'in_progress')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('training_assignment_open_once').execute();
}
