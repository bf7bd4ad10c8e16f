import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../src/store/keyed-mutex.js';

const later = <T>(ms: number, value: T, fail = false) =>
  new Promise<T>((resolve, reject) => setTimeout(() => (fail ? reject(value) : resolve(value)), ms));

describe('KeyedMutex', () => {
  it('runs work of one key one at a time in arrival order, and other keys alongside', async () => {
    const m = new KeyedMutex();
    const order: string[] = [];
    const job = (name: string, ms: number) => async () => {
      order.push(`start ${name}`);
      await later(ms, undefined);
      order.push(`end ${name}`);
      return name;
    };
    const all = await Promise.all([m.run('a', job('a1', 30)), m.run('a', job('a2', 1)), m.run('b', job('b1', 1))]);
    expect(all).toEqual(['a1', 'a2', 'b1']);
    expect(order.indexOf('end a1')).toBeLessThan(order.indexOf('start a2'));
    expect(order.indexOf('end b1')).toBeLessThan(order.indexOf('end a1'));
  });

  it('fails the work queued behind a failure it is told to pass on, without running it; other failures do not', async () => {
    const m = new KeyedMutex();
    const noAnswer = new Error('no answer');
    const notTried = new Error('not tried');
    // the work before may itself have failed with the error passed on
    const passOn = (e: unknown) => (e === noAnswer || e === notTried ? notTried : undefined);
    let ran = 0;
    const queued = () => m.run('t', async () => ++ran, passOn);
    const first = m.run('t', () => later(20, noAnswer, true), passOn);
    const waiting = [queued(), queued()];
    await expect(first).rejects.toBe(noAnswer);
    for (const w of waiting) await expect(w).rejects.toThrow('not tried');
    expect(ran).toBe(0);
    // work queued after the failure was known runs as usual; so does work behind a failure not passed on
    expect(await queued()).toBe(1);
    const refused = m.run('t', () => later(5, new Error('refused by a rule'), true), passOn);
    const after = queued();
    await expect(refused).rejects.toThrow('refused by a rule');
    expect(await after).toBe(2);
  });
});
