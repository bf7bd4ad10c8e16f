import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { bannerConfig } from '../support/banner.js';
import type { Clock } from '../../src/domain/clock.js';
import { cli, freshStore } from '../support/helpers.js';
import { launchChromium } from '../support/browser.js';
import { onPath, requirePrograms } from '../support/programs.js';
import { serve } from '../support/serve-process.js';

/**
 * The banner as a website really uses it: the shop's page lives on its own origin (a second HTTP server; on
 * 127.0.0.1 as well, since Chromium refuses a public page's requests to a loopback API) and includes the script from
 * a `serve` that has keys, with a publishable key listed for that origin. Chromium makes the CORS preflight and the
 * requests itself, so what passes here is what a browser lets through; pages on an unlisted origin, or with a secret
 * key, record nothing.
 */

interface Stored {
  id: string;
  data_point_id: string;
  granted: boolean;
  source: string | null;
}
declare const window: Record<string, unknown> & {
  compliance?: { consent(c: string): boolean; status: string; error: unknown };
};

/** What a page's compliance:error listener receives when the banner cannot start. */
interface Refusal {
  during: string;
  reason: string;
  message: string;
  httpStatus: number;
  retryAfter: number | null;
  status: string;
}

/** A key made by `keys create` in this process (the program itself is the keys tests' subject, not this one's). */
async function createKey(db: string, args: string[], clock?: Clock): Promise<string> {
  const r = await cli(['keys', 'create', '--db', db, '--json', ...args], { clock });
  if (r.code !== 0) throw new Error(`keys create ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { key: string }).key;
}

describe('the banner on another origin with a publishable key', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser | undefined;
  let admin: string;
  let publishable: string;
  let secret: string;
  let expired: string;
  let db: string;
  const contexts: BrowserContext[] = [];
  const sites: Server[] = [];
  let SHOP: string;
  let EVIL: string;

  /** A web server of its own origin whose every page includes the banner with the key its `key` parameter names. */
  async function site(): Promise<string> {
    const s = createServer((req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const key = query.get('key') ?? '';
      const api = query.get('api') ?? server.url;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Shop</title>
<script>document.addEventListener('compliance:recorded', (e) => (window.recorded = e.detail));
window.errors = []; document.addEventListener('compliance:error', (e) => window.errors.push(e.detail));</script>
<script src="${api}/sdk/v1/banner.js" data-tenant="shop" data-key="${key}" defer></script>
</head><body><main><h1>Shop</h1></main></body></html>`);
    });
    sites.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}/sdk/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-tenant-id': 'shop', authorization: `Bearer ${admin}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as T;
  };
  const stored = async () => (await api<{ consents: Stored[] }>('GET', '/einwilligungen/consents')).consents;

  /**
   * A fresh visitor on `origin`'s page, which includes the banner from `api` with `key`; the API requests the page
   * made, and the banner's console warnings.
   */
  async function visit(origin: string, key: string, api = server.url) {
    const context = await browser!.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const answers: string[] = [];
    const warnings: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(`${api}/sdk/v1/`) && !r.url().endsWith('banner.js'))
        answers.push(`${r.request().method()} ${r.status()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    const url = new URL(origin);
    url.searchParams.set('key', key);
    if (api !== server.url) url.searchParams.set('api', api);
    await page.goto(url.href);
    await page.waitForFunction(() => window.compliance !== undefined);
    return { page, answers, warnings };
  }

  /** A compliance:error of a banner that cannot start: no banner, status unavailable. */
  const refusedAtStart = (reason: string, httpStatus: number) => ({
    during: 'configuration',
    reason,
    httpStatus,
    status: 'unavailable',
  });

  /** The one compliance:error the page received, once it has. */
  const refusalOf = async (page: Page) => {
    await page.waitForFunction(() => (window.errors as unknown[]).length > 0);
    await page.waitForTimeout(100); // no second one follows
    return page.evaluate(() => window.errors) as Promise<Refusal[]>;
  };

  const needsBrowser = (ctx: TestContext) => {
    requirePrograms(ctx, 'chromium');
    expect(browser, 'chromium did not start').toBeDefined();
  };

  beforeAll(async () => {
    const started = await Promise.all([site(), site()]);
    [SHOP, EVIL] = started as [string, string];
    db = await freshStore('sqlite');
    admin = await createKey(db, ['--scope', 'admin']);
    publishable = await createKey(db, ['--scope', 'publishable', '--tenant', 'shop', '--origin', SHOP]);
    secret = await createKey(db, ['--scope', 'write', '--tenant', 'shop']);
    // made an hour ago, expired a minute ago (so no test waits for it); SHOP stays listed on the usable key, so CORS
    // lets its answer through
    const hourAgo = new Date(Date.now() - 3_600_000);
    const expiresAt = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    expired = await createKey(
      db,
      ['--scope', 'publishable', '--tenant', 'shop', '--origin', SHOP, '--expires', expiresAt],
      { now: () => hourAgo },
    );
    server = await serve(['--db', db]);
    await api('PUT', '/einwilligungen/cookies', bannerConfig());
    if (!onPath('chromium')) return;
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  });
  afterAll(async () => {
    await browser?.close();
    server?.proc.kill();
    for (const s of sites) s.close();
  });

  it('records the choice from the listed origin through the browser’s CORS checks', async (ctx) => {
    needsBrowser(ctx);
    const { page } = await visit(SHOP, publishable);
    await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
    await page.waitForFunction(() => window.recorded !== undefined);
    const consents = await stored();
    expect(consents.map((c) => [c.data_point_id, c.granted, c.source]).sort()).toEqual([
      ['cookies:analytics', true, 'web_banner'],
      ['cookies:marketing', true, 'web_banner'],
    ]);
  });

  it('shows nothing and records nothing on an origin the key does not list, and tells the page why', async (ctx) => {
    needsBrowser(ctx);
    const before = (await stored()).length;
    const { page, warnings } = await visit(EVIL, publishable);
    // the browser hides a refused preflight's reason from the page: the event names both possible causes
    const [refusal] = await refusalOf(page);
    expect(refusal).toEqual({
      during: 'configuration',
      reason: 'network',
      message: expect.stringContaining(`does not allow this page’s origin ${EVIL}`),
      httpStatus: 0,
      retryAfter: null,
      status: 'unavailable',
    });
    expect(await page.evaluate(() => [window.compliance!.status, window.compliance!.error])).toEqual([
      'unavailable',
      refusal,
    ]);
    expect(warnings).toContainEqual(
      expect.stringContaining('compliance banner: configuration not available: no answer'),
    );
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await stored()).length).toBe(before);
  });

  it('a secret key in a page is refused, so a leaked page cannot use it; the page hears the server’s reason', async (ctx) => {
    needsBrowser(ctx);
    const before = (await stored()).length;
    const { page, answers, warnings } = await visit(SHOP, secret);
    await expect.poll(() => answers).toContain('GET 403');
    const [refusal] = await refusalOf(page);
    expect(refusal).toMatchObject(refusedAtStart('forbidden', 403));
    expect(refusal!.message).toMatch(/secret|browser/i);
    expect(warnings).toContainEqual(expect.stringContaining(refusal!.message));
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await stored()).length).toBe(before);
  });

  it('an expired key shows no banner and raises compliance:error saying it expired', async (ctx) => {
    needsBrowser(ctx);
    const { page } = await visit(SHOP, expired);
    const [refusal] = await refusalOf(page);
    expect(refusal).toMatchObject(refusedAtStart('unauthorized', 401));
    expect(refusal!.message).toContain('expired at');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('a consent the server’s rate limit refuses is sent again after its Retry-After, without repeating the stored one', async (ctx) => {
    needsBrowser(ctx);
    // a second replica of the same store whose key quota (3 a minute: one every 20 s) ends inside the page's visit
    const limited = await serve(['--db', db, '--rate-limit', '3', '--rate-limit-ip', '0']);
    try {
      const before = new Set((await stored()).map((c) => c.id));
      const { page, answers } = await visit(SHOP, publishable, limited.url);
      await page.getByRole('button', { name: 'Alle akzeptieren' }).click();
      const [refusal] = await refusalOf(page);
      // the headers of a cross-origin answer reach the page: Retry-After through Access-Control-Expose-Headers
      expect(refusal).toMatchObject({
        during: 'recording',
        reason: 'rate_limited',
        httpStatus: 429,
        status: 'pending',
      });
      expect(refusal!.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refusal!.retryAfter).toBeLessThanOrEqual(20);
      expect(answers.filter((a) => a.startsWith('POST')).sort()).toEqual(['POST 201', 'POST 429']);
      expect(await page.evaluate(() => window.analyticsLoaded ?? window.compliance!.consent('analytics'))).toBe(false);
      // the page waits as told, then sends only the consent not stored yet
      const { ids } = (await page
        .waitForFunction(() => window.recorded, undefined, { timeout: 40_000 })
        .then((h) => h.jsonValue())) as { ids: Record<string, string> };
      expect(Object.keys(ids).sort()).toEqual(['analytics', 'marketing']);
      expect(answers.filter((a) => a.startsWith('POST')).sort()).toEqual(['POST 201', 'POST 201', 'POST 429']);
      const added = (await stored()).filter((c) => !before.has(c.id));
      expect(added.map((c) => c.data_point_id).sort()).toEqual(['cookies:analytics', 'cookies:marketing']);
      expect(await page.evaluate(() => [window.compliance!.status, window.compliance!.consent('analytics')])).toEqual([
        'recorded',
        true,
      ]);
    } finally {
      limited.proc.kill();
    }
  }, 60_000);
});
