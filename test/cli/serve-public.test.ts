import { describe, expect, it } from 'vitest';
import { cli, tmpDb } from '../support/helpers.js';
import { exited, serve } from '../support/serve-process.js';

describe('serve flags for a public server', () => {
  it('refuses a log format or a rate limit it does not know, with exit 2', async () => {
    const db = tmpDb();
    for (const [args, message] of [
      [['--log-format', 'xml'], /--log-format xml: expected text or json/],
      [['--rate-limit', 'many'], /--rate-limit many: expected requests per minute/],
      [['--rate-limit-ip', '-1'], /--rate-limit-ip -1: expected requests per minute/],
    ] as const) {
      const r = await cli(['--db', db, 'serve', '--port', '0', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('refuses to start with an import batch size it cannot use (exit 2, naming the variable)', async () => {
    const r = await cli(['--db', tmpDb(), 'serve', '--port', '0'], { env: { COMPLIANCE_IMPORT_BATCH_ROWS: '2500' } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/invalid COMPLIANCE_IMPORT_BATCH_ROWS: "2500" \(a whole number from 100 to 1000/);
  });

  it('logs JSON, limits each forwarded address on its own behind --trust-proxy, from the environment', async () => {
    const db = tmpDb();
    const made = await cli([
      '--db',
      db,
      'keys',
      'create',
      '--json',
      '--scope',
      'publishable',
      '--tenant',
      'acme',
      '--origin',
      'https://shop.example',
    ]);
    const { key } = JSON.parse(made.stdout) as { key: string };
    const s = await serve(['--db', db, '--trust-proxy'], {
      COMPLIANCE_LOG_FORMAT: 'json',
      COMPLIANCE_RATE_LIMIT_IP: '2',
    });
    try {
      const get = (from: string) =>
        fetch(`${s.url}/sdk/v1/einwilligungen/cookies`, {
          headers: {
            authorization: `Bearer ${key}`,
            'x-tenant-id': 'acme',
            origin: 'https://shop.example',
            'x-forwarded-for': `203.0.113.9, ${from}`,
            'x-request-id': `from-${from}`,
          },
        });
      expect((await get('198.51.100.1')).status).toBe(200);
      expect((await get('198.51.100.1')).status).toBe(200);
      const limited = await get('198.51.100.1');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('30');
      expect((await get('198.51.100.2')).status).toBe(200);
      const code = exited(s.proc);
      s.proc.kill('SIGTERM');
      expect(await code).toBe(0);
      const lines = s
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => [l.status, l.ip, l.request_id, l.tenant])).toEqual([
        [200, '198.51.100.1', 'from-198.51.100.1', 'acme'],
        [200, '198.51.100.1', 'from-198.51.100.1', 'acme'],
        [429, '198.51.100.1', 'from-198.51.100.1', null],
        [200, '198.51.100.2', 'from-198.51.100.2', 'acme'],
      ]);
    } finally {
      s.proc.kill('SIGKILL');
    }
  });
});
