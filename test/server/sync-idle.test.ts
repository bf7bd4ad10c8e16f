import { beforeAll, describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { withSyncServer } from '../support/sync-server.js';
import { cli, tmpDb } from '../support/helpers.js';

// A sync with nothing to move asks the server one thing (sync.info, whose journal head says nothing is new) and moves
// nothing; a change on either side after it still travels on the next run.
describe('compliance sync with nothing to move', () => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  let logs: string[];
  withSyncServer('sqlite', (s) => ({ server, url, key, logs } = s));
  beforeAll(async () => {
    await server.dsfa.create({ tenant: 'acme', actor: 'sam', body: { title: 'Kamera' } });
  });
  const sync = (db: string) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', 'acme', 'sync', '--json']);
  /** The requests the server answered since the last call, as `METHOD /path`. */
  const requests = () =>
    logs.splice(0).map((l) => {
      const [, , method, path] = l.split(' ');
      return `${method} ${path!.split('?')[0]}`;
    });

  it('sends only sync.info when the server has nothing new and this store changed nothing', async () => {
    const laptop = tmpDb();
    const first = await sync(laptop);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).pulled).toEqual({ dsfa: 2 });
    expect(requests()).toEqual(['GET /sdk/v1/sync/info', 'GET /sdk/v1/journal']);

    const idle = await sync(laptop);
    expect(idle.code, idle.stderr).toBe(0);
    const summary = JSON.parse(idle.stdout);
    expect(summary).toMatchObject({ first: false, pulled: {}, pushed: {}, conflicts: [] });
    expect(summary.pulled_seq).toBe(JSON.parse(first.stdout).pulled_seq);
    expect(requests()).toEqual(['GET /sdk/v1/sync/info']);

    // a change on the server: its journal head moves, and the next sync pulls it
    await server.dsfa.create({ tenant: 'acme', actor: 'sam', body: { title: 'Zutritt' } });
    const pulled = await sync(laptop);
    expect(JSON.parse(pulled.stdout).pulled).toEqual({ dsfa: 2 });
    expect(requests()).toEqual(['GET /sdk/v1/sync/info', 'GET /sdk/v1/journal']);
    const titles = JSON.parse((await cli(['--db', laptop, '--tenant', 'acme', 'dsfa', 'list', '--json'])).stdout);
    expect(titles.map((d: { title: string }) => d.title).sort()).toEqual(['Kamera', 'Zutritt']);

    // a change here only: pushed, without a page of the server's journal
    expect((await cli(['--db', laptop, '--tenant', 'acme', 'dsfa', 'create', '--title', 'Lohn'])).code).toBe(0);
    const pushed = await sync(laptop);
    expect(JSON.parse(pushed.stdout).pushed).toEqual({ dsfa: 2 });
    expect(requests()).toEqual(['GET /sdk/v1/sync/info', 'POST /sdk/v1/sync/push']);
  });
});
