import type { Kysely } from 'kysely';
import type { Content } from '../../domain/training/content.schema.js';
import type { TrainingContentStore } from '../../domain/training/content.store.js';
import type { AuditRecord, QuestionRecord } from '../../domain/training/training-store.port.js';
import type { DB } from '../db-types.js';
import { KyselyTrainingStore } from './training.store.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

const contentFromRow = ({ tenant_id: _t, ...c }: DB['training_content']) => c as Content;

/**
 * TrainingContentStore written once with kysely's builders: the same queries on SQLite and PostgreSQL. Modules,
 * questions and the audit log are the training core's tables, read and written through its store. Each write tells
 * the journal the content rows it changed, as RETURNING answers them.
 */
export class KyselyTrainingContentStore implements TrainingContentStore {
  private readonly core: KyselyTrainingStore;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {
    this.core = new KyselyTrainingStore(db, journal);
  }

  private put(rows: Array<DB['training_content']>, op: 'insert' | 'update'): void {
    for (const r of rows) this.journal.put('training_content', r.id, r, op);
  }

  getModule(tenant: string, id: string) {
    return this.core.getModule(tenant, id);
  }

  questions(tenant: string, moduleId: string) {
    return this.core.questions(tenant, moduleId);
  }

  replaceQuestions(tenant: string, moduleId: string, questions: QuestionRecord[]) {
    return this.core.replaceQuestions(tenant, moduleId, questions);
  }

  appendAudit(entries: AuditRecord[]) {
    return this.core.appendAudit(entries);
  }

  modulesWithout(tenant: string, what: 'content' | 'quiz') {
    return this.db
      .selectFrom('training_module as m')
      .select(['m.id', 'm.module_code'])
      .where('m.tenant_id', '=', tenant)
      .where((eb) =>
        eb.not(
          eb.exists(
            what === 'content'
              ? eb.selectFrom('training_content as c').select('c.id').whereRef('c.module_id', '=', 'm.id')
              : eb.selectFrom('training_question as q').select('q.id').whereRef('q.module_id', '=', 'm.id'),
          ),
        ),
      )
      .orderBy('m.module_code')
      .execute();
  }

  async assignedNames(tenant: string) {
    const rows = await this.db
      .selectFrom('training_assignment')
      .select('user_name')
      .distinct()
      .where('tenant_id', '=', tenant)
      .execute();
    return rows.map((r) => r.user_name);
  }

  async lastVersion(tenant: string, moduleId: string) {
    const last = await this.db
      .selectFrom('training_content')
      .select((eb) => eb.fn.max('version').as('v'))
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .executeTakeFirst();
    return Number(last?.v ?? 0);
  }

  async insertContent(tenant: string, content: Content) {
    const rows = await this.db
      .insertInto('training_content')
      .values({ ...content, tenant_id: tenant })
      .returningAll()
      .execute();
    this.put(rows, 'insert');
  }

  async content(tenant: string, id: string) {
    const c = await this.db
      .selectFrom('training_content')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return c && contentFromRow(c);
  }

  async publishedContent(tenant: string, moduleId: string) {
    const c = await this.db
      .selectFrom('training_content')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .where('status', '=', 'published')
      .executeTakeFirst();
    return c && contentFromRow(c);
  }

  async archivePublished(tenant: string, moduleId: string) {
    const rows = await this.db
      .updateTable('training_content')
      .set({ status: 'archived' })
      .where('tenant_id', '=', tenant)
      .where('module_id', '=', moduleId)
      .where('status', '=', 'published')
      .returningAll()
      .execute();
    this.put(rows, 'update');
  }

  async markPublished(tenant: string, id: string, at: string) {
    const rows = await this.db
      .updateTable('training_content')
      .set({ status: 'published', published_at: at })
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returningAll()
      .execute();
    this.put(rows, 'update');
  }
}
