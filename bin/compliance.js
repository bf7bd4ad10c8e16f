#!/usr/bin/env node
'use strict';
// Entry point, CommonJS (bin/package.json: Node starts it without its ES module loader): the only place that sets the
// exit code. `--version` alone is answered without loading the program.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

/** A file of the built program; a checkout that was never built (no dist/) says so in one line. */
function built(name) {
  const file = join(__dirname, '..', 'dist', name);
  if (!existsSync(file)) {
    process.stderr.write(
      `error: the program is not built (${file} is missing): run "npm ci" or "npm run build" in ${join(__dirname, '..')}\n`,
    );
    process.exit(1);
  }
  return require(file);
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = built('version.cjs');
  // main() reports a stdout that cannot be written; so does this shortcut past it
  process.stdout.on('error', (e) => {
    process.stderr.write(
      `error: cannot write to stdout: ${e.code === 'ENOSPC' ? 'no space left on the device' : e.message}\n`,
    );
    process.exitCode = 1;
  });
  process.stdout.write(`${VERSION}\n`);
} else {
  // the program, compiled from its code cache (src/loader.ts); the cache is written after a command where it was missing
  const { program, keepCache } = built('compliance.cjs');
  void program.main(process.argv).then((code) => {
    process.exitCode = code;
    keepCache();
  });
}
