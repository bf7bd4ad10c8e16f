import type { Kysely } from 'kysely';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { notFound } from '../../domain/errors.js';
import { blockFilter, planModules, rolesFor } from '../../domain/training-blocks/block.plan.js';
import type {
  Block,
  BlockControl,
  BlockCreate,
  BlockGenerateResult,
  BlockPreview,
  BlockUpdate,
} from '../../domain/training-blocks/block.schema.js';
import type { CanonicalService } from '../../domain/training-blocks/canonical.service.js';
import { writeTransaction } from '../../store/transaction.js';
import type { DB } from '../../store/db-types.js';
import type { TrainingContentService } from './training-content.service.js';

/** Training blocks: modules generated from canonical controls, linked to them, with content and matrix entries. */
export class TrainingBlockService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly canonical: CanonicalService,
    private readonly content: TrainingContentService,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  async list(tenant: string): Promise<Block[]> {
    const rows = await this.db
      .selectFrom('training_block')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .orderBy('id', 'desc')
      .execute();
    return rows as Block[];
  }

  async get(tenant: string, id: string): Promise<Block> {
    const b = await this.db
      .selectFrom('training_block')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!b) throw notFound('training block', id);
    return b as Block;
  }

  async create(tenant: string, input: BlockCreate): Promise<Block> {
    const now = isoZ(this.clock.now());
    const row = {
      id: this.ids.next(),
      tenant_id: tenant,
      ...input,
      domain_filter: input.domain_filter ?? null,
      category_filter: input.category_filter ?? null,
      severity_filter: input.severity_filter ?? null,
      target_audience_filter: input.target_audience_filter ?? null,
      created_at: now,
      updated_at: now,
      last_generated_at: null,
    };
    await this.db.insertInto('training_block').values(row).execute();
    return row as Block;
  }

  async update(tenant: string, id: string, patch: BlockUpdate): Promise<Block> {
    await this.get(tenant, id);
    const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    await this.db
      .updateTable('training_block')
      .set({ ...set, updated_at: isoZ(this.clock.now()) })
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .execute();
    return this.get(tenant, id);
  }

  async remove(tenant: string, id: string): Promise<{ success: boolean; message: string }> {
    await this.get(tenant, id);
    await this.db.deleteFrom('training_block').where('tenant_id', '=', tenant).where('id', '=', id).execute();
    return { success: true, message: `block ${id} deleted (its modules stay)` };
  }

  async preview(tenant: string, id: string): Promise<BlockPreview> {
    const b = await this.get(tenant, id);
    const controls = await this.canonical.list(tenant, blockFilter(b));
    const modules = planModules(b, controls);
    const roles = rolesFor(b, [...new Set(modules.map((m) => m.domain))]);
    return {
      block_id: b.id,
      total_controls: controls.length,
      modules,
      roles,
      message: controls.length
        ? `${controls.length} control(s) in ${modules.length} module(s)`
        : 'no control matches the filters of this block; nothing would be generated',
    };
  }

  /** Creates or updates the planned modules (same codes: updated, never duplicated), links controls, content, matrix. */
  async generate(
    tenant: string,
    actor: string | undefined,
    id: string,
    o: { language: 'de' | 'en'; auto_matrix: boolean; skip_content: boolean },
  ): Promise<BlockGenerateResult> {
    const p = await this.preview(tenant, id);
    const b = await this.get(tenant, id);
    const result: BlockGenerateResult = {
      modules_created: 0,
      modules_updated: 0,
      controls_linked: 0,
      matrix_entries_created: 0,
      content_generated: 0,
      errors: [],
    };
    if (p.modules.length === 0) {
      result.errors.push({ module_code: null, message: p.message });
      return result;
    }
    const moduleIds = new Map<string, string>();
    await writeTransaction(this.db, async (db) => {
      const now = isoZ(this.clock.now());
      await db.deleteFrom('training_block_control').where('block_id', '=', b.id).execute();
      for (const m of p.modules) {
        const fields = {
          title: m.title,
          description: m.description,
          regulation_area: b.regulation_area,
          frequency_type: b.frequency_type,
          duration_minutes: b.duration_minutes,
          pass_threshold: b.pass_threshold,
        };
        const existing = await db
          .selectFrom('training_module')
          .select('id')
          .where('tenant_id', '=', tenant)
          .where('module_code', '=', m.module_code)
          .executeTakeFirst();
        let moduleId = existing?.id;
        if (moduleId) {
          await db
            .updateTable('training_module')
            .set({ ...fields, updated_at: now })
            .where('id', '=', moduleId)
            .execute();
          result.modules_updated++;
        } else {
          moduleId = this.ids.next();
          await db
            .insertInto('training_module')
            .values({
              id: moduleId,
              tenant_id: tenant,
              module_code: m.module_code,
              ...fields,
              validity_days: 365,
              created_at: now,
              updated_at: now,
            })
            .execute();
          result.modules_created++;
        }
        moduleIds.set(m.module_code, moduleId);
        let position = 0;
        for (const controlId of m.control_ids) {
          await db
            .insertInto('training_block_control')
            .values({ block_id: b.id, control_id: controlId, module_id: moduleId, position: position++ })
            .execute();
          result.controls_linked++;
        }
        if (o.auto_matrix) {
          for (const role of p.roles) {
            const has = await db
              .selectFrom('training_matrix')
              .select('role_code')
              .where('tenant_id', '=', tenant)
              .where('role_code', '=', role)
              .where('module_id', '=', moduleId)
              .executeTakeFirst();
            if (has) continue;
            await db
              .insertInto('training_matrix')
              .values({
                tenant_id: tenant,
                role_code: role,
                module_id: moduleId,
                is_mandatory: 0,
                priority: 5,
                created_at: now,
              })
              .execute();
            result.matrix_entries_created++;
          }
        }
      }
      await db.updateTable('training_block').set({ last_generated_at: now }).where('id', '=', b.id).execute();
    });
    if (!o.skip_content) {
      for (const m of p.modules) {
        try {
          await this.content.generate(tenant, actor, {
            module_id: moduleIds.get(m.module_code)!,
            language: o.language,
          });
          result.content_generated++;
        } catch (e) {
          result.errors.push({ module_code: m.module_code, message: `content not generated: ${(e as Error).message}` });
        }
      }
    }
    return result;
  }

  async controls(tenant: string, id: string): Promise<BlockControl[]> {
    const b = await this.get(tenant, id);
    const links = await this.db
      .selectFrom('training_block_control as l')
      .innerJoin('training_module as m', 'm.id', 'l.module_id')
      .select(['l.control_id', 'l.module_id', 'm.module_code'])
      .where('l.block_id', '=', b.id)
      .orderBy('m.module_code')
      .orderBy('l.position')
      .execute();
    const all = new Map((await this.canonical.all(tenant)).map((c) => [c.id, c]));
    return links.flatMap((l) => {
      const c = all.get(l.control_id);
      return c ? [{ ...c, module_id: l.module_id, module_code: l.module_code }] : [];
    });
  }
}
