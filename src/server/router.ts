import type { Operation } from '../contract/operation.js';

export interface Route {
  area: string;
  name: string;
  op: Operation;
  segments: Array<string | { param: string }>;
}

export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** A router compiled from the contract table: fixed segments win over parameters, so /dsfa/stats is never an id. */
export class Router {
  private readonly routes: Route[] = [];

  constructor(areas: Record<string, Record<string, Operation>>) {
    for (const [area, contract] of Object.entries(areas)) {
      for (const [name, op] of Object.entries(contract)) {
        const segments = op.path
          .split('/')
          .filter(Boolean)
          .map((s) => {
            const m = /^\{(\w+)\}$/.exec(s);
            return m ? { param: m[1]! } : s;
          });
        this.routes.push({ area, name, op, segments });
      }
    }
    // more fixed segments first, so fixed paths shadow parameters at the same depth
    const fixedCount = (r: Route) => r.segments.filter((s) => typeof s === 'string').length;
    this.routes.sort((a, b) => fixedCount(b) - fixedCount(a));
  }

  all(): readonly Route[] {
    return this.routes;
  }

  /** `parts` are the decoded path segments after /sdk/v1. The most specific matching path wins, whatever the method. */
  match(method: string, parts: string[]): Match {
    let best = -1;
    const candidates: Array<{ route: Route; params: Record<string, string> }> = [];
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let fixed = 0;
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const s = route.segments[i]!;
        if (typeof s === 'string') {
          ok = s === parts[i];
          fixed++;
        } else params[s.param] = parts[i]!;
      }
      if (!ok || fixed < best) continue;
      if (fixed > best) {
        best = fixed;
        candidates.length = 0;
      }
      candidates.push({ route, params });
    }
    const hit = candidates.find((c) => c.route.op.method === method);
    if (hit) return { kind: 'route', ...hit };
    return candidates.length
      ? { kind: 'method', allowed: [...new Set(candidates.map((c) => c.route.op.method))] }
      : { kind: 'none' };
  }
}
