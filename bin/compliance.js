#!/usr/bin/env node
// Entry point: the only place that sets the exit code. `--version` alone is answered without loading the CLI.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  // main() reports a stdout that cannot be written; so does this shortcut past it
  process.stdout.on('error', (e) => {
    process.stderr.write(
      `error: cannot write to stdout: ${e.code === 'ENOSPC' ? 'no space left on the device' : e.message}\n`,
    );
    process.exitCode = 1;
  });
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}
