// Scores the real redaction against the labelled corpus in fixtures/pii/corpus.jsonl: recall and precision per kind.
// Used by test/domain/redaction-corpus.test.ts (which holds the figures) and test/bench/redaction-corpus.bench.mjs.
import { readFileSync } from 'node:fs';
import { PII_KINDS, redact, type PiiKind } from '../../src/domain/training/redaction.js';

/** One labelled value in a sample: offsets are UTF-16 indexes into `text`, end exclusive. */
export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
  value: string;
}

/** One corpus line: a text, the people the store knows, and the values that must disappear (none for look-alikes). */
export interface PiiSample {
  id: string;
  lang: 'de' | 'en';
  text: string;
  names?: string[];
  lookalike?: string;
  spans: PiiSpan[];
}

/** Counts for one kind; recall and precision are 1 when nothing was expected or found. */
export interface KindScore {
  kind: PiiKind;
  expected: number;
  found: number;
  detected: number;
  correct: number;
  recall: number;
  precision: number;
}

/** The figures of one run, plus every miss and every false alarm so a failing test can name them. */
export interface CorpusScore {
  samples: number;
  lookalikes: number;
  kinds: KindScore[];
  overall: { recall: number; precision: number };
  misses: Array<{ id: string; kind: PiiKind; value: string; redacted: string }>;
  falseAlarms: Array<{ id: string; kind: PiiKind; value: string; redacted: string }>;
}

export const CORPUS = new URL('../../fixtures/pii/corpus.jsonl', import.meta.url);

export function loadCorpus(file: URL | string = CORPUS): PiiSample[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as PiiSample);
}

const PLACEHOLDER_RE = /\[(EMAIL|PHONE|IBAN|CARD|IP|BIRTHDATE|ADDRESS|PERSON)_\d+\]/g;
const KIND_OF: Record<string, PiiKind> = {
  EMAIL: 'email',
  PHONE: 'phone',
  IBAN: 'iban',
  CARD: 'card',
  IP: 'ip',
  BIRTHDATE: 'birthdate',
  ADDRESS: 'address',
  PERSON: 'person',
};

/**
 * Where in the original text each placeholder of the redacted text stands. The redacted text is the original with
 * some stretches replaced: the literal pieces between placeholders appear in the original in order, so each
 * placeholder covers what lies between them (its mapped value tells the length when the same value recurs).
 */
export function detectedSpans(original: string, redacted: string, mapping: Map<string, string>): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const pieces: Array<{ literal: string; placeholder?: string }> = [];
  let last = 0;
  for (const m of redacted.matchAll(PLACEHOLDER_RE)) {
    pieces.push({ literal: redacted.slice(last, m.index), placeholder: m[0] });
    last = m.index + m[0].length;
  }
  pieces.push({ literal: redacted.slice(last) });
  let pos = 0;
  for (let i = 0; i < pieces.length; i++) {
    const { literal, placeholder } = pieces[i]!;
    if (!original.startsWith(literal, pos)) throw new Error(`redacted text does not follow the original at ${pos}`);
    pos += literal.length;
    if (!placeholder) break;
    const value = mapping.get(placeholder) ?? '';
    let end: number;
    if (original.slice(pos, pos + value.length).toLowerCase() === value.toLowerCase()) end = pos + value.length;
    else {
      const next = pieces[i + 1]!.literal;
      end = next ? original.indexOf(next, pos + 1) : original.length;
      if (end < 0) throw new Error(`cannot place ${placeholder} in the original`);
    }
    spans.push({
      kind: KIND_OF[placeholder.slice(1).replace(/_\d+\]$/, '')]!,
      start: pos,
      end,
      value: original.slice(pos, end),
    });
    pos = end;
  }
  return spans;
}

const overlaps = (a: PiiSpan, b: PiiSpan) => a.start < b.end && b.start < a.end;
const ratio = (n: number, d: number) => (d === 0 ? 1 : n / d);

/**
 * An expected value counts as found when detections of its kind cover every character of it (a placeholder that
 * also takes "geboren am" is fine; one that leaves digits behind is a miss). A detection is correct when it overlaps
 * an expected value of its kind; anything else, including every detection in a look-alike, is a false alarm.
 */
export function scoreCorpus(samples: PiiSample[] = loadCorpus()): CorpusScore {
  const counts = new Map<PiiKind, { expected: number; found: number; detected: number; correct: number }>(
    PII_KINDS.map((k) => [k, { expected: 0, found: 0, detected: 0, correct: 0 }]),
  );
  const misses: CorpusScore['misses'] = [];
  const falseAlarms: CorpusScore['falseAlarms'] = [];
  for (const s of samples) {
    const r = redact(s.text, s.names ?? []);
    let found: PiiSpan[];
    try {
      found = detectedSpans(s.text, r.text, r.mapping);
    } catch (e) {
      throw new Error(`${s.id}: ${(e as Error).message}: ${r.text}`, { cause: e });
    }
    for (const e of s.spans) {
      const c = counts.get(e.kind)!;
      c.expected++;
      const covering = found.filter((d) => d.kind === e.kind && overlaps(d, e));
      let covered = true;
      for (let i = e.start; i < e.end && covered; i++) covered = covering.some((d) => d.start <= i && i < d.end);
      if (covered) c.found++;
      else misses.push({ id: s.id, kind: e.kind, value: e.value, redacted: r.text });
    }
    for (const d of found) {
      const c = counts.get(d.kind)!;
      c.detected++;
      if (s.spans.some((e) => e.kind === d.kind && overlaps(d, e))) c.correct++;
      else falseAlarms.push({ id: s.id, kind: d.kind, value: d.value, redacted: r.text });
    }
  }
  const kinds = [...counts].map(([kind, c]) => ({
    kind,
    ...c,
    recall: ratio(c.found, c.expected),
    precision: ratio(c.correct, c.detected),
  }));
  const sum = (f: (k: KindScore) => number) => kinds.reduce((a, k) => a + f(k), 0);
  return {
    samples: samples.length,
    lookalikes: samples.filter((s) => !s.spans.length).length,
    kinds,
    overall: {
      recall: ratio(
        sum((k) => k.found),
        sum((k) => k.expected),
      ),
      precision: ratio(
        sum((k) => k.correct),
        sum((k) => k.detected),
      ),
    },
    misses,
    falseAlarms,
  };
}

/** The figures as a table, one line per kind. */
export function formatScore(score: CorpusScore): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const lines = [
    `corpus: ${score.samples} samples, ${score.samples - score.lookalikes} with personal data, ${score.lookalikes} look-alikes`,
    `${'kind'.padEnd(10)} ${'expected'.padStart(8)} ${'found'.padStart(6)} ${'recall'.padStart(8)} ${'detected'.padStart(8)} ${'correct'.padStart(8)} ${'precision'.padStart(10)}`,
  ];
  for (const k of score.kinds)
    lines.push(
      `${k.kind.padEnd(10)} ${String(k.expected).padStart(8)} ${String(k.found).padStart(6)} ${pct(k.recall).padStart(8)} ${String(k.detected).padStart(8)} ${String(k.correct).padStart(8)} ${pct(k.precision).padStart(10)}`,
    );
  lines.push(
    `${'all'.padEnd(10)} ${''.padStart(8)} ${''.padStart(6)} ${pct(score.overall.recall).padStart(8)} ${''.padStart(8)} ${''.padStart(8)} ${pct(score.overall.precision).padStart(10)}`,
  );
  return lines.join('\n');
}
