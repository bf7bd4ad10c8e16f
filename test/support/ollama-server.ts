import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the next generation answers. */
export type Reply =
  | { text: string }
  | { status: number; error: string }
  | { text: string; stopAfterChunks: number }
  | { stallMs: number };

/**
 * An Ollama-compatible HTTP server on 127.0.0.1 for tests: it answers the routes the `ollama` client uses
 * (/api/generate and /api/chat, streamed NDJSON or not; /api/tags; /api/show; /api/version) with scripted replies, and
 * records every request body so tests can check what left the process.
 */
export class FakeOllama {
  readonly requests: Array<{ path: string; body: Record<string, unknown> }> = [];
  private readonly replies: Reply[] = [];
  private server?: Server;
  url = '';

  reply(...r: Reply[]): this {
    this.replies.push(...r);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        this.requests.push({ path: req.url ?? '', body });
        if (req.url === '/api/tags')
          return this.json(res, 200, { models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b' }] });
        if (req.url === '/api/version') return this.json(res, 200, { version: '0.0.0-test' });
        if (req.url === '/api/show') return this.json(res, 200, { modelfile: '', parameters: '', template: '' });
        if (req.url !== '/api/generate' && req.url !== '/api/chat') return this.json(res, 404, { error: 'not found' });
        const r = this.replies.shift() ?? { text: 'default answer' };
        if ('status' in r) return this.json(res, r.status, { error: r.error });
        if ('stallMs' in r) {
          res.writeHead(200, { 'content-type': 'application/x-ndjson' });
          res.write(JSON.stringify(this.part(req.url, '…', false)) + '\n');
          setTimeout(() => res.end(), r.stallMs);
          return;
        }
        const chunks = r.text.match(/[\s\S]{1,40}/g) ?? [''];
        if (body.stream === false)
          return this.json(res, 200, { ...this.part(req.url, r.text, true), prompt_eval_count: 11, eval_count: 22 });
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        const limit = 'stopAfterChunks' in r ? r.stopAfterChunks : Infinity;
        chunks.forEach((c, i) => {
          if (i < limit) res.write(JSON.stringify(this.part(req.url, c, false)) + '\n');
        });
        if (limit === Infinity)
          res.write(JSON.stringify({ ...this.part(req.url, '', true), prompt_eval_count: 11, eval_count: 22 }) + '\n');
        res.end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  private part(url: string | undefined, text: string, done: boolean) {
    const base = { model: 'llama3.1:8b', created_at: new Date().toISOString(), done };
    return url === '/api/chat'
      ? { ...base, message: { role: 'assistant', content: text } }
      : { ...base, response: text };
  }

  private json(res: import('node:http').ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  close(): Promise<void> {
    return new Promise((r) => {
      this.server?.closeAllConnections();
      this.server?.close(() => r());
    });
  }
}
