import type { Kysely } from 'kysely';
import type { Block } from '../../domain/training-blocks/block.schema.js';
import type { BlockLink, TrainingBlockStore } from '../../domain/training-blocks/block.store.js';
import type { MatrixEntryRecord, ModuleRecord } from '../../domain/training/training.store.js';
import type { DB } from '../db-types.js';
import { writeTransaction } from '../transaction.js';
import { KyselyTrainingStore } from './training.store.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

/**
 * TrainingBlockStore written once with kysely's builders: the same queries on SQLite and PostgreSQL. Modules are the
 * training core's table, written through its store; control links carry no tenant and are reached through their block.
 */
export class KyselyTrainingBlockStore implements TrainingBlockStore {
  private readonly core: KyselyTrainingStore;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {
    this.core = new KyselyTrainingStore(db, journal);
  }

  transaction<T>(fn: (store: TrainingBlockStore) => Promise<T>): Promise<T> {
    return writeTransaction(this.db, (trx) => fn(new KyselyTrainingBlockStore(trx)));
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
    await this.db.insertInto('training_block').values(block).execute();
  }

  async update(tenant: string, id: string, set: Partial<Omit<Block, 'id' | 'tenant_id'>>) {
    await this.db.updateTable('training_block').set(set).where('tenant_id', '=', tenant).where('id', '=', id).execute();
  }

  async delete(tenant: string, id: string) {
    await this.db.deleteFrom('training_block').where('tenant_id', '=', tenant).where('id', '=', id).execute();
  }

  /** The block's id if it is the tenant's: how the links, which have no tenant column, are scoped. */
  private ownBlock(tenant: string, blockId: string) {
    return this.db.selectFrom('training_block').select('id').where('tenant_id', '=', tenant).where('id', '=', blockId);
  }

  async replaceLinks(tenant: string, blockId: string, links: BlockLink[]) {
    await this.db
      .deleteFrom('training_block_control')
      .where('block_id', 'in', this.ownBlock(tenant, blockId))
      .execute();
    for (const l of links)
      await this.db
        .insertInto('training_block_control')
        .values({ block_id: blockId, ...l })
        .execute();
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
    const r = await this.db
      .insertInto('training_matrix')
      .values({ ...e, is_mandatory: e.is_mandatory ? 1 : 0 })
      .onConflict((oc) => oc.columns(['tenant_id', 'role_code', 'module_id']).doNothing())
      .returning('module_id')
      .executeTakeFirst();
    return !!r;
  }
}
