import { isoLocal, type Clock, type IdSource } from '../clock.js';
import { conflict, notFound } from '../errors.js';
import {
  DSFA_STATUSES,
  RISK_LEVELS,
  type AiUseCaseModule,
  type AiUseCaseModuleInput,
  type DeleteResult,
  type Dsfa,
  type DsfaAuditEntry,
  type DsfaCreate,
  type DsfaListQuery,
  type DsfaStats,
  type DsfaStatusChange,
  type DsfaSettings,
  type DsfaSettingsInput,
  type DsfaUpdate,
} from './dsfa.schema.js';
import { settleAdditions } from './dsfa.additions.js';
import type { DsfaStore } from './dsfa-store.port.js';
import type { UnitOfWork } from '../unit-of-work.js';
import {
  authorsOf,
  checkApprover,
  checkTransition,
  contentDiffers,
  contentHash,
  isKeyPrincipal,
  type DsfaStatusValue,
  type DsfaWorkflow,
  type ReviewPrincipals,
} from './dsfa.workflow.js';

type AuditAction = DsfaAuditEntry['action'];
type Values = Record<string, unknown>;

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// Key order differs between a stored module and one parsed from a body; it is no change.
const sortedKeys = (o: object): object => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Assigns ids and timestamps to AI modules; a module already stored keeps its id and created_at. */
export function normalizeModules(
  input: AiUseCaseModuleInput[],
  previous: AiUseCaseModule[],
  now: string,
  ids: IdSource,
): AiUseCaseModule[] {
  const byId = new Map(previous.map((m) => [m.id, m]));
  return input.map((m) => {
    const id = m.id ?? ids.next();
    const old = byId.get(id);
    const { created_at: _c, updated_at: _u, ...oldBody } = old ?? ({} as AiUseCaseModule);
    const unchanged = old !== undefined && sameJson(sortedKeys(oldBody), sortedKeys({ ...m, id }));
    return {
      ...m,
      id,
      created_at: old?.created_at ?? now,
      updated_at: unchanged ? old.updated_at : now,
    };
  });
}

/** The statistics of 2.4 from counts per (status, risk level): zero counts are left out of the maps. */
export function statsFromCounts(rows: Array<{ status: string; risk_level: string; n: number }>): DsfaStats {
  const by_status: Record<string, number> = {};
  const by_risk_level: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    total += r.n;
    by_status[r.status] = (by_status[r.status] ?? 0) + r.n;
    by_risk_level[r.risk_level] = (by_risk_level[r.risk_level] ?? 0) + r.n;
  }
  const order = <K extends string>(keys: readonly K[], m: Record<string, number>) =>
    Object.fromEntries(keys.filter((k) => m[k]).map((k) => [k, m[k]])) as Partial<Record<K, number>>;
  return {
    total,
    by_status: order(DSFA_STATUSES, by_status),
    by_risk_level: order(RISK_LEVELS, by_risk_level),
    draft_count: by_status['draft'] ?? 0,
    in_review_count: by_status['in-review'] ?? 0,
    approved_count: by_status['approved'] ?? 0,
    needs_update_count: by_status['needs-update'] ?? 0,
  };
}

/** Who asks for a change, and under which review workflow of the tenant. */
export interface ReviewContext {
  actor?: string;
  workflow?: DsfaWorkflow;
  /** For an approval under the strict workflow: the principals four eyes compare. */
  principals?: ReviewPrincipals;
}

/**
 * Moves `next` (a copy of `current`) to status `to`, keeping the approval with the content it approved: entering
 * `approved` records approver and time; leaving it clears both. `approval` is true for a new approval (a change
 * into approved, or approving again), which records the content hash in its audit entry.
 */
function moveStatus(
  current: Dsfa,
  next: Dsfa,
  to: DsfaStatusValue,
  approvedBy: string | null | undefined,
  ctx: ReviewContext,
  now: string,
  { approving }: { approving: boolean },
): { approval: boolean } {
  const workflow = ctx.workflow ?? 'open';
  const moving = to !== current.status;
  if (moving || (approving && workflow === 'strict')) checkTransition(workflow, current.status, to);
  next.status = to;
  if (to === 'approved' && (moving || approving)) {
    checkApprover(workflow, current.created_by, approvedBy, ctx.principals);
    // approving again without a name keeps the approver on record; a new approval defaults to who asks for it
    next.approved_by = approvedBy ?? (moving ? null : current.approved_by) ?? ctx.actor ?? null;
    next.approved_at = now;
    return { approval: true };
  }
  if (to === 'approved') {
    if (approvedBy != null && approvedBy !== current.approved_by) {
      if (workflow === 'strict')
        throw conflict('in the strict review workflow the approver is recorded by an approval only', [
          { path: 'approved_by', message: 'set by approving (in-review → approved)' },
        ]);
      next.approved_by = approvedBy;
    }
  } else {
    next.approved_by = null;
    next.approved_at = null;
  }
  return { approval: false };
}

