import { detailsFromZod } from '../validation.js';
import {
  CanonicalControl,
  type CanonicalImport,
  type CanonicalImportResult,
  type CanonicalMeta,
  type ControlFilter,
  type ListedControl,
} from './canonical.schema.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { CanonicalStore } from './canonical-store.port.js';

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Sorts ids like AUTH-002 < AUTH-010 < CRYP-001. */
export const byControlId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id, 'en', { numeric: true });

/** The shipped catalogue overlaid with the tenant's own controls (same id: the tenant's wins). */
export function mergeCatalogues(builtin: CanonicalControl[], own: CanonicalControl[]): ListedControl[] {
  const out = new Map<string, ListedControl>();
  for (const c of builtin) out.set(c.id, { ...c, source: 'builtin' });
  for (const c of own) out.set(c.id, { ...c, source: 'tenant' });
  return [...out.values()].sort(byControlId);
}

export function applyFilter<T extends CanonicalControl>(controls: T[], f: ControlFilter): T[] {
  const lower = (xs?: string[]) => xs?.map((x) => x.toLowerCase());
  const domains = lower(f.domain);
  const categories = lower(f.category);
  return controls.filter(
    (c) =>
      (!domains || domains.includes(c.domain.toLowerCase())) &&
      (!categories || categories.includes(c.category.toLowerCase())) &&
      (!f.severity || f.severity.includes(c.severity)) &&
      (!f.target_audience || f.target_audience.includes(c.target_audience) || c.target_audience === 'all'),
  );
}

export function meta(controls: CanonicalControl[]): CanonicalMeta {
  const count = (key: (c: CanonicalControl) => string) => {
    const m = new Map<string, number>();
    for (const c of controls) m.set(key(c), (m.get(key(c)) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  };
  return {
    domains: count((c) => c.domain).map(([domain, n]) => ({ domain, count: n })),
    categories: count((c) => c.category).map(([category, n]) => ({ category, count: n })),
    audiences: count((c) => c.target_audience).map(([audience, n]) => ({ audience, count: n })),
    total: controls.length,
  };
}

/** The canonical control catalogue of a tenant: shipped controls plus its own imports. */
export class CanonicalService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly builtin: () => Promise<CanonicalControl[]>,
  ) {}

  async all(tenant: string): Promise<ListedControl[]> {
    return mergeCatalogues(await this.builtin(), await this.uow.read.canonical.tenantControls(tenant));
  }

  async list(tenant: string, f: ControlFilter): Promise<ListedControl[]> {
    return applyFilter(await this.all(tenant), f);
  }

  async meta(tenant: string): Promise<CanonicalMeta> {
    return meta(await this.all(tenant));
  }

  /**
   * Validates every row on its own; a duplicate id in the file refuses the later rows. Valid rows are compared with
   * the stored controls and written in one unit of work; a row equal to the stored control is counted as unchanged,
   * so importing twice changes nothing.
   */
  async import(tenant: string, input: CanonicalImport): Promise<CanonicalImportResult> {
    const seen = new Map<string, number>();
    const result: CanonicalImportResult = {
      read: input.controls.length,
      created: 0,
      updated: 0,
      unchanged: 0,
      rejected: 0,
      rejections: [],
      dry_run: input.dry_run,
    };
    const valid: CanonicalControl[] = [];
    input.controls.forEach((raw, i) => {
      const line = input.lines?.[i] ?? i + 1;
      const rawId = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : null;
      const parsed = CanonicalControl.safeParse(raw, { reportInput: true });
      if (!parsed.success) {
        result.rejections.push({
          line,
          id: rawId,
          reason: detailsFromZod(parsed.error)
            .map((d) => `${d.path}: ${d.message}`)
            .join('; '),
        });
        return;
      }
      const c = parsed.data;
      const first = seen.get(c.id);
      if (first !== undefined) {
        result.rejections.push({ line, id: c.id, reason: `duplicate id ${c.id} (first on line ${first})` });
        return;
      }
      seen.set(c.id, line);
      valid.push(c);
    });
    result.rejected = result.rejections.length;
    // compared with what is stored in the unit of work that writes, so the counts are those of the committed run
    const compare = async (store: CanonicalStore) => {
      const own = new Map((await store.tenantControls(tenant)).map((c) => [c.id, c]));
      const counts = { created: 0, updated: 0, unchanged: 0 };
      const write: CanonicalControl[] = [];
      for (const c of valid) {
        const stored = own.get(c.id);
        if (stored && sameJson(stored, c)) counts.unchanged++;
        else {
          if (stored) counts.updated++;
          else counts.created++;
          write.push(c);
        }
      }
      if (!input.dry_run && write.length) await store.upsert(tenant, write);
      return counts;
    };
    const counts =
      input.dry_run || !valid.length
        ? await compare(this.uow.read.canonical)
        : await this.uow.write(tenant, ({ canonical }) => compare(canonical));
    return Object.assign(result, counts);
  }
}
