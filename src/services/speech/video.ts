import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Speech } from './speech.js';
import { probe, run } from './tools.js';

export interface VideoSection {
  heading: string;
  text: string;
  bullet_points: string[];
}
export interface VideoScript {
  title: string;
  sections: VideoSection[];
}

/** The video script of a module's Markdown: one section per `##` heading, its bullets, and the text to narrate. */
export function videoScript(markdown: string, fallbackTitle: string): VideoScript {
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? fallbackTitle;
  const parts = markdown.split(/^##\s+/m).slice(1);
  const sections = parts
    .map((part) => {
      const [head, ...rest] = part.split('\n');
      const body = rest.join('\n');
      const bullet_points = [...body.matchAll(/^\s*[-*+]\s+(.+)$/gm)]
        .map((m) => m[1]!.replace(/[*_`]/g, '').trim())
        .slice(0, 6);
      const text = body
        .replace(/^\s*[-*+]\s+/gm, '')
        .replace(/[*_`#>]/g, '')
        .replace(/\n{2,}/g, '\n')
        .trim();
      return { heading: head!.trim(), text, bullet_points };
    })
    .filter((s) => s.heading);
  return {
    title,
    sections: sections.length
      ? sections
      : [{ heading: title, text: markdown.replace(/[#*_`>]/g, '').trim(), bullet_points: [] }],
  };
}

const FONT = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/Library/Fonts/Arial.ttf'].find(existsSync);
const BOLD =
  ['/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', '/Library/Fonts/Arial Bold.ttf'].find(existsSync) ?? FONT;

const wrap = (s: string, width: number): string => {
  const out: string[] = [];
  let line = '';
  for (const w of s.split(/\s+/)) {
    if ((line + ' ' + w).trim().length > width) {
      out.push(line.trim());
      line = w;
    } else line += ' ' + w;
  }
  if (line.trim()) out.push(line.trim());
  return out.join('\n');
};

/**
 * Renders one 1280x720 slide per section (heading and bullet points), narrates each section, and joins the segments
 * into an MP4 (H.264 + AAC) whose slide changes follow the narration.
 */
export async function renderVideo(
  script: VideoScript,
  language: 'de' | 'en',
  speech: Speech,
  workDir: string,
  out: string,
): Promise<{ duration: number }> {
  const segments: string[] = [];
  for (const [i, s] of script.sections.entries()) {
    const wav = join(workDir, `s${i}.wav`);
    await speech.synthesize(`${s.heading}. ${s.text}`, language, wav);
    const { duration } = await probe(wav);
    const headFile = join(workDir, `s${i}-head.txt`);
    const bulletFile = join(workDir, `s${i}-bullets.txt`);
    await writeFile(headFile, wrap(s.heading, 40));
    await writeFile(
      bulletFile,
      s.bullet_points.map((b) => '• ' + wrap(b, 60).replace(/\n/g, '\n   ')).join('\n') || ' ',
    );
    const font = (f?: string) => (f ? `fontfile=${f}:` : '');
    const filter = [
      `drawtext=${font(BOLD)}textfile=${headFile}:expansion=none:fontsize=52:fontcolor=white:x=80:y=80:line_spacing=10`,
      `drawtext=${font(FONT)}textfile=${bulletFile}:expansion=none:fontsize=34:fontcolor=white:x=100:y=250:line_spacing=18`,
      `drawtext=${font(FONT)}text='${i + 1}/${script.sections.length}':expansion=none:fontsize=22:fontcolor=0xbbccee:x=w-tw-40:y=h-th-30`,
    ].join(',');
    const seg = join(workDir, `s${i}.mp4`);
    await run('ffmpeg', [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x1a3a6b:s=1280x720:r=25:d=${duration.toFixed(3)}`,
      '-i',
      wav,
      '-vf',
      filter,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-tune',
      'stillimage',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-ar',
      '44100',
      '-ac',
      '1',
      '-shortest',
      seg,
    ]);
    segments.push(seg);
  }
  const list = join(workDir, 'segments.txt');
  await writeFile(list, segments.map((s) => `file '${s.replace(/'/g, "'\\''")}'`).join('\n'));
  await run('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    out,
  ]);
  return { duration: (await probe(out)).duration };
}
