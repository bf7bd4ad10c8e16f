import type { Kysely } from 'kysely';
import { columnTypes } from './dialect.js';

// Training: modules with quiz questions and content, role matrix, assignments, quiz attempts, certificates, audit log.
export async function up(db: Kysely<any>): Promise<void> {
  const t = columnTypes(db);
  const s = db.schema;
  await s
    .createTable('training_module')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('module_code', t.text, (c) => c.notNull())
    .addColumn('title', t.text, (c) => c.notNull())
    .addColumn('description', t.text, (c) => c.notNull())
    .addColumn('regulation_area', t.text, (c) => c.notNull())
    .addColumn('frequency_type', t.text, (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('pass_threshold', 'integer', (c) => c.notNull())
    .addColumn('validity_days', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .addUniqueConstraint('training_module_code', ['tenant_id', 'module_code'])
    .execute();
  await s
    .createTable('training_question')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull().references('training_module.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('question', t.text, (c) => c.notNull())
    .addColumn('options', t.text, (c) => c.notNull())
    .addColumn('correct_index', 'integer', (c) => c.notNull())
    .addColumn('explanation', t.text, (c) => c.notNull())
    .execute();
  await s.createIndex('training_question_module').on('training_question').columns(['module_id', 'position']).execute();
  await s
    .createTable('training_content')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull().references('training_module.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('language', t.text, (c) => c.notNull())
    .addColumn('markdown', t.text, (c) => c.notNull())
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('published_at', t.text)
    .execute();
  await s.createIndex('training_content_module').on('training_content').columns(['module_id', 'version']).execute();
  await s
    .createTable('training_matrix')
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('role_code', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull().references('training_module.id').onDelete('cascade'))
    .addColumn('is_mandatory', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addPrimaryKeyConstraint('training_matrix_pk', ['tenant_id', 'role_code', 'module_id'])
    .execute();
  await s
    .createTable('training_assignment')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull().references('training_module.id'))
    .addColumn('user_id', t.text, (c) => c.notNull())
    .addColumn('user_name', t.text, (c) => c.notNull())
    .addColumn('user_email', t.text, (c) => c.notNull())
    .addColumn('role_code', t.text)
    .addColumn('status', t.text, (c) => c.notNull())
    .addColumn('progress_percent', 'integer', (c) => c.notNull())
    .addColumn('deadline', t.text, (c) => c.notNull())
    .addColumn('escalation_level', 'integer', (c) => c.notNull())
    .addColumn('quiz_passed', 'integer', (c) => c.notNull())
    .addColumn('certificate_id', t.text)
    .addColumn('started_at', t.text)
    .addColumn('completed_at', t.text)
    .addColumn('valid_until', t.text)
    .addColumn('created_at', t.text, (c) => c.notNull())
    .addColumn('updated_at', t.text, (c) => c.notNull())
    .execute();
  await s
    .createIndex('training_assignment_user')
    .on('training_assignment')
    .columns(['tenant_id', 'user_id', 'module_id'])
    .execute();
  await s
    .createIndex('training_assignment_open')
    .on('training_assignment')
    .columns(['tenant_id', 'status', 'deadline'])
    .execute();
  await s.createIndex('training_assignment_module').on('training_assignment').columns(['module_id']).execute();
  await s
    .createTable('training_quiz_attempt')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('assignment_id', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull())
    .addColumn('score', t.real, (c) => c.notNull())
    .addColumn('passed', 'integer', (c) => c.notNull())
    .addColumn('correct_count', 'integer', (c) => c.notNull())
    .addColumn('total_count', 'integer', (c) => c.notNull())
    .addColumn('threshold', 'integer', (c) => c.notNull())
    .addColumn('answers', t.text, (c) => c.notNull())
    .addColumn('duration_seconds', 'integer')
    .addColumn('created_at', t.text, (c) => c.notNull())
    .execute();
  await s
    .createIndex('training_quiz_attempt_assignment')
    .on('training_quiz_attempt')
    .columns(['assignment_id'])
    .execute();
  await s
    .createTable('training_certificate')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('assignment_id', t.text, (c) => c.notNull().unique())
    .addColumn('user_id', t.text, (c) => c.notNull())
    .addColumn('user_name', t.text, (c) => c.notNull())
    .addColumn('module_id', t.text, (c) => c.notNull())
    .addColumn('module_code', t.text, (c) => c.notNull())
    .addColumn('module_title', t.text, (c) => c.notNull())
    .addColumn('score', t.real, (c) => c.notNull())
    .addColumn('issued_at', t.text, (c) => c.notNull())
    .addColumn('valid_until', t.text, (c) => c.notNull())
    .addColumn('signature', t.text, (c) => c.notNull())
    .execute();
  await s
    .createTable('training_audit')
    .addColumn('id', t.text, (c) => c.primaryKey())
    .addColumn('tenant_id', t.text, (c) => c.notNull())
    .addColumn('action', t.text, (c) => c.notNull())
    .addColumn('entity_type', t.text, (c) => c.notNull())
    .addColumn('entity_id', t.text, (c) => c.notNull())
    .addColumn('actor', t.text, (c) => c.notNull())
    .addColumn('details', t.text, (c) => c.notNull())
    .addColumn('created_at', t.text, (c) => c.notNull())
    .execute();
  await s.createIndex('training_audit_tenant').on('training_audit').columns(['tenant_id', 'id']).execute();
  await s
    .createTable('setting')
    .addColumn('key', t.text, (c) => c.primaryKey())
    .addColumn('value', t.text, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'setting',
    'training_audit',
    'training_certificate',
    'training_quiz_attempt',
    'training_assignment',
    'training_matrix',
    'training_content',
    'training_question',
    'training_module',
  ])
    await db.schema.dropTable(t).execute();
}
