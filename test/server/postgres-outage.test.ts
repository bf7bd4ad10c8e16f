import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchPostgres, type PostgresProcess } from '../support/postgres-server.js';
import { exited, serve } from '../support/serve-process.js';

/**
 * A PostgreSQL server of this test's own: stopping the one the other tests share would break them. The data
 * survives the stop, as a real server's does.
 */
describe('serve while PostgreSQL goes away and comes back', () => {
  let postgres: PostgresProcess;
  let url = '';
  beforeAll(async () => {
    postgres = await launchPostgres();
    url = postgres.url;
  }, 60_000);
  afterAll(() => postgres?.remove());

  /** A request that must be answered quickly, whatever the database is doing. */
  async function timed(path: string, init?: RequestInit) {
    const started = Date.now();
    const res = await fetch(path, { ...init, signal: AbortSignal.timeout(10_000) });
    // an error body, or the list of assessments
    const body = (await res.json()) as { error: string } & Array<{ title: string }>;
    return { status: res.status, body, ms: Date.now() - started };
  }

  it('answers 503 with the JSON error body while the database is down, never crashing, and recovers by itself', async () => {
    const s = await serve(['--db', url]);
    try {
      const api = `${s.url}/sdk/v1`;
      const created = await timed(`${api}/dsfa`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'vor dem Ausfall' }),
      });
      expect(created.status).toBe(201);
      expect((await timed(`${api}/health`)).body).toMatchObject({ status: 'ok', store: 'postgres' });

      await postgres.stop();
      // past the second for which the server remembers that no API keys exist, so every request asks the database
      // for keys first: that lookup fails outside the areas and must read as 503 too
      await new Promise((r) => setTimeout(r, 1100));
      for (const path of ['/dsfa', '/health', '/dsfa/stats', '/dsfa']) {
        const r = await timed(`${api}${path}`);
        expect(r.status, path).toBe(503);
        expect(r.body).toMatchObject({ code: 'unavailable', error: expect.stringMatching(/PostgreSQL at/) });
        expect((r.body as { error: string }).error).not.toContain(':compliance-test@');
        expect(r.ms, path).toBeLessThan(6000);
      }
      expect(s.proc.exitCode).toBeNull(); // still serving

      await postgres.start();
      let back = await timed(`${api}/dsfa`);
      for (let i = 0; i < 40 && back.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 250));
        back = await timed(`${api}/dsfa`);
      }
      expect(back.status).toBe(200);
      expect((back.body as { title: string }[]).map((d) => d.title)).toEqual(['vor dem Ausfall']);
      expect((await timed(`${api}/health`)).status).toBe(200);
    } finally {
      s.proc.kill('SIGTERM');
      expect(await exited(s.proc)).toBe(0);
    }
  }, 90_000);
});
