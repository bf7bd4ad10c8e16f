import { spawn } from 'node:child_process';
import { DomainError } from '../../domain/errors.js';

const PACKAGE: Record<string, string> = { 'espeak-ng': 'espeak-ng', ffmpeg: 'ffmpeg', ffprobe: 'ffmpeg' };

/** Runs an external tool; a missing tool is a clear error naming the Debian package to install. */
export function run(
  cmd: string,
  args: string[],
  opts: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 300_000);
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err += c));
    p.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        e.code === 'ENOENT'
          ? new DomainError(
              'unavailable',
              `${cmd} is not installed: install the Debian package ${PACKAGE[cmd] ?? cmd} (apt-get install ${PACKAGE[cmd] ?? cmd})`,
            )
          : new DomainError('unavailable', `${cmd} failed to start: ${e.message}`),
      );
    });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new DomainError(
            'unavailable',
            `${cmd} failed (${signal ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' ')}`,
          ),
        );
    });
    p.stdin.on('error', () => undefined);
    p.stdin.end(opts.input ?? '');
  });
}

/** Duration in seconds and codec names of a media file, read with ffprobe. */
export async function probe(file: string): Promise<{
  duration: number;
  streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>;
}> {
  const out = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,codec_name,width,height',
    '-of',
    'json',
    file,
  ]);
  const j = JSON.parse(out) as {
    format: { duration: string };
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>;
  };
  return { duration: Number(j.format.duration), streams: j.streams };
}
