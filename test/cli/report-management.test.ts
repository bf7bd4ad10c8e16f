import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { TONE_COLOURS } from '../../src/services/report/tones.js';
import { cli, freshStore, tmp } from '../support/helpers.js';
import { ink, overlapping, pdfWords, pixelsOf, renderPages } from '../support/pages.js';
import { launchChromium } from '../support/browser.js';
import { requirePrograms } from '../support/programs.js';
import { readDocx } from '../support/docx.js';
import { parseXml } from '../support/xml.js';

// The management report as a reader gets it: a PDF rendered to pictures, a Word document opened part by part, the
// HTML page in a real browser with a screenshot of each chart. REPORT_SCREENSHOTS=folder keeps the pictures.
const keep = process.env.REPORT_SCREENSHOTS;
if (keep) mkdirSync(keep, { recursive: true });
// a copy of the run's migrated template store, filled in beforeAll
let db = '';
const at = new Date('2026-03-20T12:00:00.000Z');
const run = (args: string[], env: Record<string, string> = {}) =>
  cli(['--db', db, '--tenant', 'acme', ...args], { env: { TZ: 'Europe/Berlin', ...env }, clock: { now: () => at } });
const period = ['--from', '2026-01-01', '--to', '2026-03-31'];

beforeAll(async () => {
  db = await freshStore('sqlite');
  let now = new Date('2026-01-12T09:00:00.000Z');
  const b = await createLocalBackend(db, { clock: { now: () => new Date(now) } });
  const T = { tenant: 'acme', actor: 'officer' };
  const questions = [{ question: 'Eins?', options: ['a', 'b'], correct_index: 0 }];
  const mods: string[] = [];
  for (const [code, title] of [
    ['DSGVO-BASIS', 'Grundlagen des Datenschutzes für alle Beschäftigten'],
    ['NIS2-MELDE', 'Meldepflichten bei erheblichen Sicherheitsvorfällen'],
    ['AI-KOMPETENZ', 'KI-Kompetenz nach Art. 4 KI-Verordnung'],
  ])
    mods.push(
      (
        await b.training.createModule({
          ...T,
          body: { module_code: code, title, regulation_area: 'dsgvo', frequency_type: 'annual', questions },
        })
      ).id,
    );
  for (const [i, m] of mods.entries())
    await b.training.setMatrix({ ...T, body: { role_code: i ? 'R9' : 'R1', module_id: m } });
  for (let u = 0; u < 12; u++)
    await b.training.compute({
      ...T,
      body: {
        user_id: `u${u}`,
        user_name: `Person ${u}`,
        user_email: `u${u}@example.com`,
        roles: u % 3 ? ['R9'] : ['R1', 'R9'],
      },
    });
  const list = await b.training.listAssignments({ ...T, query: { limit: 500 } });
  for (const [i, a] of list.entries()) {
    if (i % 3 === 2) continue;
    now = new Date(Date.UTC(2026, i % 3, 5 + i));
    await b.training.start({ ...T, params: { id: a.id } });
    const quiz = await b.training.quiz({ ...T, params: { moduleId: a.module_id } });
    await b.training.submitQuiz({
      ...T,
      params: { moduleId: a.module_id },
      body: { assignment_id: a.id, answers: [{ question_id: quiz.questions[0]!.id, selected_index: i % 4 ? 0 : 1 }] },
    });
    if (i % 2 === 0) {
      await b.training.complete({ ...T, params: { id: a.id } });
      if (i % 4) await b.training.generateCertificate({ ...T, params: { assignmentId: a.id }, body: {} });
    }
  }
  now = new Date('2026-03-20T11:00:00.000Z');
  for (let i = 0; i < 60; i++) {
    const c = await b.consents.create({
      ...T,
      body: {
        user_id: `p${i}@example.com`,
        data_point_id: ['newsletter', 'analytics', 'marketing'][i % 3]!,
        granted: i % 5 !== 0,
        granted_at: new Date(Date.UTC(2026, i % 3, 1 + (i % 18), 10)).toISOString(),
      },
    });
    if (i % 7 === 1 && i % 5 !== 0) await b.consents.revoke({ ...T, params: { id: c.id } });
  }
  for (const [title, risk, status] of [
    ['Videoüberwachung Lager', 'high', 'approved'],
    ['Bewerbermanagement', 'medium', 'in-review'],
    ['KI-Chatbot Kundenservice', 'critical', 'draft'],
  ] as const)
    await b.dsfa.create({ ...T, body: { title, risk_level: risk, status, review_date: '2026-03-01' } });
  const doc = await b.legalDocuments.create({
    ...T,
    body: { title: 'Datenschutzerklärung', document_type: 'privacy_policy' },
  });
  const v = await b.legalDocuments.addVersion({
    ...T,
    params: { id: doc.id },
    body: { title: 'v1', content: '# DSE' },
  });
  await b.legalDocuments.submit({ ...T, params: { id: v.id }, body: {} });
  await b.legalDocuments.approve({ ...T, params: { id: v.id }, body: { approved_by: 'dpo' } });
  await b.legalDocuments.publish({ ...T, params: { id: v.id }, body: {} });
  await b.close();
});

