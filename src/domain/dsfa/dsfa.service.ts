import { isoLocal, type Clock, type IdSource } from '../clock.js';
import { notFound } from '../errors.js';
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
  type DsfaUpdate,
} from './dsfa.schema.js';
import type { DsfaStore } from './dsfa.store.js';

type AuditAction = DsfaAuditEntry['action'];
type Values = Record<string, unknown>;

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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
    const unchanged = old !== undefined && sameJson(oldBody, { ...m, id });
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
    if (r.n <= 0) continue;
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

/**
 * Applies a PUT body: absent and null fields stay unchanged; approving sets approved_at. Returns the next record
 * and the changed fields before and after (for the audit entry).
 */
export function applyUpdate(
  current: Dsfa,
  patch: DsfaUpdate,
  now: string,
  ids: IdSource,
): { next: Dsfa; old_values: Values; new_values: Values } {
  const next: Dsfa = { ...current };
  const set = next as unknown as Values;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || value === null) continue;
    set[key] =
      key === 'ai_use_case_modules'
        ? normalizeModules(value as AiUseCaseModuleInput[], current.ai_use_case_modules, now, ids)
        : value;
  }
  if (patch.status === 'approved' && current.status !== 'approved') next.approved_at = now;
  const old_values: Values = {};
  const new_values: Values = {};
  for (const key of Object.keys(next) as Array<keyof Dsfa>) {
    if (!sameJson(current[key], next[key])) {
      old_values[key] = current[key];
      new_values[key] = next[key];
    }
  }
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
    private readonly store: DsfaStore,
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
    return this.store.list(tenant, q);
  }

  get(tenant: string, id: string): Promise<Dsfa> {
    return mustGet(this.store, tenant, id);
  }

  async create(tenant: string, actor: string | undefined, input: DsfaCreate): Promise<Dsfa> {
    const now = isoLocal(this.clock.now());
    const { ai_use_case_modules, created_by, approved_by, ...fields } = input;
    const record: Dsfa = {
      id: this.ids.next(),
      tenant_id: tenant,
      ...fields,
      approved_by: approved_by ?? null,
      approved_at: input.status === 'approved' ? now : null,
      created_by: created_by ?? actor ?? 'system',
      created_at: now,
      updated_at: now,
      ai_use_case_modules: normalizeModules(ai_use_case_modules, [], now, this.ids),
    };
    const { id: _id, tenant_id: _t, ...values } = record;
    await this.store.transaction(async (s) => {
      await s.insert(record);
      await s.appendAudit(this.audit(tenant, record.id, 'CREATE', actor ?? record.created_by, {}, values, now));
    });
    return record;
  }

  update(tenant: string, actor: string | undefined, id: string, patch: DsfaUpdate): Promise<Dsfa> {
    return this.store.transaction(async (s) => {
      const current = await mustGet(s, tenant, id);
      const now = isoLocal(this.clock.now());
      const { next, old_values, new_values } = applyUpdate(current, patch, now, this.ids);
      await s.replace(next);
      await s.appendAudit(this.audit(tenant, id, 'UPDATE', actor ?? 'system', old_values, new_values, now));
      return next;
    });
  }

  setStatus(tenant: string, actor: string | undefined, id: string, change: DsfaStatusChange): Promise<Dsfa> {
    return this.store.transaction(async (s) => {
      const current = await mustGet(s, tenant, id);
      const now = isoLocal(this.clock.now());
      const next: Dsfa = { ...current, status: change.status, updated_at: now };
      const old_values: Values = { status: current.status };
      const new_values: Values = { status: change.status };
      if (change.status === 'approved') {
        next.approved_at = now;
        if (change.approved_by) next.approved_by = change.approved_by;
        old_values.approved_by = current.approved_by;
        old_values.approved_at = current.approved_at;
        new_values.approved_by = next.approved_by;
        new_values.approved_at = now;
      }
      await s.replace(next);
      await s.appendAudit(this.audit(tenant, id, 'STATUS_CHANGE', actor ?? 'system', old_values, new_values, now));
      return next;
    });
  }

  delete(tenant: string, actor: string | undefined, id: string): Promise<DeleteResult> {
    return this.store.transaction(async (s) => {
      const current = await mustGet(s, tenant, id);
      const now = isoLocal(this.clock.now());
      const { id: _id, tenant_id: _t, ...values } = current;
      await s.remove(tenant, id);
      await s.appendAudit(this.audit(tenant, id, 'DELETE', actor ?? 'system', values, {}, now));
      return { success: true, message: `DSFA ${id} deleted` };
    });
  }

  async stats(tenant: string): Promise<DsfaStats> {
    return statsFromCounts(await this.store.countByStatusAndRisk(tenant));
  }

  auditLog(tenant: string, q: { limit: number; offset: number; dsfa_id?: string }): Promise<DsfaAuditEntry[]> {
    return this.store.auditLog(tenant, q);
  }
}
