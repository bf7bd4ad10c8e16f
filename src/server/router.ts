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
        const segments = op.path.split('/').filter(Boolean).map((s) => {
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

  /** `parts` are the decoded path segments after /sdk/v1. */
  match(method: string, parts: string[]): Match {
    const allowed = new Set<string>();
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      let params: Record<string, string> | undefined = {};
      for (let i = 0; i < parts.length; i++) {
        const s = route.segments[i]!;
        if (typeof s === 'string') {
          if (s !== parts[i]) {
            params = undefined;
            break;
          }
        } else params[s.param] = parts[i]!;
      }
      if (!params) continue;
      if (route.op.method === method) return { kind: 'route', route, params };
      allowed.add(route.op.method);
    }
    return allowed.size ? { kind: 'method', allowed: [...allowed] } : { kind: 'none' };
  }
}
