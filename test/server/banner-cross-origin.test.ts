import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { bannerConfig } from '../support/banner.js';
import { tmpDb } from '../support/helpers.js';
import { onPath, programPath, requirePrograms } from '../support/programs.js';
import { BIN, serve } from '../support/serve-process.js';

/**
 * The banner as a website really uses it: the shop's page lives on its own origin (a second HTTP server; on
 * 127.0.0.1 as well, since Chromium refuses a public page's requests to a loopback API) and includes the script from
 * a `serve` that has keys, with a publishable key listed for that origin. Chromium makes the CORS preflight and the
 * requests itself, so what passes here is what a browser lets through; pages on an unlisted origin, or with a secret
 * key, record nothing.
 */

interface Stored {
  data_point_id: string;
  granted: boolean;
  source: string | null;
}
declare const window: Record<string, unknown> & { compliance?: { consent(c: string): boolean } };

function createKey(db: string, args: string[]): string {
  const out = execFileSync(process.execPath, [BIN, 'keys', 'create', '--db', db, '--json', ...args], {
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { key: string }).key;
}

describe('the banner on another origin with a publishable key', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  let browser: Browser | undefined;
  let admin: string;
  let publishable: string;
  let secret: string;
  const contexts: BrowserContext[] = [];
  const sites: Server[] = [];
  let SHOP: string;
  let EVIL: string;

  /** A web server of its own origin whose every page includes the banner with the key its `key` parameter names. */
  async function site(): Promise<string> {
    const s = createServer((req, res) => {
      const key = new URL(req.url ?? '/', 'http://x').searchParams.get('key') ?? '';
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Shop</title>
<script>document.addEventListener('compliance:recorded', (e) => (window.recorded = e.detail));</script>
<script src="${server.url}/sdk/v1/banner.js" data-tenant="shop" data-key="${key}" defer></script>
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

  /** A fresh visitor on `origin`'s page, which includes the banner with `key`; the API requests the page made. */
  async function visit(origin: string, key: string) {
    const context = await browser!.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const answers: string[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(`${server.url}/sdk/v1/`) && !r.url().endsWith('banner.js'))
        answers.push(`${r.request().method()} ${r.status()}`);
    });
    await page.goto(`${origin}/?key=${encodeURIComponent(key)}`);
    await page.waitForFunction(() => window.compliance !== undefined);
    return { page, answers };
  }

  const needsBrowser = (ctx: TestContext) => {
    requirePrograms(ctx, 'chromium');
    expect(browser, 'chromium did not start').toBeDefined();
  };

  beforeAll(async () => {
    const db = tmpDb();
    const started = await Promise.all([site(), site()]);
    [SHOP, EVIL] = started as [string, string];
    admin = createKey(db, ['--scope', 'admin']);
    publishable = createKey(db, ['--scope', 'publishable', '--tenant', 'shop', '--origin', SHOP]);
    secret = createKey(db, ['--scope', 'write', '--tenant', 'shop']);
    server = await serve(['--db', db]);
    await api('PUT', '/einwilligungen/cookies', bannerConfig());
    if (!onPath('chromium')) return;
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: programPath('chromium'),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
  }, 60_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
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

  it('shows nothing and records nothing on an origin the key does not list', async (ctx) => {
    needsBrowser(ctx);
    const before = (await stored()).length;
    const { page } = await visit(EVIL, publishable);
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await stored()).length).toBe(before);
  });

  it('a secret key in a page is refused, so a leaked page cannot use it', async (ctx) => {
    needsBrowser(ctx);
    const before = (await stored()).length;
    const { page, answers } = await visit(SHOP, secret);
    await expect.poll(() => answers).toContain('GET 403');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect((await stored()).length).toBe(before);
  });
});
