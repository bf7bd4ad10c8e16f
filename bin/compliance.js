#!/usr/bin/env node
// Entry point: the only place that sets the exit code. `--version` alone is answered without loading the CLI.
const args = process.argv.slice(2);
// a reader that stops early (`| head`) is not an error
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(process.argv);
}
