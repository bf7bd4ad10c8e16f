import { isoZ, type Clock, type IdSource } from '../clock.js';
import { notFound } from '../errors.js';
import type { TrainingContentService } from '../training/content.service.js';
import { blockFilter, planModules, rolesFor } from './block.plan.js';
import type {
  Block,
  BlockControl,
  BlockCreate,
  BlockGenerateResult,
  BlockPreview,
  BlockUpdate,
} from './block.schema.js';
import type { BlockLink, TrainingBlockStore } from './block.store.js';
import type { CanonicalService } from './canonical.service.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** Training blocks: modules generated from canonical controls, linked to them, with content and matrix entries. */
export class TrainingBlockService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly canonical: CanonicalService,
    private readonly content: Pick<TrainingContentService, 'generate'>,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  /** The store for reads outside a unit of work. */
  private get store(): TrainingBlockStore {
    return this.uow.read.trainingBlocks;
  }

  list(tenant: string): Promise<Block[]> {
    return this.store.list(tenant);
  }

  async get(tenant: string, id: string, store: TrainingBlockStore = this.store): Promise<Block> {
    const b = await store.get(tenant, id);
    if (!b) throw notFound('training block', id);
    return b;
  }

  async create(tenant: string, input: BlockCreate): Promise<Block> {
    const now = isoZ(this.clock.now());
    const block = {
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
    await this.uow.write(tenant, ({ trainingBlocks }) => trainingBlocks.insert(block));
    return block;
  }

  update(tenant: string, id: string, patch: BlockUpdate): Promise<Block> {
    return this.uow.write(tenant, async ({ trainingBlocks: store }) => {
      await this.get(tenant, id, store);
      const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      await store.update(tenant, id, { ...set, updated_at: isoZ(this.clock.now()) });
      return this.get(tenant, id, store);
    });
  }

  remove(tenant: string, id: string): Promise<{ success: boolean; message: string }> {
    return this.uow.write(tenant, async ({ trainingBlocks: store }) => {
      await this.get(tenant, id, store);
      await store.delete(tenant, id);
      return { success: true, message: `block ${id} deleted (its modules stay)` };
    });
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
    // The transaction may run more than once (PostgreSQL retries it after a conflict with another replica): each run
    // counts afresh and only the run that commits is reported.
    const written = await this.uow.write(tenant, async ({ trainingBlocks: store }) => {
      const now = isoZ(this.clock.now());
      const counts = { modules_created: 0, modules_updated: 0, controls_linked: 0, matrix_entries_created: 0 };
      const moduleIds = new Map<string, string>();
      const links: BlockLink[] = [];
      await this.get(tenant, b.id, store);
      for (const m of p.modules) {
        const fields = {
          title: m.title,
          description: m.description,
          regulation_area: b.regulation_area,
          frequency_type: b.frequency_type,
          duration_minutes: b.duration_minutes,
          pass_threshold: b.pass_threshold,
        };
        let moduleId = await store.moduleIdByCode(tenant, m.module_code);
        if (moduleId) {
          await store.updateModule(tenant, moduleId, { ...fields, updated_at: now });
          counts.modules_updated++;
        } else {
          moduleId = this.ids.next();
          await store.insertModule({
            id: moduleId,
            tenant_id: tenant,
            module_code: m.module_code,
            ...fields,
            title_en: null,
            validity_days: 365,
            created_at: now,
            updated_at: now,
          });
          counts.modules_created++;
        }
        moduleIds.set(m.module_code, moduleId);
        m.control_ids.forEach((control_id, position) => links.push({ control_id, module_id: moduleId, position }));
        if (o.auto_matrix)
          for (const role of p.roles)
            if (
              await store.addMatrixEntry({
                tenant_id: tenant,
                role_code: role,
                module_id: moduleId,
                is_mandatory: false,
                priority: 5,
                created_at: now,
              })
            )
              counts.matrix_entries_created++;
      }
      await store.replaceLinks(tenant, b.id, links);
      counts.controls_linked = links.length;
      await store.update(tenant, b.id, { last_generated_at: now });
      return { counts, moduleIds };
    });
    Object.assign(result, written.counts);
    if (!o.skip_content) {
      for (const m of p.modules) {
        try {
          await this.content.generate(tenant, actor, {
            module_id: written.moduleIds.get(m.module_code)!,
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
    const links = await this.store.links(tenant, b.id);
    const all = new Map((await this.canonical.all(tenant)).map((c) => [c.id, c]));
    return links.flatMap((l) => {
      const c = all.get(l.control_id);
      return c ? [{ ...c, module_id: l.module_id, module_code: l.module_code }] : [];
    });
  }
}
