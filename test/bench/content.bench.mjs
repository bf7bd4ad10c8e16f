// Redaction of 1 MB of text (target < 200 ms) and speech for a 2,000-word module (target < 30 s), both with the
// real code: the redaction through `compliance redact`, the speech through `training content generate-audio`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN, row, tmp } from './lib.mjs';

const dir = tmp();
const chunk =
  'Bitte melden Sie sich bei Erika Mustermann (erika.mustermann@example.com, Tel. +49 30 1234567). Die Erstattung geht auf DE89 3704 0044 0532 0130 00; Zugriff kam von 192.168.1.20. Lieferung an Musterweg 5, 80331 München. Danach folgt gewöhnlicher Text über Datenschutz im Büro und sichere Passwörter. ';
const text = join(dir, 'one-mb.txt');
writeFileSync(text, chunk.repeat(Math.ceil(1_000_000 / chunk.length)));
const times = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'redact', text, '--names', 'Erika Mustermann'], { maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(String(r.stderr));
  times.push(performance.now() - t);
}
const t0 = performance.now();
spawnSync(process.execPath, ['-e', '0']);
const nodeMs = performance.now() - t0;
times.sort((a, b) => a - b);
row(
  'compliance redact, 1 MB (whole process, median of 5)',
  `${times[2].toFixed(0)} ms`,
  `≈ ${(times[2] - nodeMs).toFixed(0)} ms beyond node start (target < 200 ms)`,
);

const db = join(dir, 'speech.db');
spawnSync(
  process.execPath,
  [
    BIN,
    '--db',
    db,
    'training',
    'modules',
    'create',
    '--code',
    'LONG',
    '--title',
    'Langes Modul',
    '--area',
    'dsgvo',
    '--frequency',
    'annual',
  ],
  { stdio: 'ignore' },
);
const words =
  'Personenbezogene Daten verarbeiten wir nur zweckgebunden, sparsam und sicher, und wir löschen sie, sobald der Zweck entfällt.'.split(
    ' ',
  );
const body = Array.from({ length: 2000 }, (_, i) => words[i % words.length]).join(' ');
const sqlite = new Database(db);
const moduleId = sqlite.prepare("select id from training_module where module_code = 'LONG'").pluck().get();
sqlite
  .prepare(
    "insert into training_content values ('c', 'default', ?, 1, 'de', ?, 'published', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
  )
  .run(moduleId, `# Langes Modul\n\n## Inhalt\n${body}`);
sqlite.close();
const t = performance.now();
const r = spawnSync(process.execPath, [BIN, '--db', db, 'training', 'content', 'generate-audio', 'LONG', '--json'], {
  encoding: 'utf8',
});
if (r.status !== 0) throw new Error(r.stderr);
const media = JSON.parse(r.stdout);
row(
  'generate-audio, 2,000 words (espeak-ng + ffmpeg AAC)',
  `${((performance.now() - t) / 1000).toFixed(1)} s`,
  `${media.duration_seconds} s of speech, ${(media.size_bytes / 1e6).toFixed(1)} MB (target < 30 s)`,
);
