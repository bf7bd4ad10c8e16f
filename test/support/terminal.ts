import { spawn, spawnSync } from 'node:child_process';

/** util-linux `script`, which gives the binary a pseudo-terminal (on every Debian machine). */
export const hasScript = spawnSync('script', ['--version']).status === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs the built binary on a pseudo-terminal; for each step waits until the prompt text appears, then types the
 * keys one by one (escape sequences such as arrow keys count as one). Answers everything the terminal showed.
 */
export async function onTerminal(args: string, steps: Array<[string, string]>): Promise<string> {
  return (await runOnTerminal(args, steps)).out;
}

/** Like onTerminal, and also gives the exit code (null when the program had to be killed). */
export async function runOnTerminal(
  args: string,
  steps: Array<[string, string]>,
): Promise<{ out: string; code: number | null }> {
  const p = spawn('script', ['-qec', `${process.execPath} bin/compliance.js ${args}`, '/dev/null'], {
    env: { ...process.env, COLUMNS: '120', NO_COLOR: '1' },
  });
  let out = '';
  p.stdout.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((r) => p.on('exit', (code) => r(code)));
  let from = 0;
  for (const [prompt, keys] of steps) {
    for (let waited = 0; !out.includes(prompt, from); waited += 50) {
      if (waited > 15_000) throw new Error(`prompt "${prompt}" did not appear: ${out}`);
      await sleep(50);
    }
    from = out.indexOf(prompt, from) + prompt.length;
    await sleep(100);
    // eslint-disable-next-line no-control-regex -- an escape sequence (arrow keys) is sent as one piece
    for (const ch of keys.match(/\u001b\[.|./gsu) ?? []) {
      p.stdin.write(ch);
      await sleep(20);
    }
  }
  const code = await Promise.race([exited, sleep(10_000).then(() => null)]);
  p.kill();
  return { out, code };
}
