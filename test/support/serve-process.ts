import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';

export const BIN = 'bin/compliance.js';

/** Runs the built program (dist/, through bin/compliance.js) as a process to its end: its exit code and output. */
export function builtCli(
  args: string[],
  env: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Starts `compliance serve` as a real process and waits for its address on stderr. A process that names no address
 * in time is killed before the promise fails, so a slow start never leaves a server behind the test run.
 */
export async function serve(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<{ proc: ChildProcessWithoutNullStreams; url: string; stderr: () => string }> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env } });
  let err = '';
  proc.stderr.on('data', (c) => (err += c));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no address within ${timeoutMs} ms in: ${err}`));
    }, timeoutMs);
    // looked for until found only: the server logs every request after it, and searching the whole log at each line
    // costs a test of thousands of requests seconds of CPU
    const onData = () => {
      const m = /at (http:\/\/[^\s]+)\/sdk\/v1/.exec(err);
      if (m) {
        clearTimeout(t);
        proc.stderr.off('data', onData);
        resolve(m[1]!);
      }
    };
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { proc, url, stderr: () => err };
}

export const exited = (p: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((r) => p.on('exit', (code) => r(code)));

/**
 * A JSON client of several `serve` replicas: request `i` goes to replica `i % n`, so neighbours in a burst meet on
 * different processes. `replicas` is read at each call (the list may be filled in `beforeAll`).
 */
export function replicaClient<Body>(
  replicas: () => ReadonlyArray<{ url: string }>,
  headers: (i: number) => Record<string, string>,
  timeoutMs = 30_000,
) {
  return async (i: number, method: string, path: string, body?: unknown): Promise<{ status: number; body: Body }> => {
    const all = replicas();
    const res = await fetch(`${all[i % all.length]!.url}/sdk/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers(i) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
}
