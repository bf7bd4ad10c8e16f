import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { verifyReceipt } from '../../src/domain/consents/receipt.js';
import { bannerConfig } from '../support/banner.js';
import { freshStore, tmp } from '../support/helpers.js';
import { launchChromium } from '../support/browser.js';
import { onPath, requirePrograms } from '../support/programs.js';
import { serve } from '../support/serve-process.js';
import { startReceiver } from '../support/webhook-receiver.js';

/**
 * The website banner in a real browser: headless Chromium loads a page that includes /sdk/v1/banner.js from a running
 * `serve` (no keys: anonymous on 127.0.0.1). The page is answered by the browser's request interception at the
 * server's own origin (/site/…), so it is first-party to the API and needs no CORS; a page on another origin with a
 * publishable key is the keys' and CORS's test.
 */

interface Stored {
  id: string;
  user_id: string;
  data_point_id: string;
  granted: boolean;
  revoked_at: string | null;
  source: string | null;
  banner_revision: string | null;
  policy_version_id: string | null;
  policy_content_hash: string | null;
}
declare const window: Record<string, unknown> & {
  compliance: { consent(c: string): boolean; show(): void; status: string; error: unknown };
};
declare const document: { activeElement: unknown; readyState: string };
declare const localStorage: { getItem(k: string): string | null };

const SHOTS = process.env.BANNER_SCREENSHOTS ?? join(tmp('banner-shots-'), 'png');
mkdirSync(SHOTS, { recursive: true });

