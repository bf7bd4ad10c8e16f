import { describe, expect, it } from 'vitest';
import { cli, tmpDb } from '../support/helpers.js';
import { hasScript, onTerminal, runOnTerminal } from '../support/terminal.js';

describe.skipIf(!hasScript)('on a terminal', () => {
  it('dsfa create asks for the fields', async () => {
    const db = tmpDb();
    const down = '\u001b[B';
    const out = await onTerminal(`--db ${db} dsfa create`, [
      ['Title', 'Löschkonzept HR\r'],
      ['Processing activity', 'Personalakte\r'],
      ['Description', 'Aufbewahrung\r'],
      ['Risk level', `${down}\r`],
      ['Data category 1', 'Bewerbungsunterlagen (Lebenslauf, Zeugnisse)\r'],
      ['Data category 2', 'Gesundheit\r'],
      ['Data category 3', '\r'],
      ['Recipient 1', 'Steuerberater\r'],
      ['Recipient 2', '\r'],
      ['Measure 1', 'Verschlüsselung\r'],
      ['Measure 2', '\r'],
    ]);
    expect(out).toContain('Title');
    const [d] = JSON.parse((await cli(['--db', db, 'dsfa', 'list', '--json'])).stdout);
    expect(d).toMatchObject({
      title: 'Löschkonzept HR',
      processing_activity: 'Personalakte',
      description: 'Aufbewahrung',
      risk_level: 'high',
      data_categories: ['Bewerbungsunterlagen (Lebenslauf, Zeugnisse)', 'Gesundheit'],
      recipients: ['Steuerberater'],
      measures: ['Verschlüsselung'],
    });
  });

  it('dsfa screen --create asks for the title of the new DSFA', async () => {
    const db = tmpDb();
    await onTerminal(`--db ${db} dsfa screen --create`, [
      ['Pflichtfälle', '\r'],
      ['WP248-Kriterien', ' \r'],
      ['Titel der neuen DSFA', 'Kameraüberwachung Halle 3\r'],
    ]);
    const [d] = JSON.parse((await cli(['--db', db, 'dsfa', 'list', '--json'])).stdout);
    expect(d).toMatchObject({ title: 'Kameraüberwachung Halle 3', status: 'draft' });
  });

  it('Ctrl-C in a prompt exits quietly with 130', async () => {
    const db = tmpDb();
    const { out, code } = await runOnTerminal(`--db ${db} dsfa create`, [['Title', '\u0003']]);
    expect(code).toBe(130);
    expect(out).not.toMatch(/error|ExitPromptError|at /);
  });

  it('dsfa screen asks for the mandatory cases and the criteria', async () => {
    const db = tmpDb();
    // first list: tick the fourth case (high-risk AI); second list: tick the first criterion
    const down = '\u001b[B';
    const out = await onTerminal(`--db ${db} dsfa screen --lang en`, [
      ['mandatory cases', `${down}${down}${down} \r`],
      ['WP248 criteria', ' \r'],
    ]);
    expect(out).toMatch(/DSFA required: yes/);
    expect(out).toMatch(/High-risk AI system/);
  });
});
