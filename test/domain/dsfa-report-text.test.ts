import { describe, expect, it } from 'vitest';
import { reportText } from '../../src/domain/dsfa/dsfa.report-text.js';
import { REPORT_LANGUAGES } from '../../src/domain/report-locale.js';

// The dictionary of the DSFA report: every heading, label and phrase in each language. The report tests check the
// words where they appear; these hold the dictionary itself, so that no language loses an entry or prints a blank
// heading where another language says something.

/** Every text of the dictionary with its path (`section.risks`, `page.1`). */
function leaves(value: unknown, path = ''): [string, unknown][] {
  if (value === null || typeof value !== 'object') return [[path, value]];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, path ? `${path}.${key}` : key));
}

describe('the words of the DSFA report', () => {
  const de = leaves(reportText('de'));
  const en = leaves(reportText('en'));

  it('has the same entries in German and English', () => {
    expect(en.map(([path]) => path)).toEqual(de.map(([path]) => path));
    // not an accident of an empty dictionary: every part of the report has its words
    expect(de.length).toBeGreaterThan(130);
  });

  it.each(REPORT_LANGUAGES)('says something with every entry in %s', (lang) => {
    const blank = leaves(reportText(lang)).filter(([, text]) => typeof text !== 'string' || text.trim() === '');
    expect(blank).toEqual([]);
  });

  it('is written in each language, not copied from the other', () => {
    const english = new Map(en);
    // words the two languages share
    const same = new Set(['Status', 'Nr.', 'Chatbot / NLP']);
    const copied = de.filter(([path, text]) => text === english.get(path) && !same.has(text as string));
    expect(copied.map(([path]) => path)).toEqual([]);
  });
});
