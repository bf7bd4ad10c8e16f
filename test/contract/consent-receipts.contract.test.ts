import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyReceipt } from '../../src/domain/consents/receipt.js';
import { bannerConfig, publishPolicy } from '../support/banner.js';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe.each(BACKEND_NAMES)('consent receipts on the %s backend', (name) => {
  const b = useBackend(name);

  it('names the published privacy policy with the hash of its content, and 404 when none is published', async () => {
    const T = { tenant: 'nopolicy' };
    const e = await failure(b.backend.legalDocuments.published({ ...T, query: {} }));
    expect(e.code).toBe('not_found');
    expect(e.message).toContain('no published privacy_policy');
    const text = '# Datenschutz\nÄnderungen vorbehalten.';
    const p = await publishPolicy(b.backend, 'withpolicy', text);
    const got = await b.backend.legalDocuments.published({ tenant: 'withpolicy', query: { language: 'de-AT' } });
    expect(got).toMatchObject({
      version_id: p.version_id,
      content_hash: sha256(text),
      language: 'de',
      version_number: 1,
    });
    expect((await failure(b.backend.legalDocuments.published({ ...T, query: { language: '1x' } }))).code).toBe(
      'validation',
    );
  });

  it('signs a receipt naming the texts a banner consent was given on, and says when they have changed since', async () => {
    const tenant = 'shop';
    const T = { tenant, actor: 'site' };
    const banner = await b.backend.cookieBanner.put({ ...T, body: bannerConfig() });
    expect(banner.revision).toMatch(/^[0-9a-f]{16}$/);
    expect((await b.backend.cookieBanner.get(T)).revision).toBe(banner.revision);
    const policy = await publishPolicy(b.backend, tenant, '# Datenschutz\nVersion 1');
    const published = await b.backend.legalDocuments.published({ ...T, query: {} });
    const body = {
      user_id: 'v-visitor-1',
      data_point_id: 'cookies:analytics',
      granted: false,
      consent_version: banner.revision,
      source: 'web_banner',
      banner_revision: banner.revision,
      policy_version_id: published.version_id,
      policy_content_hash: published.content_hash,
    };
    const created = await b.backend.consents.create({ ...T, body });
    const listed = await b.backend.consents.list({ ...T, query: { user_id: 'v-visitor-1' } });
    expect(listed.consents[0]).toMatchObject({
      banner_revision: banner.revision,
      policy_version_id: policy.version_id,
      policy_content_hash: sha256('# Datenschutz\nVersion 1'),
      granted: false,
    });

    const r = await b.backend.consents.receipt({ ...T, params: { id: created.id } });
    expect(r.consent).toMatchObject({ id: created.id, user_id: 'v-visitor-1', granted: false, source: 'web_banner' });
    expect(r.texts.banner).toEqual({ revision: banner.revision, current_revision: banner.revision, is_current: true });
    expect(r.texts.privacy_policy).toMatchObject({
      version_id: policy.version_id,
      version_number: 1,
      is_current: true,
      stored_content_hash: published.content_hash,
    });
    expect(r.signature.algorithm).toBe('Ed25519');
    expect(verifyReceipt(r)).toEqual({ valid: true, problems: [], receipt: r });
    expect(verifyReceipt(r, r.signature.key_fingerprint).valid).toBe(true);

    // an edited field, a wrong pinned key
    const edited = { ...r, consent: { ...r.consent, granted: true } };
    expect(verifyReceipt(edited).problems).toEqual([
      'consent_hash: does not match the consent (a field of the consent was changed)',
      expect.stringContaining('signature.value: does not match'),
    ]);
    expect(verifyReceipt({ ...r, notes: [] }).problems).toEqual([expect.stringContaining('signature.value')]);
    expect(verifyReceipt(r, 'SHA256:00').problems[0]).toContain('not by the expected key SHA256:00');
    expect(verifyReceipt({ hello: 1 }).problems[0]).toContain('format: not a consent receipt');

    // the banner changes, a new privacy policy is published: the same consent's receipt says so
    const changed = await b.backend.cookieBanner.put({ ...T, body: bannerConfig({ title: 'Cookies, neu' }) });
    expect(changed.revision).not.toBe(banner.revision);
    const v2 = await publishPolicy(b.backend, tenant, '# Datenschutz\nVersion 2', policy.document_id);
    const later = await b.backend.consents.receipt({ ...T, params: { id: created.id } });
    expect(later.texts.banner).toEqual({
      revision: banner.revision,
      current_revision: changed.revision,
      is_current: false,
    });
    expect(later.texts.privacy_policy).toMatchObject({ is_current: false, current_version_id: v2.version_id });
    expect(later.notes).toContain(`refers to banner revision ${banner.revision}; current is ${changed.revision}`);
    expect(later.notes).toContain(
      `refers to privacy-policy version ${policy.version_id} (v1); current is ${v2.version_id} (v2)`,
    );
    expect(verifyReceipt(later).valid).toBe(true);
    // the same store signs with the same key
    expect(later.signature.key_fingerprint).toBe(r.signature.key_fingerprint);
  });

  it('gives a receipt of any consent, refuses another tenant and bad texts', async () => {
    const T = { tenant: 'plain', actor: 'x' };
    const c = await b.backend.consents.create({
      ...T,
      body: { user_id: 'u', data_point_id: 'newsletter', granted: true },
    });
    const r = await b.backend.consents.receipt({ ...T, params: { id: c.id } });
    expect(r.texts).toEqual({ banner: null, privacy_policy: null });
    expect(r.notes).toEqual([
      'no banner revision recorded (the consent was not given in the website banner)',
      'no privacy-policy version recorded',
    ]);
    expect(verifyReceipt(r).valid).toBe(true);
    expect((await failure(b.backend.consents.receipt({ tenant: 'intruder', params: { id: c.id } }))).code).toBe(
      'not_found',
    );
    const bad = await failure(
      b.backend.consents.create({
        ...T,
        body: { user_id: 'u', data_point_id: 'd', granted: true, banner_revision: 'xyz', policy_content_hash: 'abc' },
      }),
    );
    expect(bad.code).toBe('validation');
    expect(bad.details.map((d) => d.path).sort()).toEqual(['banner_revision', 'policy_content_hash']);
  });
});
