import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli, tmpDb } from '../support/helpers.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs the binary on a pseudo-terminal (util-linux `script`); for each step waits until the prompt text appears,
 * then types the keys.
 */
async function onTerminal(args: string, steps: Array<[string, string]>): Promise<string> {
  const p = spawn('script', ['-qec', `${process.execPath} bin/compliance.js ${args}`, '/dev/null'], { env: { ...process.env, COLUMNS: '120', NO_COLOR: '1' } });
  let out = '';
  p.stdout.on('data', (c) => (out += c));
  const exited = new Promise((r) => p.on('exit', r));
  let from = 0;
  for (const [prompt, keys] of steps) {
    for (let waited = 0; !out.includes(prompt, from); waited += 50) {
      if (waited > 15_000) throw new Error(`prompt "${prompt}" did not appear: ${out}`);
      await sleep(50);
    }
    from = out.indexOf(prompt, from) + prompt.length;
    await sleep(100);
    for (const ch of keys.match(/\u001b\[.|./gsu) ?? []) {
      p.stdin.write(ch);
      await sleep(20);
    }
  }
  await Promise.race([exited, sleep(10_000)]);
  p.kill();
  return out;
}

describe.skipIf(!hasScript)('on a terminal', () => {
  it('dsfa create asks for the fields', async () => {
    const db = tmpDb();
    const down = '\u001b[B';
    const out = await onTerminal(`--db ${db} dsfa create`, [
      ['Title', 'Löschkonzept HR\r'], ['Processing activity', 'Personalakte\r'], ['Description', 'Aufbewahrung\r'],
      ['Risk level', `${down}\r`], ['Data categories', 'Stammdaten, Gesundheit\r'], ['Recipients', 'Steuerberater\r'],
      ['Measures', 'Verschlüsselung\r'],
    ]);
    expect(out).toContain('Title');
    const [d] = JSON.parse((await cli(['--db', db, 'dsfa', 'list', '--json'])).stdout);
    expect(d).toMatchObject({
      title: 'Löschkonzept HR', processing_activity: 'Personalakte', description: 'Aufbewahrung', risk_level: 'high',
      data_categories: ['Stammdaten', 'Gesundheit'], recipients: ['Steuerberater'], measures: ['Verschlüsselung'],
    });
  });

  it('dsfa screen asks for the mandatory cases and the criteria', async () => {
    const db = tmpDb();
    // first list: tick the fourth case (high-risk AI); second list: tick the first criterion
    const down = '\u001b[B';
    const out = await onTerminal(`--db ${db} dsfa screen`, [['mandatory cases', `${down}${down}${down} \r`], ['WP248 criteria', ' \r']]);
    expect(out).toMatch(/DSFA required: yes/);
    expect(out).toMatch(/High-risk AI system/);
  });
});
