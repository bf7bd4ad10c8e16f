import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DomainError } from '../../domain/errors.js';
import { run } from './tools.js';

/** Text to a WAV file; the real implementations are espeak-ng (Linux) and the `say` package (macOS, Windows). */
export interface Speech {
  synthesize(text: string, language: 'de' | 'en', wavFile: string): Promise<void>;
}

/** espeak-ng with a German or English voice; the text goes through a file, never the command line. */
export class EspeakSpeech implements Speech {
  async synthesize(text: string, language: 'de' | 'en', wavFile: string): Promise<void> {
    const textFile = `${wavFile}.txt`;
    await writeFile(textFile, text, 'utf8');
    await run('espeak-ng', [
      '-v',
      language === 'de' ? 'de' : 'en',
      '-s',
      '160',
      '-b',
      '1',
      '-f',
      textFile,
      '-w',
      wavFile,
    ]);
  }
}

/** macOS and Windows: the `say` package can export to a file there. */
export class SaySpeech implements Speech {
  async synthesize(text: string, _language: 'de' | 'en', wavFile: string): Promise<void> {
    const { default: say } = await import('say');
    await new Promise<void>((resolve, reject) =>
      say.export(text, undefined, 1, wavFile, (e?: unknown) =>
        e ? reject(new DomainError('unavailable', `say failed: ${String(e)}`)) : resolve(),
      ),
    );
  }
}

export const platformSpeech = (): Speech => (process.platform === 'linux' ? new EspeakSpeech() : new SaySpeech());

/** Plain sentences from Markdown: headings, emphasis, links and list marks removed. */
export function speakableText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s*(.*)$/gm, '$1.')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^\s*\d+\.\s+/gm, '')
    .replace(/[*_`>|]/g, '')
    .replace(/\.\.+/g, '.')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** WAV to AAC in an MP4 container (.m4a), mono at 64 kbit/s: small and playable in every browser. */
export async function encodeAudio(wav: string, out: string): Promise<void> {
  await run('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-i',
    wav,
    '-ac',
    '1',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-movflags',
    '+faststart',
    out,
  ]);
}

export const tmpName = (dir: string, name: string) => join(dir, name);
