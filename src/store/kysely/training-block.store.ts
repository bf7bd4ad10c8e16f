import type { Kysely } from 'kysely';
import type { Block } from '../../domain/training-blocks/block.schema.js';
import type { BlockLink, TrainingBlockStore } from '../../domain/training-blocks/block.store.js';
import type { MatrixEntryRecord, ModuleRecord } from '../../domain/training/training-store.port.js';
import type { DB } from '../db-types.js';
import { KyselyTrainingStore, linkId, matrixId } from './training.store.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

/**
 * TrainingBlockStore written once with kysely's builders: the same queries on SQLite and PostgreSQL. Modules are the
 * training core's table, written through its store; control links carry no tenant and are reached through their block
 * (their journal entries go to the tenant of the unit of work, which is their block's). Each write tells the journal
 * the rows it changed, as RETURNING answers them.
 */
export class KyselyTrainingBlockStore implements TrainingBlockStore {
  private readonly core: KyselyTrainingStore;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {
    this.core = new KyselyTrainingStore(db, journal);
  }

  moduleIdByCode(tenant: string, code: string) {
    return this.core.moduleIdByCode(tenant, code);
  }

  insertModule(m: ModuleRecord) {
    return this.core.insertModule(m);
  }

  updateModule(tenant: string, id: string, fields: Partial<ModuleRecord>) {
    return this.core.updateModule(tenant, id, fields);
  }

  async list(tenant: string) {
    const rows = await this.db
      .selectFrom('training_block')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .orderBy('id', 'desc')
      .execute();
    return rows as Block[];
  }

  async get(tenant: string, id: string) {
    const b = await this.db
      .selectFrom('training_block')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return b as Block | undefined;
  }

  async insert(block: Block) {
    const rows = await this.db.insertInto('training_block').values(block).returningAll().execute();
    for (const r of rows) this.journal.put('training_block', r.id, r, 'insert');
  }

  async update(tenant: string, id: string, set: Partial<Omit<Block, 'id' | 'tenant_id'>>) {
    const rows = await this.db
      .updateTable('training_block')
      .set(set)
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returningAll()
      .execute();
    for (const r of rows) this.journal.put('training_block', r.id, r, 'update');
  }

  async delete(tenant: string, id: string) {
    // the links first, explicitly rather than by the schema's cascade, so that each leaves its tombstone
    await this.deleteLinks(tenant, id);
    const rows = await this.db
      .deleteFrom('training_block')
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .returning('id')
      .execute();
    for (const r of rows) this.journal.remove('training_block', r.id);
  }

  /** The block's id if it is the tenant's: how the links, which have no tenant column, are scoped. */
  private ownBlock(tenant: string, blockId: string) {
    return this.db.selectFrom('training_block').select('id').where('tenant_id', '=', tenant).where('id', '=', blockId);
  }

  private async deleteLinks(tenant: string, blockId: string) {
    const gone = await this.db
      .deleteFrom('training_block_control')
      .where('block_id', 'in', this.ownBlock(tenant, blockId))
      .returning(['block_id', 'control_id'])
      .execute();
    for (const l of gone) this.journal.remove('training_block_control', linkId(l));
  }

  async replaceLinks(tenant: string, blockId: string, links: BlockLink[]) {
    await this.deleteLinks(tenant, blockId);
    // 500 rows a statement keeps the bound values far below SQLite's limit, however many controls a block matches
    for (let i = 0; i < links.length; i += 500) {
      const rows = await this.db
        .insertInto('training_block_control')
        .values(links.slice(i, i + 500).map((l) => ({ block_id: blockId, ...l })))
        .returningAll()
        .execute();
      for (const r of rows) this.journal.put('training_block_control', linkId(r), r, 'insert');
    }
  }

  links(tenant: string, blockId: string) {
    return this.db
      .selectFrom('training_block_control as l')
      .innerJoin('training_module as m', 'm.id', 'l.module_id')
      .select(['l.control_id', 'l.module_id', 'm.module_code'])
      .where('l.block_id', 'in', this.ownBlock(tenant, blockId))
      .orderBy('m.module_code')
      .orderBy('l.position')
      .execute();
  }

  async addMatrixEntry(e: MatrixEntryRecord) {
    // the primary key (tenant, role, module) decides, also between replicas: a second entry is not written
    const rows = await this.db
      .insertInto('training_matrix')
      .values({ ...e, is_mandatory: e.is_mandatory ? 1 : 0 })
      .onConflict((oc) => oc.columns(['tenant_id', 'role_code', 'module_id']).doNothing())
      .returningAll()
      .execute();
    for (const r of rows) this.journal.put('training_matrix', matrixId(r), r, 'insert');
    return rows.length > 0;
  }
}
