// The website banner's weight: dist/sdk-banner.js (what `serve` sends at /sdk/v1/banner.js, minified by the build)
// raw, gzipped and brotli-compressed, against the aim of < 15 KB gzipped; the readable source beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { ROOT, row } from './lib.mjs';

const AIM = 15 * 1024;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const served = readFileSync(join(ROOT, 'dist', 'sdk-banner.js'));
const source = readFileSync(join(ROOT, 'src', 'banner', 'banner.js'));
const gz = gzipSync(served, { level: 9 }).length;
const br = brotliCompressSync(served, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
row(
  'banner.js source (src/banner/banner.js)',
  kb(source.length),
  `gzipped ${kb(gzipSync(source, { level: 9 }).length)}`,
);
row('banner.js served (dist/sdk-banner.js, minified)', kb(served.length));
row('banner.js served, gzipped (-9)', kb(gz), `aim < ${kb(AIM)}: ${gz < AIM ? 'met' : 'NOT met'}`);
row('banner.js served, brotli (11)', kb(br));
if (gz >= AIM) process.exitCode = 1;