describe('the website banner in a browser', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  const api = async <T>(tenant: string, method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/sdk/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-tenant-id': tenant },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as T;
  };

  async function setUp(tenant: string, config = bannerConfig()) {
    const banner = await api<{ revision: string }>(tenant, 'PUT', '/einwilligungen/cookies', config);
    const doc = await api<{ id: string }>(tenant, 'POST', '/legal-documents/documents', {
      title: 'Datenschutzerklärung',
      document_type: 'privacy_policy',
    });
    const v = await api<{ id: string }>(tenant, 'POST', `/legal-documents/documents/${doc.id}/versions`, {
      title: 'Datenschutzerklärung',
      content: `# Datenschutz bei ${tenant}`,
    });
    for (const step of ['submit', 'approve', 'publish'])
      await api(tenant, 'POST', `/legal-documents/versions/${v.id}/${step}`, {});
    return { revision: banner.revision, policyVersion: v.id };
  }

  /** A visitor's consents oldest first per category (the banner records its categories at the same time). */
  const byCategory = (consents: Stored[]) =>
    [...consents].reverse().sort((a, b) => a.data_point_id.localeCompare(b.data_point_id));
  const stored = async (tenant: string, user: string) =>
    (await api<{ consents: Stored[] }>(tenant, 'GET', `/einwilligungen/consents?user_id=${encodeURIComponent(user)}`))
      .consents;

  /** A page of the tenant's site with the banner, an inline and an external script waiting for consent. */
  function site(tenant: string, lang = 'de'): string {
    return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>Shop ${tenant}</title>
<script>
  window.events = [];
  document.addEventListener('compliance:consent', (e) => window.events.push(e.detail));
  document.addEventListener('compliance:recorded', (e) => (window.recorded = e.detail));
  window.errors = [];
  document.addEventListener('compliance:error', (e) => window.errors.push(e.detail));
</script>
<script src="${server.url}/sdk/v1/banner.js" data-tenant="${tenant}" defer></script>
<script type="text/plain" data-consent-category="analytics">window.analyticsLoaded = true;</script>
<script type="text/plain" data-consent-category="marketing" data-src="/site/marketing.js"></script>
<style>body{font:16px system-ui;margin:0;padding:24px 32px;background:#f3f4f6}main{max-width:760px}
p{line-height:1.6}</style>
</head><body>
<a href="#main" id="skip">Zum Inhalt</a>
<main id="main"><h1>Willkommen bei ${tenant}</h1>
${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>'.repeat(6)}
<button id="page-button">Im Shop stöbern</button> <a href="#" data-consent-settings>Cookie-Einstellungen</a></main>
</body></html>`;
  }

  /** A fresh visitor (no cookies) on the tenant's page; `marketing` lists the requests for the consent-bound script. */
  async function visit(tenant: string, opts: { lang?: string; width?: number; height?: number } = {}) {
    const context = await browser!.newContext({ viewport: { width: opts.width ?? 1200, height: opts.height ?? 800 } });
    contexts.push(context);
    const marketing: string[] = [];
    await context.route(`${server.url}/site/**`, (route) => {
      const url = route.request().url();
      if (url.endsWith('/marketing.js')) {
        marketing.push(url);
        return route.fulfill({ contentType: 'text/javascript', body: 'window.marketingLoaded = true;' });
      }
      return route.fulfill({ contentType: 'text/html; charset=utf-8', body: site(tenant, opts.lang) });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/site/index.html`);
    return { context, page, marketing, errors };
  }

  const dialog = (page: Page) => page.getByRole('dialog');
  const cookieOf = async (context: BrowserContext, tenant: string) => {
    const c = (await context.cookies()).find((x) => x.name === `compliance_consent_${tenant}`);
    return c && (JSON.parse(decodeURIComponent(c.value)) as { r: string; c: Record<string, boolean>; u: string });
  };
  const recorded = (page: Page) =>
    page.waitForFunction(() => window.recorded as { ids: Record<string, string> }).then((h) => h.jsonValue());
  /** What the page can see of the banner's recording, and what it let run. */
  const seen = (page: Page) =>
    page.evaluate(() => ({
      status: window.compliance.status,
      error: window.compliance.error,
      errors: window.errors,
      analytics: window.analyticsLoaded ?? false,
      marketing: window.marketingLoaded ?? false,
      consent: { analytics: window.compliance.consent('analytics'), marketing: window.compliance.consent('marketing') },
    }));
  const pendingOf = (page: Page, tenant: string) =>
    page.evaluate((t) => JSON.parse(localStorage.getItem(`compliance_pending_${t}`) ?? 'null'), tenant) as Promise<{
      c: Record<string, boolean>;
      ids: Record<string, string>;
    } | null>;
  /** The server refuses every consent POST with its 429 (Retry-After longer than the page waits) until unrouted. */
  const refuseConsents = (context: BrowserContext) =>
    context.route(`${server.url}/sdk/v1/einwilligungen/consents`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 429,
            contentType: 'application/json; charset=utf-8',
            headers: { 'retry-after': '120', ratelimit: '"per-key";r=0;t=120' },
            body: JSON.stringify({
              error: 'too many requests: try again in 120 s',
              code: 'rate_limited',
              details: [{ path: 'Retry-After', message: '120' }],
            }),
          })
        : route.continue(),
    );
  const decisions = async (tenant: string, user: string) =>
    [...new Set((await stored(tenant, user)).map((c) => `${c.data_point_id}=${c.granted}`))].sort();

  const needsBrowser = (ctx: TestContext) => {
    requirePrograms(ctx, 'chromium');
    expect(browser, 'chromium did not start').toBeDefined();
  };

  beforeAll(async () => {
    // the page's receiver runs on 127.0.0.1: a private address only the operator allows
    server = await serve(['--db', await freshStore('sqlite'), '--allow-private-webhooks']);
    if (!onPath('chromium')) return;
    browser = await launchChromium();
  }, 60_000);
  // a test's visitors leave with it: their pages (and the banner's timers in them) stop costing the browser time
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    server?.proc.kill();
  });

  it('is served publicly as a cacheable script with an ETag, small', async () => {
    const res = await fetch(`${server.url}/sdk/v1/banner.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = await res.text();
    expect(body).toContain('compliance:consent');
    expect(body.length).toBeLessThan(40_000);
    expect(res.headers.get('content-encoding')).toBe('gzip'); // fetch asks for it, and unpacks it
    expect(Number(res.headers.get('content-length'))).toBeLessThan(15 * 1024);
    const again = await fetch(`${server.url}/sdk/v1/banner.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await fetch(`${server.url}/sdk/v1/banner.js`, { method: 'POST' })).status).toBe(404);
  });

  it('accept all: loads the optional scripts only then, records one consent per category, and asks no more on reload', async (ctx) => {
    needsBrowser(ctx);
    const { revision, policyVersion } = await setUp('accept');
    const { context, page, marketing, errors } = await visit('accept');
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getAttribute('aria-modal')).toBe('false');
    const labelledBy = await dialog(page).getAttribute('aria-labelledby');
    expect(await dialog(page).locator(`#${labelledBy}`).innerText()).toBe('Wir respektieren Ihre Privatsphäre');
    expect(await dialog(page).getByRole('link', { name: 'Datenschutzerklärung' }).getAttribute('href')).toBe(
      '/datenschutz',
    );
    // nothing optional before consent
    expect(await page.evaluate(() => [window.analyticsLoaded, window.compliance.consent('analytics')])).toEqual([
      undefined,
      false,
    ]);
    expect(marketing).toEqual([]);

    await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
    const { ids } = await recorded(page);
    await expect.poll(() => dialog(page).count()).toBe(0);
    await page.waitForFunction(() => window.marketingLoaded === true); // an external script: loads after
    expect(await page.evaluate(() => [window.analyticsLoaded, window.marketingLoaded])).toEqual([true, true]);
    expect(marketing).toHaveLength(1);
    expect(await page.evaluate(() => window.events)).toEqual([
      { consent: { necessary: true, analytics: true, marketing: true }, revision, changed: true },
    ]);
    const cookie = (await cookieOf(context, 'accept'))!;
    expect(cookie).toMatchObject({ r: revision, c: { analytics: true, marketing: true } });

    const consents = await stored('accept', cookie.u);
    expect(consents.map((c) => [c.data_point_id, c.granted]).sort()).toEqual([
      ['cookies:analytics', true],
      ['cookies:marketing', true],
    ]);
    const policy = await api<{ content_hash: string }>('accept', 'GET', '/legal-documents/published');
    for (const c of consents)
      expect(c).toMatchObject({
        source: 'web_banner',
        banner_revision: revision,
        policy_version_id: policyVersion,
        policy_content_hash: policy.content_hash,
      });
    expect(Object.values(ids).sort()).toEqual(consents.map((c) => c.id).sort());
    const receipt = await api<unknown>('accept', 'GET', `/einwilligungen/consents/${ids.analytics}/receipt`);
    expect(verifyReceipt(receipt)).toMatchObject({ valid: true });
    expect(receipt).toMatchObject({ texts: { banner: { revision, is_current: true } } });

    // reload: no banner, the choice applies at once
    await page.reload();
    await page.waitForFunction(() => (window.events as unknown[]).length > 0);
    expect(await dialog(page).count()).toBe(0);
    expect(await page.evaluate(() => [window.events, window.analyticsLoaded])).toEqual([
      [{ consent: { necessary: true, analytics: true, marketing: true }, revision, changed: false }],
      true,
    ]);
    expect((await stored('accept', cookie.u)).length).toBe(2);
    // onChange answers at once with the stored choice; show() opens the settings layer with it preselected
    expect(
      await page.evaluate(
        () =>
          new Promise((ok) =>
            (window.compliance as unknown as { onChange(f: (d: unknown) => void): void }).onChange(ok),
          ),
      ),
    ).toEqual({ consent: { necessary: true, analytics: true, marketing: true }, revision });
    await page.evaluate(() => window.compliance.show());
    expect(await page.getByRole('checkbox', { name: 'Marketing' }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('decline all: records the refusals, loads nothing optional', async (ctx) => {
    needsBrowser(ctx);
    await setUp('decline');
    const { context, page, marketing } = await visit('decline');
    await page.getByRole('button', { name: 'Alle ablehnen' }).click();
    const { ids } = await recorded(page);
    const cookie = (await cookieOf(context, 'decline'))!;
    const consents = await stored('decline', cookie.u);
    expect(consents.map((c) => [c.data_point_id, c.granted]).sort()).toEqual([
      ['cookies:analytics', false],
      ['cookies:marketing', false],
    ]);
    expect(await page.evaluate(() => [window.analyticsLoaded, window.compliance.consent('marketing')])).toEqual([
      undefined,
      false,
    ]);
    expect(marketing).toEqual([]);
    const receipt = await api<{ consent: { granted: boolean } }>(
      'decline',
      'GET',
      `/einwilligungen/consents/${ids.marketing}/receipt`,
    );
    expect(receipt.consent.granted).toBe(false);
    expect(verifyReceipt(receipt).valid).toBe(true);
  });

  it('keeps a grant the server refused (429) out of effect, and sends it again on the next page load', async (ctx) => {
    needsBrowser(ctx);
    const { revision } = await setUp('refused');
    const { context, page, marketing, errors } = await visit('refused');
    await refuseConsents(context);
    await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
    await page.waitForFunction(() => (window.errors as unknown[]).length > 0);
    // nothing optional ran: the grant is not demonstrable yet; the page is told why and that it waits
    const error = {
      during: 'recording',
      reason: 'rate_limited',
      message: 'too many requests: try again in 120 s',
      httpStatus: 429,
      retryAfter: 120,
      status: 'pending',
    };
    expect(await seen(page)).toEqual({
      status: 'pending',
      error,
      errors: [error],
      analytics: false,
      marketing: false,
      consent: { analytics: false, marketing: false },
    });
    expect(marketing).toEqual([]);
    expect(await page.evaluate(() => window.events)).toEqual([]);
    expect(await dialog(page).count()).toBe(0); // the visitor answered: not asked again
    const cookie = (await cookieOf(context, 'refused'))!;
    expect(cookie.c).toEqual({ necessary: true, analytics: false, marketing: false });
    expect(await pendingOf(page, 'refused')).toMatchObject({
      c: { necessary: true, analytics: true, marketing: true },
      ids: {},
    });
    expect(await stored('refused', cookie.u)).toEqual([]);

    // the server takes requests again: the next page sends the kept choice, and only then does it take effect
    await context.unroute(`${server.url}/sdk/v1/einwilligungen/consents`);
    await page.reload();
    const { ids } = await recorded(page);
    await page.waitForFunction(() => window.marketingLoaded === true); // an external script: loads after
    expect(await seen(page)).toMatchObject({
      status: 'recorded',
      error: null,
      errors: [],
      analytics: true,
      marketing: true,
      consent: { analytics: true, marketing: true },
    });
    expect(await page.evaluate(() => window.events)).toEqual([
      { consent: { necessary: true, analytics: false, marketing: false }, revision, changed: false },
      { consent: { necessary: true, analytics: true, marketing: true }, revision, changed: true },
    ]);
    expect(await dialog(page).count()).toBe(0);
    expect((await cookieOf(context, 'refused'))!.c).toEqual({ necessary: true, analytics: true, marketing: true });
    expect(await pendingOf(page, 'refused')).toBeNull();
    // leaving the first page sent it too (keepalive), which may reach the server as a second identical decision
    expect(await decisions('refused', cookie.u)).toEqual(['cookies:analytics=true', 'cookies:marketing=true']);
    const all = (await stored('refused', cookie.u)).map((c) => c.id);
    expect(all).toEqual(expect.arrayContaining(Object.values(ids)));
    expect(errors).toEqual([]);
  });

  it('lets a withdrawal take effect at once whatever the server answers, and sends it as the page is left', async (ctx) => {
    needsBrowser(ctx);
    const { revision } = await setUp('withdraw');
    const { context, page } = await visit('withdraw');
    await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
    await recorded(page);
    const user = (await cookieOf(context, 'withdraw'))!.u;
    await refuseConsents(context);
    await page.evaluate(() => (window.events = []));
    await page.getByText('Cookie-Einstellungen').click();
    await page.getByRole('checkbox', { name: 'Marketing' }).uncheck();
    await page.getByRole('button', { name: 'Auswahl speichern' }).click();
    await page.waitForFunction(() => (window.errors as unknown[]).length > 0);
    // the refusal applies now, unrecorded: no script of marketing loads from here on, the cookie says so
    expect(await seen(page)).toMatchObject({ status: 'pending', consent: { analytics: true, marketing: false } });
    expect(await page.evaluate(() => window.events)).toEqual([
      { consent: { necessary: true, analytics: true, marketing: false }, revision, changed: true },
    ]);
    expect((await cookieOf(context, 'withdraw'))!.c).toEqual({ necessary: true, analytics: true, marketing: false });
    expect(await decisions('withdraw', user)).toEqual(['cookies:analytics=true', 'cookies:marketing=true']);
    // the visitor leaves the site: the kept choice goes with the closing page (keepalive outlives it)
    await context.unroute(`${server.url}/sdk/v1/einwilligungen/consents`);
    await page.close();
    await expect
      .poll(() => decisions('withdraw', user), { timeout: 10_000 })
      .toEqual(['cookies:analytics=true', 'cookies:marketing=false', 'cookies:marketing=true']);
  });

  it('shows no privacy link whose address is not a web address or a site path', async (ctx) => {
    needsBrowser(ctx);
    await setUp('badlink', bannerConfig({ privacyLink: 'javascript:alert(document.cookie)' }));
    const { page } = await visit('badlink');
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getByRole('link').count()).toBe(0);
    await setUp('goodlink', bannerConfig({ privacyLink: 'datenschutz.html' }));
    const good = await visit('goodlink');
    await expect.poll(() => dialog(good.page).count()).toBe(1);
    expect(await dialog(good.page).getByRole('link').getAttribute('href')).toBe('datenschutz.html');
  });

  it('settings layer: a choice per category, in the page language', async (ctx) => {
    needsBrowser(ctx);
    // texts in English where the configuration has them, German where it does not (the marketing category's name)
    const config = bannerConfig();
    const english = {
      categories: config.categories.map((c) => (c.id === 'analytics' ? { ...c, names: { en: 'Statistics' } } : c)),
      config: {
        ...config.config,
        banner_texts: {
          ...config.config.banner_texts,
          translations: {
            en: { title: 'We respect your privacy', description: 'Optional cookies need your consent.' },
          },
        },
      },
    };
    await setUp('settings', english);
    const { context, page, marketing } = await visit('settings', { lang: 'en-GB' });
    expect(await dialog(page).getByRole('heading').innerText()).toBe('We respect your privacy');
    expect(await dialog(page).locator('p').first().innerText()).toBe(
      'Optional cookies need your consent. Privacy policy',
    );
    await page.getByRole('button', { name: 'Settings' }).click();
    const analytics = page.getByRole('checkbox', { name: 'Statistics' });
    expect(await page.getByRole('checkbox', { name: /Notwendig/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Notwendig/ }).isChecked()).toBe(true);
    expect(await analytics.isChecked()).toBe(false);
    writeFileSync(join(SHOTS, 'banner-settings.png'), await page.screenshot());
    await analytics.check();
    await page.getByRole('button', { name: 'Save selection' }).click();
    await recorded(page);
    const cookie = (await cookieOf(context, 'settings'))!;
    expect(cookie.c).toEqual({ necessary: true, analytics: true, marketing: false });
    expect(
      (await stored('settings', cookie.u)).map((c) => [c.data_point_id, c.granted]).sort((a, b) => (a < b ? -1 : 1)),
    ).toEqual([
      ['cookies:analytics', true],
      ['cookies:marketing', false],
    ]);
    expect(await page.evaluate(() => [window.analyticsLoaded, window.marketingLoaded])).toEqual([true, undefined]);
    expect(marketing).toEqual([]);

    // reopened from the page's own link: the stored choice is preselected; changing it records it again
    await page.getByText('Cookie-Einstellungen').click();
    expect(await page.getByRole('checkbox', { name: 'Statistics' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Marketing' }).check();
    await page.evaluate(() => (window.recorded = undefined));
    await page.getByRole('button', { name: 'Save selection' }).click();
    await recorded(page);
    await page.waitForFunction(() => window.marketingLoaded === true); // an external script: loads after
    expect(marketing).toHaveLength(1);
    // statistics as before (one decision in force): the marketing refusal, then the marketing grant
    expect(
      byCategory(await stored('settings', cookie.u)).map((c) => [c.data_point_id, c.granted, c.revoked_at]),
    ).toEqual([
      ['cookies:analytics', true, null],
      ['cookies:marketing', false, null],
      ['cookies:marketing', true, null],
    ]);
  });

  // docs/consents.md (one decision in force), issue 36 item 1
  it('accept all, then untick a category and save: the grant is revoked, once, with its receipt saying so', async (ctx) => {
    needsBrowser(ctx);
    await setUp('revoke');
    // a receiver of the consent events, as a newsletter or analytics service would subscribe (serve delivers them)
    const receiver = await startReceiver();
    ctx.onTestFinished(() => receiver.close());
    const ep = await api<{ secret: string }>('revoke', 'POST', '/webhooks', {
      url: receiver.url,
      events: ['consent.revoked'],
      allow_private: true,
    });
    receiver.useSecret(ep.secret);
    const active = async () =>
      Object.values(
        (
          await api<{ by_data_point: Record<string, { active: number }> }>(
            'revoke',
            'GET',
            '/einwilligungen/consents/stats',
          )
        ).by_data_point,
      ).reduce((n, c) => n + c.active, 0);
    const { context, page } = await visit('revoke');
    await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
    const { ids } = await recorded(page);
    const cookie = (await cookieOf(context, 'revoke'))!;
    expect(await active()).toBe(2);
    await page.evaluate(() => (window.recorded = undefined));
    await page.getByText('Cookie-Einstellungen').click();
    await page.getByRole('checkbox', { name: 'Statistik' }).uncheck();
    await page.getByRole('button', { name: 'Auswahl speichern' }).click();
    const second = await recorded(page);
    expect(await page.evaluate(() => window.compliance.consent('analytics'))).toBe(false);
    // the marketing grant is the same decision again: the same consent, nothing new
    expect(second.ids.marketing).toBe(ids.marketing);
    const all = await stored('revoke', cookie.u);
    expect(byCategory(all).map((c) => [c.data_point_id, c.granted, c.revoked_at !== null])).toEqual([
      ['cookies:analytics', true, true],
      ['cookies:analytics', false, false],
      ['cookies:marketing', true, false],
    ]);
    const stats = await api<{ by_data_point: Record<string, unknown> }>(
      'revoke',
      'GET',
      '/einwilligungen/consents/stats',
    );
    expect(stats.by_data_point).toEqual({
      'cookies:analytics': { total: 2, active: 0, revoked: 1 },
      'cookies:marketing': { total: 1, active: 1, revoked: 0 },
    });
    const grant = await api<{ revoked_at: string; history: Array<{ action: string; source: string }> }>(
      'revoke',
      'GET',
      `/einwilligungen/consents/${ids.analytics}`,
    );
    expect(grant.history.map((h) => [h.action, h.source])).toEqual([
      ['granted', 'web_banner'],
      ['revoked', 'web_banner'],
    ]);
    const receipt = await api<{ consent: { revoked_at: string } }>(
      'revoke',
      'GET',
      `/einwilligungen/consents/${ids.analytics}/receipt`,
    );
    expect(receipt.consent.revoked_at).toBe(grant.revoked_at);
    expect(verifyReceipt(receipt).valid).toBe(true);
    expect(await active()).toBe(1);
    // one consent.revoked, naming whom it concerns
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(receiver.received.map((r) => [r.type, r.verified, r.payload.data])).toEqual([
      [
        'consent.revoked',
        true,
        expect.objectContaining({
          consent_id: ids.analytics,
          user_id: cookie.u,
          data_point_id: 'cookies:analytics',
          action: 'revoked',
          source: 'web_banner',
        }),
      ],
    ]);
    // saving the same choice again records nothing
    await page.evaluate(() => (window.recorded = undefined));
    await page.getByText('Cookie-Einstellungen').click();
    await page.getByRole('button', { name: 'Auswahl speichern' }).click();
    await recorded(page);
    expect(await stored('revoke', cookie.u)).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 2500)); // two passes of serve's delivery loop
    expect(receiver.received).toHaveLength(1);
  });

  it('asks again when the configuration changes; the older receipt says it refers to an earlier revision', async (ctx) => {
    needsBrowser(ctx);
    const first = await setUp('changes');
    const { context, page } = await visit('changes');
    await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
    const { ids } = await recorded(page);
    const changed = await api<{ revision: string }>(
      'changes',
      'PUT',
      '/einwilligungen/cookies',
      bannerConfig({ title: 'Neue Cookies, neue Frage' }),
    );
    await page.reload();
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getByRole('heading').innerText()).toBe('Neue Cookies, neue Frage');
    // until answered again, the answer to the earlier text does not apply
    expect(await page.evaluate(() => [window.analyticsLoaded, window.compliance.consent('analytics')])).toEqual([
      undefined,
      false,
    ]);
    await page.getByRole('button', { name: 'Alle ablehnen' }).click();
    await recorded(page);
    const cookie = (await cookieOf(context, 'changes'))!;
    expect(cookie.r).toBe(changed.revision);
    const all = await stored('changes', cookie.u);
    expect(all.map((c) => [c.banner_revision, c.granted])).toEqual(
      expect.arrayContaining([
        [first.revision, true],
        [changed.revision, false],
      ]),
    );
    const old = await api<{ notes: string[] }>('changes', 'GET', `/einwilligungen/consents/${ids.analytics}/receipt`);
    expect(old.notes).toContain(`refers to banner revision ${first.revision}; current is ${changed.revision}`);
  });

  it('works with the keyboard alone: Tab reaches it first, focus is visible, Escape closes the settings layer', async (ctx) => {
    needsBrowser(ctx);
    await setUp('keys');
    const { context, page } = await visit('keys');
    await expect.poll(() => dialog(page).count()).toBe(1);
    const focused = () =>
      page.evaluate(() => {
        let el = document.activeElement as { shadowRoot?: { activeElement: unknown } | null } | null;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as typeof el;
        const e = el as unknown as { textContent: string; getAttribute(n: string): string | null };
        const s = (globalThis as unknown as { getComputedStyle(x: unknown): Record<string, string> }).getComputedStyle(
          e,
        );
        return {
          text: e.textContent?.trim(),
          action: e.getAttribute('data-action') ?? e.getAttribute('data-category'),
          outline: `${s.outlineStyle} ${s.outlineWidth}`,
        };
      });
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'Datenschutzerklärung', action: null, outline: 'solid 3px' });
    await page.keyboard.press('Tab');
    expect(await focused()).toEqual({ text: 'Alle akzeptieren', action: 'accept', outline: 'solid 3px' });
    await page.keyboard.press('Tab');
    expect((await focused()).action).toBe('decline');
    await page.keyboard.press('Tab');
    expect((await focused()).action).toBe('settings');
    await page.keyboard.press('Enter');
    // the settings layer takes the focus on its first choice; Escape goes back to the first layer
    expect((await focused()).action).toBe('analytics');
    await page.keyboard.press('Escape');
    expect(await dialog(page).getByRole('heading').innerText()).toBe('Wir respektieren Ihre Privatsphäre');
    expect((await focused()).action).toBe('settings');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space'); // analytics on
    await page.keyboard.press('Tab'); // marketing stays off
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ action: 'save', outline: 'solid 3px' });
    await page.keyboard.press('Enter');
    await recorded(page);
    expect((await cookieOf(context, 'keys'))!.c).toEqual({ necessary: true, analytics: true, marketing: false });
    expect(await dialog(page).count()).toBe(0);
    // the banner opened by itself, first in the tab order: the focus goes on to the page's first control, visibly
    expect(await focused()).toMatchObject({ text: 'Zum Inhalt', action: null });
    expect((await focused()).outline).not.toMatch(/^none/);

    // opened again from the page's link: the focus returns to that link after saving
    await page.keyboard.press('Tab'); // the page's button
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Cookie-Einstellungen');
    await page.keyboard.press('Enter');
    expect((await focused()).action).toBe('analytics');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // marketing on
    await page.keyboard.press('Tab');
    expect((await focused()).action).toBe('save');
    await page.evaluate(() => (window.recorded = undefined));
    await page.keyboard.press('Enter');
    await recorded(page);
    expect((await cookieOf(context, 'keys'))!.c).toEqual({ necessary: true, analytics: true, marketing: true });
    expect(await focused()).toMatchObject({ text: 'Cookie-Einstellungen' });
  });

  it('leaves the focus alone after a mouse click on a banner that opened by itself', async (ctx) => {
    needsBrowser(ctx);
    await setUp('mouse');
    const { page } = await visit('mouse');
    await page.getByRole('button', { name: 'Alle ablehnen' }).click();
    await recorded(page);
    // no skip link jumps into view under the pointer: the page keeps its own focus (none)
    expect(await page.evaluate(() => (document.activeElement as { tagName: string }).tagName)).toBe('BODY');
  });

  it('keeps the focus inside the modal, and blocks no page content while the API is slow', async (ctx) => {
    needsBrowser(ctx);
    await setUp('modal', bannerConfig({ style: 'modal', position: 'center' }));
    const context = await browser!.newContext({ viewport: { width: 1000, height: 700 } });
    contexts.push(context);
    await context.route(`${server.url}/site/**`, (r) => r.fulfill({ contentType: 'text/html', body: site('modal') }));
    // the configuration answers late: the page is complete and readable before the banner appears
    await context.route(`${server.url}/sdk/v1/einwilligungen/cookies`, async (r) => {
      await new Promise((ok) => setTimeout(ok, 3000));
      await r.continue();
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/site/index.html`);
    expect(await page.evaluate(() => document.readyState)).toBe('complete');
    expect(await page.getByRole('heading', { name: 'Willkommen bei modal' }).isVisible()).toBe(true);
    expect(await dialog(page).count()).toBe(0);
    await expect.poll(() => dialog(page).count(), { timeout: 15_000 }).toBe(1);
    expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
    const inside = () =>
      page.evaluate(() => {
        const host = document.activeElement as { id?: string; shadowRoot?: { activeElement: unknown } } | null;
        return host?.id === 'compliance-banner' && !!host.shadowRoot?.activeElement;
      });
    expect(await inside()).toBe(true); // the modal took the focus
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await inside(), `after ${i + 1} presses`).toBe(true);
    }
  });

  const styles = [
    { style: 'bar', position: 'bottom', primaryColor: '#0b5cab', lang: 'de' },
    { style: 'box', position: 'bottom-right', primaryColor: '#ffd400', lang: 'en' },
    { style: 'modal', position: 'center', primaryColor: '#2e7d32', lang: 'de' },
  ] as const;
  it.for(styles)(
    'draws the $style as configured: geometry, readable text on the primary colour, a screenshot',
    async ({ style, position, primaryColor, lang }, ctx) => {
      needsBrowser(ctx);
      const tenant = `style-${style}`;
      await setUp(tenant, bannerConfig({ style, position, primaryColor }));
      const { page } = await visit(tenant, { lang, width: 1200, height: 800 });
      await expect.poll(() => dialog(page).count()).toBe(1);
      await page.waitForTimeout(250); // the fade-in
      const shot = join(SHOTS, `banner-${style}.png`);
      writeFileSync(shot, await page.screenshot());
      const box = (await dialog(page).boundingBox())!;
      const centre = (a: number, b: number) => Math.abs(a - b) <= 2;
      if (style === 'bar') {
        expect([box.x, Math.round(box.width), Math.round(box.y + box.height)]).toEqual([0, 1200, 800]);
      } else if (style === 'box') {
        expect(Math.round(1200 - (box.x + box.width))).toBe(16);
        expect(Math.round(800 - (box.y + box.height))).toBe(16);
        expect(box.width).toBeLessThanOrEqual(420);
      } else {
        expect(centre(box.x + box.width / 2, 600), JSON.stringify(box)).toBe(true);
        expect(centre(box.y + box.height / 2, 400), JSON.stringify(box)).toBe(true);
      }
      // WCAG AA: the button text on the configured colour has a contrast of at least 4.5:1
      const accept = page.getByRole('button', { name: lang === 'en' ? 'Accept all' : 'Alle akzeptieren' });
      const [fg, bg] = await accept.evaluate((el) => {
        const s = (globalThis as unknown as { getComputedStyle(x: unknown): Record<string, string> }).getComputedStyle(
          el,
        );
        return [s.color, s.backgroundColor];
      });
      expect(contrastOf(fg!, bg!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    },
  );
});

/** WCAG 2.1 contrast of two `rgb(r, g, b)` colours as the browser reports them. */
function contrastOf(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c
      .match(/\d+/g)!
      .slice(0, 3)
      .map((v) => {
        const x = Number(v) / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}
