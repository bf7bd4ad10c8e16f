import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export const BIN = 'bin/compliance.js';

/** Starts `compliance serve` as a real process and waits for its address on stderr. */
export async function serve(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ proc: ChildProcessWithoutNullStreams; url: string; stderr: () => string }> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env } });
  let err = '';
  proc.stderr.on('data', (c) => (err += c));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no address in: ${err}`)), 10_000);
    proc.stderr.on('data', () => {
      const m = /at (http:\/\/[^\s]+)\/sdk\/v1/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { proc, url, stderr: () => err };
}

export const exited = (p: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((r) => p.on('exit', (code) => r(code)));