/** The changed fields of a record, before and after (for an audit entry). */
function changedValues(current: Dsfa, next: Dsfa): { old_values: Values; new_values: Values } {
  const old_values: Values = {};
  const new_values: Values = {};
  // an optional field may be absent on either side: an unset one is recorded as null
  for (const key of new Set([...Object.keys(current), ...Object.keys(next)]) as Set<keyof Dsfa>) {
    if (!sameJson(current[key], next[key])) {
      old_values[key] = current[key] ?? null;
      new_values[key] = next[key] ?? null;
    }
  }
  return { old_values, new_values };
}

/**
 * Applies a PUT body: absent and null fields stay unchanged. A change of the assessed content moves an approved
 * DSFA to needs-update (its approval was of other content), whatever status the body repeats; a status change
 * follows the tenant's workflow. Returns the next record and the changed fields before and after (for the audit
 * entry; an approval adds the hash of the content approved).
 */
export function applyUpdate(
  current: Dsfa,
  patch: DsfaUpdate,
  now: string,
  ids: IdSource,
  ctx: ReviewContext = {},
): { next: Dsfa; old_values: Values; new_values: Values } {
  const patched: Dsfa = { ...current };
  const set = patched as unknown as Values;
  const { status, approved_by, ...content } = patch;
  for (const [key, value] of Object.entries(content)) {
    if (value === undefined || value === null) continue;
    set[key] =
      key === 'ai_use_case_modules'
        ? normalizeModules(value as AiUseCaseModuleInput[], current.ai_use_case_modules, now, ids)
        : value;
  }
  const next = settleAdditions(patched, patch.measure_details != null);
  let to = status ?? current.status;
  if (current.status === 'approved' && to === 'approved' && contentDiffers(current, next)) to = 'needs-update';
  const { approval } = moveStatus(current, next, to, approved_by, ctx, now, { approving: false });
  const { old_values, new_values } = changedValues(current, next);
  if (approval) new_values.content_hash = contentHash(next);
  next.updated_at = now;
  return { next, old_values, new_values };
}

async function mustGet(store: DsfaStore, tenant: string, id: string): Promise<Dsfa> {
  const found = await store.get(tenant, id);
  if (!found) throw notFound('DSFA', id);
  return found;
}

