import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../support/postgres.js';
import { exited, replicaClient, serve } from '../support/serve-process.js';

type Replica = Awaited<ReturnType<typeof serve>>;

/**
 * Two `serve` processes on one PostgreSQL database, as behind a load balancer: many clients at once, split across
 * both, hammer the same consents and legal documents; afterwards every invariant holds.
 */
describe('two serve replicas on one PostgreSQL database', () => {
  const replicas: Replica[] = [];
  const headers = { 'content-type': 'application/json', 'x-tenant-id': 'replicas' };

  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    // the first creates the schema; the second finds it in place
    replicas.push(await serve(['--db', url]));
    replicas.push(await serve(['--db', url]));
  }, 60_000);
  afterAll(async () => {
    for (const r of replicas) {
      r.proc.kill('SIGTERM');
      await exited(r.proc);
    }
  });

  /** A request to replica `i % 2`: status and JSON body. */
  const call = replicaClient<Record<string, unknown> & unknown[]>(
    () => replicas,
    () => headers,
  );
  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

  it('revokes each consent once: one 200 and 409s for every other concurrent revoke, one revoked entry', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await call(i, 'POST', '/einwilligungen/consents', {
        user_id: `u${i}`,
        data_point_id: 'newsletter',
        granted: true,
      });
      expect(r.status).toBe(201);
      ids.push(r.body.id as string);
    }
    const results = await Promise.all(
      ids.flatMap((id) =>
        Array.from({ length: 6 }, (_, k) =>
          call(k, 'PUT', `/einwilligungen/consents/${id}/revoke`).then((r) => ({ id, ...r })),
        ),
      ),
    );
    for (const id of ids) {
      const statuses = results.filter((r) => r.id === id).map((r) => r.status);
      expect(statuses.sort(), id).toEqual([200, 409, 409, 409, 409, 409]);
      const history = (await call(0, 'GET', `/einwilligungen/consents/${id}/history`)).body as Array<{
        action: string;
      }>;
      expect(history.map((h) => h.action)).toEqual(['granted', 'revoked']);
    }
    const winners = results.filter((r) => r.status === 200);
    const stored = await Promise.all(
      ids.map((id) => call(1, 'GET', `/einwilligungen/consents?user_id=u${ids.indexOf(id)}`)),
    );
    for (const s of stored) {
      const c = (s.body.consents as Array<{ id: string; revoked_at: string }>)[0]!;
      expect(c.revoked_at).toBe(winners.find((w) => w.id === c.id)!.body.revoked_at);
    }
  }, 60_000);

  it('keeps every history entry of concurrent renews on both replicas', async () => {
    const created = await call(0, 'POST', '/einwilligungen/consents', {
      user_id: 'renewer',
      data_point_id: 'analytics',
      granted: true,
      consent_version: '1.0',
    });
    const id = created.body.id as string;
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, k) =>
        call(k, 'PUT', `/einwilligungen/consents/${id}/renew`, k % 3 ? {} : { consent_version: `2.${k}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const history = (await call(1, 'GET', `/einwilligungen/consents/${id}/history`)).body as Array<{
      action: string;
      consent_version: string;
    }>;
    expect(history).toHaveLength(1 + results.length);
    expect(history.filter((h) => h.action !== 'granted')).toHaveLength(results.length);
  }, 60_000);

  it('keeps the statistics exact while both replicas grant, refuse and revoke at once', async () => {
    const created = await Promise.all(
      Array.from({ length: 90 }, (_, k) =>
        call(k, 'POST', '/einwilligungen/consents', {
          user_id: `stats-user-${k % 35}`,
          data_point_id: `stats-${k % 3}`,
          granted: k % 4 !== 0,
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
    const granted = created.filter((r) => r.body.granted).map((r) => r.body.id as string);
    const revoked = await Promise.all(
      granted.filter((_, k) => k % 2).map((id, k) => call(k, 'PUT', `/einwilligungen/consents/${id}/revoke`)),
    );
    expect(revoked.map((r) => r.status)).toEqual(revoked.map(() => 200));

    // what the statistics must say, counted from every stored consent of the tenant
    const all: Array<{ user_id: string; data_point_id: string; granted: boolean; revoked_at: string | null }> = [];
    for (let offset = 0; ; offset += 500) {
      const page = await call(0, 'GET', `/einwilligungen/consents?limit=500&offset=${offset}`);
      all.push(...(page.body.consents as typeof all));
      if ((page.body.consents as unknown[]).length < 500) break;
    }
    const byDataPoint: Record<string, { total: number; active: number; revoked: number }> = {};
    for (const c of all) {
      const d = (byDataPoint[c.data_point_id] ??= { total: 0, active: 0, revoked: 0 });
      d.total++;
      if (c.revoked_at) d.revoked++;
      else if (c.granted) d.active++;
    }
    for (const i of [0, 1]) {
      const stats = (await call(i, 'GET', '/einwilligungen/consents/stats')).body;
      expect(stats).toMatchObject({
        total_consents: all.length,
        active_consents: all.filter((c) => c.granted && !c.revoked_at).length,
        revoked_consents: all.filter((c) => c.revoked_at).length,
        unique_users: new Set(all.map((c) => c.user_id)).size,
      });
      expect(stats.by_data_point).toEqual(byDataPoint);
    }
  }, 60_000);

  it('numbers concurrent new versions of one document without gaps or repeats', async () => {
    const doc = await call(0, 'POST', '/legal-documents/documents', {
      title: 'Datenschutzerklärung',
      document_type: 'privacy_policy',
      language: 'de',
    });
    expect(doc.status).toBe(201);
    const docId = doc.body.id as string;
    const added = await Promise.all(
      Array.from({ length: 12 }, (_, k) =>
        call(k, 'POST', `/legal-documents/documents/${docId}/versions`, { title: `v${k}`, content: `Text ${k}` }),
      ),
    );
    expect(added.map((r) => r.status)).toEqual(added.map(() => 201));
    expect(added.map((r) => r.body.version_number as number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, k) => k + 1),
    );
  }, 60_000);

  it('leaves exactly one published version after concurrent publishes on both replicas', async () => {
    for (let round = 0; round < 3; round++) {
      const doc = await call(0, 'POST', '/legal-documents/documents', {
        title: `AGB ${round}`,
        document_type: 'terms',
        language: 'de',
      });
      const docId = doc.body.id as string;
      const versions: string[] = [];
      for (let k = 0; k < 6; k++) {
        const v = await call(k, 'POST', `/legal-documents/documents/${docId}/versions`, {
          title: `v${k}`,
          content: `Fassung ${k}`,
        });
        versions.push(v.body.id as string);
        expect((await call(k, 'POST', `/legal-documents/versions/${v.body.id}/submit`, {})).status).toBe(200);
        expect((await call(k, 'POST', `/legal-documents/versions/${v.body.id}/approve`, {})).status).toBe(200);
      }
      // every version published from both replicas at once: each version once (200), its twin a 409
      const results = await Promise.all(
        versions.flatMap((id, k) => [
          call(k, 'POST', `/legal-documents/versions/${id}/publish`, {}),
          call(k + 1, 'POST', `/legal-documents/versions/${id}/publish`, {}),
        ]),
      );
      const statuses = results.map((r) => r.status);
      expect(count(statuses, 200), JSON.stringify(results.filter((r) => r.status !== 200 && r.status !== 409))).toBe(
        versions.length,
      );
      expect(count(statuses, 409)).toBe(versions.length);
      const stored = (await call(1, 'GET', `/legal-documents/documents/${docId}/versions`)).body as Array<{
        id: string;
        status: string;
        published_at: string;
      }>;
      expect(stored.filter((v) => v.status === 'published')).toHaveLength(1);
      expect(stored.filter((v) => v.status === 'archived')).toHaveLength(versions.length - 1);
      expect((await call(0, 'GET', `/legal-documents/documents/${docId}`)).body.status).toBe('published');
    }
  }, 120_000);
});
