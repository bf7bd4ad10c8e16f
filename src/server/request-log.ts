import { randomUUID } from 'node:crypto';

/** A request id a client may choose: short, printable, no spaces (it is echoed in a header and logged). */
const SANE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The client's X-Request-ID when it is sane, else a new one. */
export const requestId = (given: string | undefined): string =>
  given !== undefined && SANE_ID.test(given) ? given : randomUUID();

export type LogFormat = 'text' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

/** One request as the log records it. */
export interface RequestRecord {
  time: string;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  principal: string | null;
  tenant: string | null;
  ip?: string;
}

/** One log line: a JSON object (`--log-format json`) or the words of a terminal. */
export function logLine(format: LogFormat, r: RequestRecord): string {
  if (format === 'json') return JSON.stringify(r);
  return `${r.time} ${r.request_id} ${r.method} ${r.path} ${r.status} ${r.duration_ms.toFixed(1)}ms`;
}
