import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EspeakSpeech, encodeAudio, speakableText } from '../../src/services/speech/speech.js';
import { probe, run } from '../../src/services/speech/tools.js';
import { renderVideo, videoScript } from '../../src/services/speech/video.js';
import { tmp } from '../support/helpers.js';
import { requirePrograms } from '../support/programs.js';

const md =
  '# Phishing erkennen\n\n## Lernziele\n- Merkmale kennen\n- Richtig melden\n\nPhishing-Mails erzeugen Zeitdruck.\n\n## Zusammenfassung\n- Nie Passwörter eingeben\n';

describe('speech and video', () => {
  it('turns Markdown into narration and a video script', () => {
    expect(speakableText(md)).not.toMatch(/[#*]/);
    const s = videoScript(md, 'x');
    expect(s.title).toBe('Phishing erkennen');
    expect(s.sections.map((x) => [x.heading, x.bullet_points])).toEqual([
      ['Lernziele', ['Merkmale kennen', 'Richtig melden']],
      ['Zusammenfassung', ['Nie Passwörter eingeben']],
    ]);
  });

  it('speaks German with espeak-ng and encodes AAC that ffprobe reads', async (ctx) => {
    requirePrograms(ctx, 'espeak-ng', 'ffmpeg', 'ffprobe');
    const dir = tmp();
    const wav = join(dir, 'a.wav');
    await new EspeakSpeech().synthesize('Guten Tag. Diese Schulung behandelt den Datenschutz im Büro.', 'de', wav);
    const out = join(dir, 'a.m4a');
    await encodeAudio(wav, out);
    const p = await probe(out);
    expect(p.streams.map((s) => s.codec_name)).toEqual(['aac']);
    expect(p.duration).toBeGreaterThan(2);
    expect(p.duration).toBeLessThan(10);
  });

  it('renders a narrated 1280x720 H.264 + AAC video whose length follows the narration', async (ctx) => {
    requirePrograms(ctx, 'espeak-ng', 'ffmpeg', 'ffprobe');
    const dir = tmp();
    const out = join(dir, 'v.mp4');
    const { duration } = await renderVideo(videoScript(md, 'x'), 'de', new EspeakSpeech(), dir, out);
    const p = await probe(out);
    const video = p.streams.find((s) => s.codec_type === 'video')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(p.streams.find((s) => s.codec_type === 'audio')!.codec_name).toBe('aac');
    const narration = (await probe(join(dir, 's0.wav'))).duration + (await probe(join(dir, 's1.wav'))).duration;
    expect(Math.abs(duration - narration)).toBeLessThan(0.6);
  });

  it('names the package to install when a tool is missing', async () => {
    await expect(run('espeak-ng', ['--version'], { env: { PATH: '/nonexistent' } })).rejects.toThrow(
      /apt-get install espeak-ng/,
    );
    await expect(run('ffmpeg', ['-version'], { env: { PATH: '/nonexistent' } })).rejects.toThrow(
      /apt-get install ffmpeg/,
    );
  });
});
