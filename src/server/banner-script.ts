import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * The website banner (src/banner/banner.js), as `npm run build` minifies it into dist/sdk-banner.js; from a source
 * checkout without a build, the readable source itself. Read once, on the first request.
 */
const CANDIDATES = [
  new URL('./sdk-banner.js', import.meta.url), // beside the bundled server chunk in dist/
  new URL('../../dist/sdk-banner.js', import.meta.url), // src/server/ under vitest, after a build
  new URL('../../src/banner/banner.js', import.meta.url), // src/server/ without a build
];

interface Script {
  body: Buffer;
  /** The same, gzipped once, for clients that accept it (every browser). */
  gzipped: Buffer;
  etag: string;
}
let loaded: Script | undefined;

function load(): Script {
  if (loaded) return loaded;
  for (const url of CANDIDATES) {
    let body: Buffer;
    try {
      body = readFileSync(url);
    } catch {
      continue;
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    return (loaded = { body, gzipped: gzipSync(body, { level: 9 }), etag });
  }
  throw new Error('the banner script is missing: run `npm run build`');
}

/** An hour in browsers and shared caches, then revalidated by its ETag (a new release changes the script). */
const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

/**
 * Answers GET and HEAD of /sdk/v1/banner.js: public (no key, no tenant: the script holds no data), cacheable, with an
 * ETag and 304 for a request that already holds it; the script may be loaded from any site (Cross-Origin-Resource-Policy).
 */
export function sendBannerScript(req: IncomingMessage, res: ServerResponse): number {
  const { body, gzipped, etag } = load();
  const headers: Record<string, string> = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': CACHE_CONTROL,
    etag,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
    'access-control-allow-origin': '*',
    // the same script for every origin, as every answer of the server says; gzipped or not by Accept-Encoding
    vary: 'Origin, Accept-Encoding',
  };
  const held = req.headers['if-none-match'];
  if (held && held.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    res.writeHead(304, headers);
    res.end();
    return 304;
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const sent = gzip ? gzipped : body;
  if (gzip) headers['content-encoding'] = 'gzip';
  res.writeHead(200, { ...headers, 'content-length': sent.byteLength });
  res.end(req.method === 'HEAD' ? undefined : sent);
  return 200;
}
