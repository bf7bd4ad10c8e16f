// Runs one command line of the built program (dist/program.cjs) and prints, as JSON on stdout, the modules it ran:
// those the file runs as it loads, and those esbuild wraps in an initialiser (`__esm`, `__commonJS`) that ran by the
// end; and the packages it required. The command's own output is dropped. Usage: node evaluated-modules.mjs ARG...
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

const DIST = join(import.meta.dirname, '../../dist');

const PROGRAM = join(DIST, 'program.cjs');
const source = readFileSync(PROGRAM, 'latin1');
const HELPERS = [
  ['var __esm = (fn, res) => function __init() {\n', '__evaluated.add(__getOwnPropNames(fn || {})[0]);\n'],
  ['var __commonJS = (cb, mod) => function __require() {\n', '__evaluated.add(__getOwnPropNames(cb)[0]);\n'],
];
let counted = source;
for (const [helper, count] of HELPERS) {
  // a build whose helpers read otherwise would count nothing: the run stops instead
  if (!counted.includes(helper)) throw new Error(`dist/program.cjs has no ${JSON.stringify(helper)}`);
  counted = counted.replace(helper, helper + count);
}
globalThis.__evaluated = new Set();
const required = new Set();
const real = createRequire(PROGRAM);
const tracked = Object.assign((id) => (required.add(id), real(id)), real);
const program = { exports: {} };
new Function('exports', 'require', 'module', '__filename', '__dirname', counted)(
  program.exports,
  tracked,
  program,
  PROGRAM,
  DIST,
);

// every module of the file by esbuild's path comments; those inside an initialiser run only when it is called
const marked = new Set([...source.matchAll(/^\/\/ ((?:src|node_modules|migrations)\/\S+)$/gm)].map((m) => m[1]));
const wrapped = new Set([...source.matchAll(/__(?:esm|commonJS)\(\{\n\s+"([^"]+)"\(/g)].map((m) => m[1]));
const silent = () => Object.assign(new PassThrough(), { isTTY: false }).resume();
const io = { stdin: silent(), stdout: silent(), stderr: silent(), stdinIsTTY: false, stdoutIsTTY: false };
program.exports
  .main(['node', 'compliance', ...process.argv.slice(2)], { io: { ...io, stderrIsTTY: false, color: false } })
  .then((code) => {
    const ran = [...marked].filter((m) => !wrapped.has(m) || globalThis.__evaluated.has(m));
    process.stdout.write(JSON.stringify({ code, ran, required: [...required] }) + '\n');
  });
