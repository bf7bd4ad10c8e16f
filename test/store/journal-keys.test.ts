import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, ENGINE_NAMES, freshStore } from '../support/helpers.js';

describe.each(ENGINE_NAMES)('API keys in the journal on %s', (engine) => {
  it('creating and revoking a key are entries of the store’s own chain, without the key’s hash', async () => {
    const target = await freshStore(engine);
    const created = await cli(['--db', target, '--user', 'admin', '--json', 'keys', 'create', '--name', 'ci']);
    expect(created.code).toBe(0);
    const { prefix } = JSON.parse(created.stdout);
    expect((await cli(['--db', target, '--user', 'admin', 'keys', 'revoke', prefix])).code).toBe(0);
    const local = await createLocalBackend(target);
    const entries = await local.store.admin.selectFrom('journal').selectAll().orderBy('seq').execute();
    await local.close();
    expect(entries.map((e) => [e.tenant_id, Number(e.seq), e.entity, e.op, e.actor])).toEqual([
      ['', 1, 'api_key', 'insert', 'admin'],
      ['', 2, 'api_key', 'update', 'admin'],
    ]);
    expect(entries.every((e) => !('hash' in JSON.parse(e.data!)))).toBe(true);
    expect(JSON.parse(entries[1]!.data!)).toMatchObject({ prefix, revoked_at: expect.any(String) });
    const verified = await cli(['--db', target, '--json', 'audit', 'verify']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject([{ tenant: '', entries: 2, ok: true }]);
  });
});
