import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { bannerConfig, publishPolicy } from '../support/banner.js';
import { cli, startServer, tmp, tmpDb } from '../support/helpers.js';

describe('consents receipt on the command line', () => {
  const db = tmpDb();
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  let consentId: string;
  let revision: string;
  beforeAll(async () => {
    local = await createLocalBackend(db);
    srv = await startServer(local);
    const T = { tenant: 'shop', actor: 'site' };
    revision = (await local.cookieBanner.put({ ...T, body: bannerConfig() })).revision;
    const policy = await publishPolicy(local, 'shop', '# Datenschutz');
    const published = await local.legalDocuments.published({ ...T, query: {} });
    consentId = (
      await local.consents.create({
        ...T,
        body: {
          user_id: 'v-1',
          data_point_id: 'cookies:analytics',
          granted: true,
          source: 'web_banner',
          banner_revision: revision,
          policy_version_id: policy.version_id,
          policy_content_hash: published.content_hash,
        },
      })
    ).id;
  });
  afterAll(async () => {
    await srv.close();
    await local.close();
  });

  for (const face of ['local', 'remote'] as const) {
    it(`prints, saves and verifies a receipt (${face}); an edited one fails with exit 6 naming the field`, async () => {
      const where = face === 'local' ? ['--db', db] : ['--remote', srv.url];
      const run = (...a: string[]) => cli([...where, '--tenant', 'shop', ...a]);
      const shown = await run('consents', 'receipt', consentId.slice(-8));
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(`who\tv-1`);
      expect(shown.stdout).toContain(`what\tcookies:analytics: granted`);
      expect(shown.stdout).toContain(`banner revision\t${revision} (current)`);
      expect(shown.stdout).toMatch(/signed by\tEd25519 SHA256:[0-9a-f]{64}/);

      const file = join(tmp(), 'receipt.json');
      const saved = await run('consents', 'receipt', consentId, '-o', file);
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stderr).toContain(`written to ${file}`);
      const receipt = JSON.parse(readFileSync(file, 'utf8'));
      expect(receipt.consent.id).toBe(consentId);

      // offline: no store, no server
      const ok = await cli(['consents', 'receipt', '--verify', file]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain(
        `valid: receipt of consent ${consentId}, signed by ${receipt.signature.key_fingerprint}`,
      );
      const other = `SHA256:${'0'.repeat(64)}`;
      const pinned = await cli(['consents', 'receipt', '--verify', file, '--key-fingerprint', other]);
      expect(pinned.code).toBe(6);
      expect(pinned.stdout).toContain(
        `invalid: signature.key_fingerprint: signed by ${receipt.signature.key_fingerprint}, not by the expected key ${other}`,
      );

      const edited = join(tmp(), 'edited.json');
      writeFileSync(edited, JSON.stringify({ ...receipt, consent: { ...receipt.consent, user_id: 'someone-else' } }));
      const bad = await cli(['consents', 'receipt', '--verify', edited, '--json']);
      expect(bad.code).toBe(6);
      expect(JSON.parse(bad.stdout)).toMatchObject({
        valid: false,
        problems: [expect.stringContaining('consent_hash'), expect.stringContaining('signature.value')],
      });
    });
  }

  it('says which texts changed since, refuses bad usage, and reports unknown ids and unreadable files', async () => {
    const run = (...a: string[]) => cli(['--db', db, '--tenant', 'shop', ...a]);
    const before = join(tmp(), 'before.json');
    expect((await run('consents', 'receipt', consentId, '-o', before)).code).toBe(0);
    const changed = await local.cookieBanner.put({ tenant: 'shop', body: bannerConfig({ style: 'modal' }) });
    const after = await run('consents', 'receipt', consentId);
    expect(after.stdout).toContain(`note\trefers to banner revision ${revision}; current is ${changed.revision}`);
    // the receipt saved before still verifies, and says what was current when it was issued
    const old = await cli(['consents', 'receipt', '--verify', before]);
    expect(old.code).toBe(0);
    expect(old.stdout).toContain(`note: refers to banner revision ${revision}, the current one (at `);

    expect((await run('consents', 'receipt')).code).toBe(2);
    expect((await run('consents', 'receipt', consentId, '--verify', before)).code).toBe(2);
    const missing = await run('consents', 'receipt', '00000000-0000-0000-0000-000000000000');
    expect(missing.code).toBe(3);
    expect((await cli(['consents', 'receipt', '--verify', join(tmp(), 'none.json')])).code).toBe(2);
    const notJson = join(tmp(), 'x.json');
    writeFileSync(notJson, 'hello');
    const nj = await cli(['consents', 'receipt', '--verify', notJson]);
    expect(nj.code).toBe(6);
    expect(nj.stdout).toContain('not JSON');
  });

  it('names the fingerprint format when --key-fingerprint is not one (exit 2), and takes it in either case', async () => {
    const file = join(tmp(), 'pin.json');
    expect((await cli(['--db', db, '--tenant', 'shop', 'consents', 'receipt', consentId, '-o', file])).code).toBe(0);
    const fingerprint = (JSON.parse(readFileSync(file, 'utf8')) as { signature: { key_fingerprint: string } }).signature
      .key_fingerprint;
    const hex = fingerprint.slice('SHA256:'.length);
    const pin = (fp: string) => cli(['consents', 'receipt', '--verify', file, '--key-fingerprint', fp]);
    for (const [given, hint] of [
      [hex, `did you mean SHA256:${hex}?`], // the hash without its prefix, as the issue saw it
      ['SHA256:9f2c', 'SHA256: and 64 hexadecimal digits'],
      ['MD5:' + hex.slice(0, 32), 'SHA256: and 64 hexadecimal digits'],
    ]) {
      const r = await pin(given);
      expect(r.code, given).toBe(2);
      expect(r.stderr).toContain(`--key-fingerprint ${given}: expected SHA256: and 64 hexadecimal digits`);
      expect(r.stderr).toContain(hint);
      expect(r.stdout).toBe('');
    }
    // the same fingerprint in capitals, or with a lower-case prefix, is the same key
    for (const same of [`SHA256:${hex.toUpperCase()}`, `sha256:${hex}`]) {
      const r = await pin(same);
      expect(r.code, `${same}: ${r.stdout}`).toBe(0);
    }
  });
});
