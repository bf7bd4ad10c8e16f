import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, freshStore } from '../support/helpers.js';

describe('the journal across db copy', () => {
  it.each([
    ['sqlite', 'postgres'],
    ['postgres', 'sqlite'],
  ] as const)('a copy from %s to %s verifies, with the same head', async (from, to) => {
    const source = await freshStore(from);
    const local = await createLocalBackend(source);
    for (const title of ['Videoüberwachung', 'Zeiterfassung'])
      await local.dsfa.create({ tenant: 'acme', actor: 'alice', body: { title } });
    await local.dsfa.updateSettings({ tenant: 'beta', body: { workflow: 'strict' } });
    await local.close();
    const target = await freshStore(to);
    expect((await cli(['db', 'copy', source, target])).code).toBe(0);
    const anchor = async (db: string) =>
      JSON.parse((await cli(['--db', db, '--tenant', 'acme', '--json', 'audit', 'anchor'])).stdout);
    expect(await anchor(target)).toEqual(await anchor(source));
    const verified = await cli(['--db', target, '--json', 'audit', 'verify']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).map((r: { tenant: string; entries: number }) => [r.tenant, r.entries])).toEqual([
      ['acme', 4],
      ['beta', 1],
    ]);
  });
});
