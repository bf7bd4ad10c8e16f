import type { ServerResponse } from 'node:http';

/** Every JSON answer: nothing in it runs, frames or loads anything, and no other site embeds it without CORS. */
export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
};

/** Answers `body` as JSON with `status` (and `extra` headers). */
export function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, 'content-length': Buffer.byteLength(text), ...extra });
  res.end(text);
}