/** Impact assessments: every change is written together with its audit entry. */
export class DsfaService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdSource,
  ) {}

  private audit(
    tenant: string,
    dsfa_id: string,
    action: AuditAction,
    changed_by: string,
    old_values: Values,
    new_values: Values,
    at: string,
  ): DsfaAuditEntry {
    return {
      id: this.ids.next(),
      tenant_id: tenant,
      dsfa_id,
      action,
      changed_by,
      old_values,
      new_values,
      created_at: at,
    };
  }

  list(tenant: string, q: DsfaListQuery): Promise<Dsfa[]> {
    return this.uow.read.dsfa.list(tenant, q);
  }

  get(tenant: string, id: string): Promise<Dsfa> {
    return mustGet(this.uow.read.dsfa, tenant, id);
  }

  async create(tenant: string, actor: string | undefined, input: DsfaCreate): Promise<Dsfa> {
    const now = isoLocal(this.clock.now());
    const { ai_use_case_modules, created_by, approved_by, ...fields } = input;
    const approved = input.status === 'approved';
    const record: Dsfa = settleAdditions(
      {
        id: this.ids.next(),
        tenant_id: tenant,
        ...fields,
        // approval data belongs to an approved record only
        approved_by: approved ? (approved_by ?? actor ?? null) : null,
        approved_at: approved ? now : null,
        created_by: created_by ?? actor ?? 'system',
        created_at: now,
        updated_at: now,
        ai_use_case_modules: normalizeModules(ai_use_case_modules, [], now, this.ids),
      },
      input.measure_details !== undefined,
    );
    const { id: _id, tenant_id: _t, ...values } = record;
    await this.uow.write(tenant, async ({ dsfa: s }) => {
      if ((await s.workflow(tenant)) === 'strict' && record.status !== 'draft')
        throw conflict('in the strict review workflow a new assessment starts as draft', [
          { path: 'status', message: 'allowed on create: draft' },
        ]);
      await s.insert(record);
      const logged = approved ? { ...values, content_hash: contentHash(record) } : values;
      await s.appendAudit(this.audit(tenant, record.id, 'CREATE', actor ?? record.created_by, {}, logged, now));
    });
    return record;
  }

  /**
   * What four eyes compare for a change that asks for `status`: the approving key and the keys that wrote and
   * submitted the assessment, read only for an approval by a key under the strict workflow.
   */
  private async reviewContext(
    s: DsfaStore,
    tenant: string,
    id: string,
    who: { actor?: string; principal?: string },
    status: DsfaStatusValue | undefined,
  ): Promise<ReviewContext> {
    const workflow = await s.workflow(tenant);
    const judged = workflow === 'strict' && status === 'approved' && isKeyPrincipal(who.principal);
    const principals = judged ? { approver: who.principal, ...authorsOf(await s.changesBy(tenant, id)) } : undefined;
    return { actor: who.actor, workflow, principals };
  }

  update(tenant: string, actor: string | undefined, id: string, patch: DsfaUpdate, principal?: string): Promise<Dsfa> {
    return this.uow.write(tenant, async ({ dsfa: s }) => {
      const current = await mustGet(s, tenant, id);
      const now = isoLocal(this.clock.now());
      const ctx = await this.reviewContext(s, tenant, id, { actor, principal }, patch.status ?? undefined);
      const { next, old_values, new_values } = applyUpdate(current, patch, now, this.ids, ctx);
      await s.replace(next);
      await s.appendAudit(this.audit(tenant, current.id, 'UPDATE', actor ?? 'system', old_values, new_values, now));
      return next;
    });
  }

  setStatus(
    tenant: string,
    actor: string | undefined,
    id: string,
    change: DsfaStatusChange,
    principal?: string,
  ): Promise<Dsfa> {
    return this.uow.write(tenant, async ({ dsfa: s }) => {
      const current = await mustGet(s, tenant, id);
      const now = isoLocal(this.clock.now());
      const next: Dsfa = { ...current, updated_at: now };
      const ctx = await this.reviewContext(s, tenant, id, { actor, principal }, change.status);
      const { approval } = moveStatus(current, next, change.status, change.approved_by, ctx, now, {
        approving: change.status === 'approved',
      });
      const old_values: Values = { status: current.status };
      const new_values: Values = { status: next.status };
      if (approval || current.approved_at !== next.approved_at) {
        old_values.approved_by = current.approved_by;
        old_values.approved_at = current.approved_at;
        new_values.approved_by = next.approved_by;
        new_values.approved_at = next.approved_at;
      }
      if (approval) new_values.content_hash = contentHash(next);
      await s.replace(next);
      await s.appendAudit(
        this.audit(tenant, current.id, 'STATUS_CHANGE', actor ?? 'system', old_values, new_values, now),
      );
      return next;
    });
  }

  /** The tenant's review workflow (`open` unless set). */
  async settings(tenant: string): Promise<DsfaSettings> {
    return (await this.uow.read.dsfa.settings(tenant)) ?? { workflow: 'open', updated_by: null, updated_at: null };
  }

  async updateSettings(tenant: string, actor: string | undefined, input: DsfaSettingsInput): Promise<DsfaSettings> {
    const record: DsfaSettings = {
      workflow: input.workflow,
      updated_by: actor ?? 'system',
      updated_at: isoLocal(this.clock.now()),
    };
    await this.uow.write(tenant, ({ dsfa }) => dsfa.saveSettings(tenant, record));
    return record;
  }

  delete(tenant: string, actor: string | undefined, id: string): Promise<DeleteResult> {
    return this.uow.write(tenant, async ({ dsfa: s }) => {
      const current = await mustGet(s, tenant, id);
      const now = isoLocal(this.clock.now());
      const { id: _id, tenant_id: _t, ...values } = current;
      await s.remove(tenant, current.id);
      await s.appendAudit(this.audit(tenant, current.id, 'DELETE', actor ?? 'system', values, {}, now));
      return { success: true, message: `DSFA ${current.id} deleted` };
    });
  }

  async stats(tenant: string): Promise<DsfaStats> {
    return statsFromCounts(await this.uow.read.dsfa.countByStatusAndRisk(tenant));
  }

  auditLog(tenant: string, q: { limit: number; offset: number; dsfa_id?: string }): Promise<DsfaAuditEntry[]> {
    return this.uow.read.dsfa.auditLog(tenant, q);
  }
}
