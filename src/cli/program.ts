import { Command, Option, type OutputConfiguration } from 'commander';
import { VERSION } from '../version.js';
import { createConsentsCommand } from './commands/consents.js';
import { createCookieBannerCommand } from './commands/cookie-banner.js';
import { createDbCommand } from './commands/db.js';
import { createEventsCommand } from './commands/events.js';
import { createWebhooksCommand } from './commands/webhooks.js';
import { createNotificationsCommand } from './commands/notifications.js';
import { createAuditCommand } from './commands/audit.js';
import { createJournalCommand } from './commands/journal.js';
import { createLegalDocsCommand } from './commands/legal-docs.js';
import { createDsfaCommand } from './commands/dsfa.js';
import { createKeysCommand } from './commands/keys.js';
import { createRedactCommand } from './commands/redact.js';
import { createReportCommand } from './commands/report/index.js';
import { createServeCommand } from './commands/serve.js';
import { createSyncCommand } from './commands/sync.js';
import { createExportCommand, createImportCommand } from './commands/bundle.js';
import { createTrainingCommand } from './commands/training/index.js';
import type { CliContext } from './context.js';
import { storeAccess } from './store-access.js';

/**
 * Help goes where commander puts it; its usage errors are not printed here but thrown, and main() prints them like
 * every other error (the JSON error body with --json, a hint to --help without).
 */
const output = (ctx: CliContext): OutputConfiguration => ({
  writeOut: (s) => ctx.io.stdout.write(s),
  writeErr: (s) => ctx.io.stderr.write(s),
  outputError: () => undefined,
});

/** The whole command tree. Commands load their heavy modules only when they run. */
export function createProgram(ctx: CliContext): Command {
  const program = new Command('compliance')
    .description(
      'Privacy and compliance back office: impact assessments, consents, legal documents, cookie banner, training',
    )
    .version(VERSION, '-V, --version')
    .option(
      '--db <file|url>',
      'SQLite file or postgres:// URL (env COMPLIANCE_DB; default $XDG_DATA_HOME/compliance/compliance.db)',
    )
    .option('--remote <url>', 'run against a /sdk/v1 server instead of the local store (env COMPLIANCE_REMOTE)')
    .addOption(new Option('--api-key <key>', 'API key for --remote (env COMPLIANCE_API_KEY)'))
    .option('--tenant <id>', 'tenant (env COMPLIANCE_TENANT; default "default")')
    .option('--user <name>', 'actor recorded in audit entries (env COMPLIANCE_USER; default: the OS user)')
    .option('--json', 'print the wire shape as JSON')
    .configureOutput(output(ctx))
    .exitOverride();

  program.hook('preAction', async (_root, action) => {
    ctx.command = action;
    await ctx.configure(action.optsWithGlobals(), storeAccess(action));
  });

  for (const make of [
    createDsfaCommand,
    createConsentsCommand,
    createLegalDocsCommand,
    createCookieBannerCommand,
    createTrainingCommand,
    createReportCommand,
    createRedactCommand,
    createJournalCommand,
    createAuditCommand,
    createDbCommand,
    createKeysCommand,
    createServeCommand,
    createWebhooksCommand,
    createEventsCommand,
    createNotificationsCommand,
    createSyncCommand,
    createExportCommand,
    createImportCommand,
  ]) {
    const cmd = make(ctx);
    program.addCommand(cmd);
  }
  // subcommands inherit the error handling of the root, so usage errors never exit on their own
  const inherit = (c: Command) => {
    c.exitOverride();
    c.configureOutput(output(ctx));
    c.commands.forEach(inherit);
  };
  program.commands.forEach(inherit);
  return program;
}