/** The few browser globals the pixel count uses (the tests compile without the DOM library). */
interface BrowserGlobals {
  Image: new () => { src: string; width: number; height: number; decode(): Promise<void> };
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        drawImage(image: unknown, x: number, y: number): void;
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      } | null;
    };
  };
}

describe('compliance report management', () => {
  it('writes a PDF whose pages show charts as vectors, their data, and the period and time on every page', async (ctx) => {
    const out = join(tmp(), 'bericht.pdf');
    const r = await run(['report', 'management', ...period, '-o', out]);
    expect([r.code, r.stderr]).toEqual([0, `wrote ${out}\n`]);
    requirePrograms(ctx, 'pdftotext', 'pdftoppm', 'pdfimages');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    const pages = renderPages(out, 70);
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const footers = text.match(/Zeitraum: 01\.01\.2026 – 31\.03\.2026 · Erstellt: 20\.03\.2026, 13:00 MEZ/g) ?? [];
    expect(footers.length).toBe(pages.length + 1); // the footer of each page and the subtitle of the first
    expect(text).toContain(`Seite ${pages.length} von ${pages.length}`);
    expect(text).toContain('Was Aufmerksamkeit braucht');
    // the axis labels of the charts are text in the PDF, so the charts are vectors, not pictures
    expect(text).toMatch(/NIS2-MELDE\s/);
    expect(text).toContain('100 %');
    expect(execFileSync('pdfimages', ['-list', out]).toString().trim().split('\n').length).toBe(2); // header only
    pages.forEach((page, i) => {
      expect(ink(page), `page ${i + 1} has content`).toBeGreaterThan(0.003);
      expect(ink(page, 0.93, 0.97), `page ${i + 1} has a footer`).toBeGreaterThan(0.001);
    });
    // bars in the series colour and the tones of the risk levels in the stacked DSFA chart
    const drawn = (hex: string) => pages.reduce((n, p) => n + pixelsOf(p, hex, 12), 0);
    expect(drawn('#0072b2')).toBeGreaterThan(500);
    expect(drawn('#c62828')).toBeGreaterThan(50);
    expect(drawn(TONE_COLOURS.high)).toBeGreaterThan(50); // the attention table's value cells
    if (keep) {
      execFileSync('pdftoppm', ['-r', '70', '-png', out, join(keep, 'pdf-page')]);
    }
  });

  it('writes a Word document with each chart as a picture with its title as alternative text, and its table', async () => {
    const out = join(tmp(), 'report.docx');
    const r = await run(['report', 'management', ...period, '-o', out, '--lang', 'en']);
    expect([r.code, r.stderr]).toEqual([0, `wrote ${out}\n`]);
    const docx = readDocx(out);
    expect(docx.language).toBe('en-GB');
    const media = docx.parts.filter((p) => p.startsWith('word/media/'));
    const body = strFromU8(unzipSync(readFileSync(out))['word/document.xml']!);
    const pictures = [...body.matchAll(/<wp:docPr [^>]*descr="([^"]*)"[^>]*title="([^"]*)"/g)];
    expect(media.length).toBeGreaterThanOrEqual(8);
    expect(pictures.length).toBe(media.length);
    expect(pictures.map((p) => p[2])).toContain('Completion rate per module');
    expect(pictures[0]![1]!.replace(/&quot;/g, '"')).toMatch(
      /^Bar chart "Completion rate per module": \d+ values; the data is in the table below\.$/,
    );
    for (const file of media) {
      const png = unzipSync(readFileSync(out))[file]!;
      expect(Buffer.from(png.subarray(1, 4)).toString()).toBe('PNG');
      expect(png.length).toBeGreaterThan(5000);
    }
    const texts = docx.body.map((p) => p.text);
    expect(texts).toContain('Completion rate per module');
    expect(texts).toContain('DSGVO-BASIS – Grundlagen des Datenschutzes für alle Beschäftigten');
    expect(docx.footer[0]!.text).toMatch(/^Period: 1 Jan 2026 – 31 Mar 2026 · Generated: 20 Mar 2026, 13:00 CET/);
    if (keep) writeFileSync(join(keep, 'chart-1.png'), unzipSync(readFileSync(out))[media[0]!]!);
  });

  it('opens in a browser: every chart drawn at a readable size, with its data table, nothing from the network', async (ctx) => {
    const dir = tmp();
    const out = join(dir, 'report.html');
    const r = await run(['report', 'management', ...period, '-o', out]);
    expect([r.code, r.stderr]).toEqual([0, `wrote ${out}\n`]);
    requirePrograms(ctx, 'chromium');
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
      const requests: string[] = [];
      page.on('request', (q) => requests.push(q.url()));
      const problems: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      await page.goto(pathToFileURL(out).href);
      expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
      const figures = page.locator('figure.chart');
      const n = await figures.count();
      expect(n).toBeGreaterThanOrEqual(8);
      for (let i = 0; i < n; i++) {
        const figure = figures.nth(i);
        const title = await figure.locator('figcaption').innerText();
        expect(await figure.getAttribute('aria-labelledby')).toBeTruthy();
        expect(await figure.locator('table.chart-data tbody tr').count()).toBeGreaterThan(0);
        const svg = figure.locator('svg');
        const box = (await svg.boundingBox())!;
        expect(box.width, title).toBeGreaterThan(400);
        expect(box.height, title).toBeGreaterThan(120);
        const shot = await svg.screenshot();
        if (keep) writeFileSync(join(keep, `html-chart-${i + 1}.png`), shot);
        // the screenshot decoded by the browser itself: how much of it is drawn, and in how many colours
        const seen = await page.evaluate(async (b64) => {
          const { Image, document } = globalThis as unknown as BrowserGlobals;
          const img = new Image();
          img.src = `data:image/png;base64,${b64}`;
          await img.decode();
          const c = document.createElement('canvas');
          [c.width, c.height] = [img.width, img.height];
          const g = c.getContext('2d')!;
          g.drawImage(img, 0, 0);
          const px = g.getImageData(0, 0, c.width, c.height).data;
          let drawn = 0;
          const colours = new Set<number>();
          for (let p = 0; p < px.length; p += 4) {
            if (px[p]! + px[p + 1]! + px[p + 2]! < 720) drawn++;
            colours.add(((px[p]! >> 4) << 8) | ((px[p + 1]! >> 4) << 4) | (px[p + 2]! >> 4));
          }
          return { drawn: drawn / (px.length / 4), colours: colours.size };
        }, shot.toString('base64'));
        expect(seen.drawn, `${title}: drawn share`).toBeGreaterThan(0.01);
        expect(seen.colours, `${title}: colours`).toBeGreaterThan(3);
      }
      if (keep) await page.screenshot({ path: join(keep, 'html-page.png'), fullPage: true });
      // on a phone: nothing wider than the screen (long names in tables wrap), a chart scrolls inside its figure
      await page.setViewportSize({ width: 400, height: 800 });
      const narrow = await page.evaluate(() => {
        const { document: d, innerWidth } = globalThis as unknown as {
          innerWidth: number;
          document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): Iterable<Measured> };
        };
        interface Measured {
          getBoundingClientRect(): { width: number };
        }
        return {
          page: d.documentElement.scrollWidth - innerWidth,
          charts: [...d.querySelectorAll('.chart-svg svg')].map((e) => e.getBoundingClientRect().width),
        };
      });
      expect(narrow.page).toBeLessThanOrEqual(0);
      for (const w of narrow.charts) expect(w).toBeGreaterThanOrEqual(480);
      if (keep) await page.screenshot({ path: join(keep, 'html-narrow.png'), fullPage: true });
      // printed: the period, the time and the page number in the margin of every page, over no line of the report
      const printed = join(dir, 'printed.pdf');
      await page.pdf({ path: printed, preferCSSPageSize: true, printBackground: true });
      requirePrograms(ctx, 'pdftotext');
      const { words } = pdfWords(printed);
      const count = Math.max(...words.map((w) => w.page)) + 1;
      expect(count).toBeGreaterThan(2);
      const text = (p: number) => words.filter((w) => w.page === p).map((w) => w.text);
      for (let p = 0; p < count; p++) {
        const page = text(p).join(' ');
        expect(page, `printed page ${p + 1}`).toContain(
          'Zeitraum: 01.01.2026 – 31.03.2026 · Erstellt: 20.03.2026, 13:00 MEZ',
        );
        expect(page, `printed page ${p + 1}`).toContain(`Seite ${p + 1} von ${count}`);
      }
      expect(overlapping(words)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('says under what needs attention that no legal documents exist and a privacy policy is required: PDF, HTML, Word', async (ctx) => {
    requirePrograms(ctx, 'pdftotext');
    // a tenant with an assessment and nothing else
    const b = await createLocalBackend(db);
    await b.dsfa.create({ tenant: 'kahl', actor: 'officer', body: { title: 'Kamera' } });
    await b.close();
    const report = (args: string[]) =>
      cli(['--db', db, '--tenant', 'kahl', 'report', 'management', ...period, ...args], { clock: { now: () => at } });
    const flat = (text: string) => text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    /** The part of a report's text from the heading of what needs attention to the next heading. */
    const attention = (text: string, from: string, to: string) => {
      const start = text.indexOf(from);
      expect(start, from).toBeGreaterThan(0);
      return text.slice(start, text.indexOf(to, start));
    };
    for (const [lang, says, from, to] of [
      [
        'de',
        'Es sind keine Rechtstexte angelegt; eine Datenschutzerklärung ist Pflicht.',
        'Was Aufmerksamkeit braucht',
        'Schwellenwerte dieses Berichts',
      ],
      [
        'en',
        'No legal documents exist; a privacy policy is required.',
        'What needs attention',
        'Thresholds of this report',
      ],
    ]) {
      const dir = tmp();
      expect((await report(['--lang', lang, '-o', join(dir, 'r.pdf')])).code).toBe(0);
      const pdf = flat(execFileSync('pdftotext', [join(dir, 'r.pdf'), '-']).toString());
      expect(attention(pdf, from, to), `PDF ${lang}`).toContain(says);
      const html = flat((await report(['--lang', lang, '--format', 'html'])).stdout);
      expect(attention(html, from, to), `HTML ${lang}`).toContain(says);
      expect((await report(['--lang', lang, '-o', join(dir, 'r.docx')])).code).toBe(0);
      const docx = flat(
        readDocx(join(dir, 'r.docx'))
          .body.map((p) => p.text)
          .join(' '),
      );
      expect(attention(docx, from, to), `Word ${lang}`).toContain(says);
    }
  });

  it('prints the JSON with --json, the HTML on stdout otherwise; -o report.json writes the JSON', async () => {
    const json = await run(['--json', 'report', 'management', ...period]);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.period).toEqual({ from: '2026-01-01', to: '2026-03-31', months: ['2026-01', '2026-02', '2026-03'] });
    expect(report.tenant_id).toBe('acme');
    const html = await run(['report', 'management', ...period, '--lang', 'en']);
    expect(html.stdout).toMatch(/^<!DOCTYPE html>/);
    for (const svg of html.stdout.match(/<svg[\s\S]*?<\/svg>/g)!) expect(parseXml(svg).name).toBe('svg');
    const out = join(tmp(), 'r.json');
    expect((await run(['report', 'management', ...period, '-o', out])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(report);
  });

  it('takes thresholds from a JSON file and from --threshold, the flag over the file', async () => {
    const file = join(tmp(), 'thresholds.json');
    writeFileSync(file, JSON.stringify({ min_completion_rate: 10, max_overdue: 500 }));
    const r = await run([
      '--json',
      'report',
      'management',
      ...period,
      '--thresholds',
      file,
      '--threshold',
      'max_overdue=1',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.thresholds).toMatchObject({ min_completion_rate: 10, max_overdue: 1, min_quiz_score: 70 });
  });

  it.each([
    [['--format', 'pdf'], /a PDF report needs -o FILE/],
    [['--format', 'odt'], /Allowed choices are html, pdf, docx, json/],
    [['--lang', 'fr'], /Allowed choices are de, en/],
    [['--time-zone', 'Mars/Olympus'], /--time-zone "Mars\/Olympus": unknown time zone/],
    [['--format', 'html', '-o', 'x.pdf'], /--format html contradicts -o x\.pdf/],
    [['-o', 'x.md'], /-o x\.md names a Markdown file, but report management writes html \(\.html, \.htm\), pdf/],
    [['--from', '2026-02-30'], /--from: no such day in the calendar/],
    [['--from', '2026-13-01'], /--from: no such day in the calendar/],
    [['--to', '31.03.2026'], /--to: expected a day such as 2026-09-30/],
    [['--from', '2026-04-01', '--to', '2026-03-01'], /the period starts after it ends/],
    [
      ['--threshold', 'min_rate=5'],
      /--threshold min_rate=5: unknown threshold "min_rate"; allowed: min_completion_rate, max_overdue/,
    ],
    [['--threshold', 'max_overdue'], /expected NAME=VALUE/],
    [['--threshold', 'min_completion_rate=120'], /--threshold min_completion_rate: must be at most 100, got 120/],
    [['--threshold', 'max_overdue=abc'], /--threshold max_overdue: expected number, got "abc"/],
  ])('refuses %j with exit 2 and one line naming the flag', async (flags, message) => {
    const r = await run(['report', 'management', ...flags]);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('refuses a thresholds file with an unknown name or that is not an object', async () => {
    const file = join(tmp(), 't.json');
    writeFileSync(file, JSON.stringify({ min_completion: 10 }));
    let r = await run(['report', 'management', '--thresholds', file]);
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/unknown threshold "min_completion"; allowed: min_completion_rate/),
    ]);
    writeFileSync(file, '[1]');
    r = await run(['report', 'management', '--thresholds', file]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/expected a JSON object/)]);
  });

  it('reads without creating a store: a missing --db is exit 1 and leaves no file', async () => {
    const missing = join(tmp(), 'typo.db');
    const r = await cli(['--db', missing, 'report', 'management', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no store at/);
  });
});
