import { describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { type LocalBackend } from '../../src/backend/local/local-backend.js';
import { changesOf } from '../../src/domain/journal/changes.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { ENGINE_NAMES } from '../support/helpers.js';
import { withSyncServer } from '../support/sync-server.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';

// The server applies a push of many records together (new ones inserted a table at a time), so the records of one
// push are checked against each other as well as against the server's: a client that pushes two open assignments of
// one user and module, or two published versions of one document, gets the second back as a conflict.
const T = 'push';

describe.each(ENGINE_NAMES)('a push to a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  it('applies many records together and refuses a second claim of the same push', async () => {
    const as = { tenant: T, actor: 'sam' };
    const m = await server.training.createModule({
      ...as,
      body: { module_code: 'DSGVO-01', title: 'Datenschutz', regulation_area: 'dsgvo', frequency_type: 'annual' },
    });
    await server.training.setMatrix({ ...as, body: { role_code: 'R9', module_id: m.id } });
    const user = { user_id: 'u-1', user_name: 'Erika Mustermann', user_email: 'erika@example.com', roles: ['R9'] };
    expect((await server.training.compute({ ...as, body: user })).created).toBe(1);
    const rows = (await journalAfter(server, T)).flatMap((e) => changesOf(e));
    const assignment = rows.find((c) => c.entity === 'training_assignment')!.row!;

    // 300 new assignments of other users, then two more of one user and module
    const ids = uuidv7Source();
    const fresh = (user_id: string) => {
      const id = ids.next();
      return { entity: 'training_assignment', entity_id: id, base: null, data: { ...assignment, id, user_id } };
    };
    const many = Array.from({ length: 300 }, (_, i) => fresh(`bulk-${i}`));
    const [first, second] = [fresh('u-2'), fresh('u-2')];
    const api = createHttpBackend({ url: url, apiKey: key });
    const body = { replica: 'laptop-1', items: [...many, first!, second!], dry_run: false };
    const res = await api.sync.push({ ...as, body });
    expect(res.applied).toBe(301);
    expect(res.conflicts).toEqual([
      expect.objectContaining({
        entity_id: second!.entity_id,
        reason: `user u-2 already has an open assignment ${first!.entity_id} of this module`,
      }),
    ]);
    const open = await server.training.listAssignments({ tenant: T, query: { user_id: 'u-2' } });
    expect(open.map((a) => a.id)).toEqual([first!.entity_id]);
    expect(await server.training.listAssignments({ tenant: T, query: { limit: 500 } })).toHaveLength(302);

    // sent again (a push cut off after the server wrote it): nothing changes
    const again = await api.sync.push({ ...as, body });
    expect(again).toMatchObject({ applied: 0, unchanged: 301 });
    expect(again.conflicts).toHaveLength(1);
    // each record its own entry on the server: the key that pushed is its principal, the pushing store its origin
    const entries = (await journalAfter(server, T)).filter((e) => e.origin === 'sync:laptop-1');
    expect(entries).toHaveLength(301);
    expect(new Set(entries.map((e) => e.principal))).toEqual(new Set([`key:${key.split('_')[1]}`]));
    await expectChainIntact(server, T);
  });
});
