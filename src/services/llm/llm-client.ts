import { DomainError } from '../../domain/errors.js';
import type { LlmClient, LlmRequest, LlmResult } from '../../domain/training/content.llm.js';

export interface OllamaOptions {
  host?: string;
  /** Time allowed until the server answers with headers. */
  connectTimeoutMs?: number;
  /** Time allowed between two streamed chunks. */
  idleTimeoutMs?: number;
  /** Time allowed for a whole generation. */
  totalTimeoutMs?: number;
}

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
export const DEFAULT_MODEL = 'llama3.1:8b';

/**
 * The `ollama` client, streaming, so a server that stalls or stops mid-answer is noticed (idle timeout, and the
 * stream must end with done). Every failure becomes a DomainError('unavailable') that says what to do.
 */
/** Codes of a fetch's cause that mean nothing answers at the host (Node's sockets and undici's connect timeout). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export class OllamaClient implements LlmClient {
  constructor(private readonly opts: OllamaOptions = {}) {}

  private get host(): string {
    return (this.opts.host || DEFAULT_OLLAMA_HOST).replace(/\/+$/, '');
  }

  async generate(req: LlmRequest): Promise<LlmResult> {
    const { Ollama } = await import('ollama');
    const connectMs = this.opts.connectTimeoutMs ?? 10_000;
    const timedFetch: typeof fetch = async (url, init) => {
      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(new Error('connect timeout')), connectMs);
      const signals = [ctl.signal, ...(init?.signal ? [init.signal] : [])];
      try {
        return await fetch(url, { ...init, signal: AbortSignal.any(signals) });
      } finally {
        clearTimeout(timer);
      }
    };
    const client = new Ollama({ host: this.host, fetch: timedFetch });
    const started = Date.now();
    let text = '';
    let prompt_tokens = 0;
    let completion_tokens = 0;
    let done = false;
    type Part = { response: string; done: boolean; prompt_eval_count?: number; eval_count?: number };
    let stream: AsyncIterable<Part> & { abort(): void };
    try {
      stream = (await client.generate({
        model: req.model,
        prompt: req.prompt,
        system: req.system,
        format: req.format,
        stream: true,
      })) as unknown as typeof stream;
    } catch (e) {
      throw this.explain(e, req.model);
    }
    let idle: NodeJS.Timeout | undefined;
    let why = '';
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        why = `no answer from Ollama for ${(this.opts.idleTimeoutMs ?? 60_000) / 1000} s`;
        stream.abort();
      }, this.opts.idleTimeoutMs ?? 60_000);
      if (Date.now() - started > (this.opts.totalTimeoutMs ?? 600_000)) {
        why = 'the generation took longer than allowed';
        stream.abort();
      }
    };
    try {
      arm();
      for await (const part of stream) {
        arm();
        text += part.response ?? '';
        if (part.done) {
          done = true;
          prompt_tokens = part.prompt_eval_count ?? 0;
          completion_tokens = part.eval_count ?? 0;
        }
      }
    } catch (e) {
      if (why) throw new DomainError('unavailable', `Ollama at ${this.host}: ${why}`);
      throw this.explain(e, req.model);
    } finally {
      clearTimeout(idle);
    }
    if (!done) throw new DomainError('unavailable', `Ollama at ${this.host} stopped in the middle of its answer`);
    return { text, prompt_tokens, completion_tokens };
  }

  private explain(e: unknown, model: string): DomainError {
    const err = e as { name?: string; status_code?: number; message?: string; cause?: { code?: string } };
    if (err.name === 'ResponseError' && err.status_code === 404)
      return new DomainError(
        'unavailable',
        `the model ${model} is not installed in Ollama at ${this.host}: run \`ollama pull ${model}\` (or choose another with --model / COMPLIANCE_LLM_MODEL)`,
      );
    if (err.name === 'ResponseError')
      return new DomainError('unavailable', `Ollama at ${this.host} answered ${err.status_code}: ${err.message}`);
    // fetch's TypeError carries the reason in its cause's code (words in a message decide nothing)
    const code = err.cause?.code;
    if (code !== undefined && UNREACHABLE.has(code))
      return new DomainError(
        'unavailable',
        `Ollama is not reachable at ${this.host}${code ? ` (${code})` : ''}: start it with \`ollama serve\` (or set OLLAMA_HOST), then \`ollama pull ${model}\``,
      );
    return new DomainError('unavailable', `Ollama at ${this.host} failed: ${err.message ?? String(e)}`);
  }
}
