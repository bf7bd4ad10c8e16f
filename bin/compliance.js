#!/usr/bin/env node
'use strict';
// Entry point, CommonJS (bin/package.json: Node starts it without its ES module loader): the only place that sets the
// exit code. `--version` alone is answered without loading the program.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = require('../dist/version.cjs');
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
  const { program, keepCache } = require('../dist/compliance.cjs');
  void program.main(process.argv).then((code) => {
    process.exitCode = code;
    keepCache();
  });
}
