import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tmp, tmpDb } from '../support/helpers.js';
import { hasScript, onTerminal } from '../support/terminal.js';

describe.skipIf(!hasScript)('training quiz take on a terminal', () => {
  it('asks each question, then shows the result and the explanations', async () => {
    const db = tmpDb();
    const run = (...a: string[]) => cli(['--db', db, ...a]);
    const body = join(tmp(), 'module.json');
    writeFileSync(
      body,
      JSON.stringify({
        questions: [
          {
            question: 'Meldefrist Datenpanne?',
            options: ['72 Stunden', '7 Tage'],
            correct_index: 0,
            explanation: 'Art. 33 DSGVO: 72 Stunden.',
          },
          {
            question: 'Wer prüft?',
            options: ['niemand', 'Pförtner', 'Datenschutzbeauftragte'],
            correct_index: 2,
            explanation: 'Art. 39 DSGVO.',
          },
        ],
      }),
    );
    expect(
      (
        await run(
          'training',
          'modules',
          'create',
          '--code',
          'TTY-1',
          '--title',
          'Quiz am Terminal',
          '--area',
          'dsgvo',
          '--frequency',
          'micro',
          '-f',
          body,
        )
      ).code,
    ).toBe(0);
    expect((await run('training', 'matrix', 'set', 'R9', 'TTY-1')).code).toBe(0);
    const [a] = JSON.parse(
      (
        await run(
          'training',
          'assignments',
          'compute',
          '--user-id',
          'q1',
          '--name',
          'Quentin',
          '--email',
          'q@example.com',
          '--roles',
          'R9',
          '--json',
        )
      ).stdout,
    ).assignments;
    const down = '\u001b[B';
    const out = await onTerminal(`--db ${db} training quiz take ${a.id}`, [
      ['Meldefrist Datenpanne?', '\r'],
      ['Wer prüft?', `${down}${down}\r`],
    ]);
    expect(out).toMatch(/Passed: 100% \(2 of 2 correct, 70% needed\)/);
    expect(out).toContain('Art. 33 DSGVO: 72 Stunden.');
    expect(out).toContain('answer: Datenschutzbeauftragte');
    const [attempt] = JSON.parse((await run('training', 'quiz', 'attempts', a.id, '--json')).stdout);
    expect(attempt).toMatchObject({ score: 100, passed: true, correct_count: 2, total_count: 2 });
    expect(JSON.parse((await run('training', 'assignments', 'show', a.id, '--json')).stdout).quiz_passed).toBe(true);
  });
});
