import { spawn } from 'node:child_process';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tmpDb } from '../support/helpers.js';
import { programCopy } from '../support/program-copy.js';

// An operator upgrades the program in place while `compliance serve` runs: dist/ is built anew. The server loaded its
// program whole (one file, dist/program.cjs) and keeps answering every route with it; only a thread it would start
// (an import's writer) would load the new program, so that is refused, saying to restart (503, in the API's error
// body), instead of answering 500.

describe('serve after its program files were replaced under it', () => {
  const copy = programCopy('upgrade-');

  it('keeps answering every route, and answers 503 naming the restart for a thread of the new program', async () => {
    const proc = spawn(process.execPath, [join(copy, 'bin/compliance.js'), '--db', tmpDb(), 'serve', '--port', '0']);
    try {
      let err = '';
      proc.stderr.on('data', (c) => (err += c));
      const url = await new Promise<string>((ok, fail) => {
        proc.stderr.on('data', () => {
          const m = /at (http:\/\/\S+\/sdk\/v1)/.exec(err);
          if (m) ok(m[1]!);
        });
        proc.on('exit', (code) => fail(new Error(`serve exited ${code}: ${err}`)));
      });
      const get = async (path: string) => {
        const r = await fetch(`${url}${path}`, { headers: { 'x-tenant-id': 'acme' } });
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      };
      expect((await get('/dsfa?tenant_id=acme')).status).toBe(200);

      // the upgrade: the old files are gone (a new build replaces them)
      renameSync(join(copy, 'dist'), join(copy, 'dist-before'));
      // a route the server had not answered yet: its code came with the program
      expect((await get('/einwilligungen/consents')).status).toBe(200);
      const imported = await fetch(`${url}/einwilligungen/consents/import`, {
        method: 'POST',
        headers: { 'x-tenant-id': 'acme', 'content-type': 'text/csv' },
        body: 'user_id,data_point_id,granted\nu1,newsletter,true\n',
      });
      expect({ status: imported.status, body: await imported.json() }).toEqual({
        status: 503,
        body: {
          error: "this program's files changed while it runs (an upgrade in place?): restart it to load them",
          code: 'unavailable',
          details: [],
        },
      });
      // the server logs the refusal as it answers: the line may reach this process a moment after the answer
      await vi.waitFor(() => expect(err).toContain("error: this program's files changed while it runs"), {
        timeout: 5000,
      });
      expect(err).not.toContain('internal error');
      expect((await get('/dsfa?tenant_id=acme')).status).toBe(200);
    } finally {
      proc.kill();
    }
  });
});
