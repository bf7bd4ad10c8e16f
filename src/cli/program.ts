import { Command, Option, type OutputConfiguration } from 'commander';
import { VERSION } from '../version.js';
import type { CliContext } from './context.js';
import { storeAccess, tenantUse } from './store-access.js';

/**
 * Help goes where commander puts it; its usage errors are not printed here but thrown, and main() prints them like
 * every other error (the JSON error body with --json, a hint to --help without).
 */
const output = (ctx: CliContext): OutputConfiguration => ({
  writeOut: (s) => ctx.io.stdout.write(s),
  writeErr: (s) => ctx.io.stderr.write(s),
  outputError: () => undefined,
});

type MakeCommand = (ctx: CliContext) => Command;

/**
 * The top-level commands in the order help lists them, by name: a command line loads the module of the command it
 * runs only (help, and a name not listed here, load them all).
 */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<MakeCommand>]> = [
  ['dsfa', async () => (await import('./commands/dsfa/index.js')).createDsfaCommand],
  ['consents', async () => (await import('./commands/consents/index.js')).createConsentsCommand],
  ['legal-docs', async () => (await import('./commands/legal-docs/index.js')).createLegalDocsCommand],
  ['cookie-banner', async () => (await import('./commands/cookie-banner/index.js')).createCookieBannerCommand],
  ['training', async () => (await import('./commands/training/index.js')).createTrainingCommand],
  ['report', async () => (await import('./commands/report/index.js')).createReportCommand],
  ['redact', async () => (await import('./commands/redact.js')).createRedactCommand],
  ['journal', async () => (await import('./commands/journal.js')).createJournalCommand],
  ['audit', async () => (await import('./commands/audit/index.js')).createAuditCommand],
  ['db', async () => (await import('./commands/db/index.js')).createDbCommand],
  ['media', async () => (await import('./commands/media/index.js')).createMediaCommand],
  ['keys', async () => (await import('./commands/keys/index.js')).createKeysCommand],
  ['serve', async () => (await import('./commands/serve.js')).createServeCommand],
  ['webhooks', async () => (await import('./commands/webhooks/index.js')).createWebhooksCommand],
  ['events', async () => (await import('./commands/events/index.js')).createEventsCommand],
  ['notifications', async () => (await import('./commands/notifications/index.js')).createNotificationsCommand],
  ['sync', async () => (await import('./commands/sync/index.js')).createSyncCommand],
  ['export', async () => (await import('./commands/export.js')).createExportCommand],
  ['import', async () => (await import('./commands/import.js')).createImportCommand],
  ['tenants', async () => (await import('./commands/tenants.js')).createTenantsCommand],
];

/**
 * The command a command line runs: its first word that is neither an option of the root nor the value of one.
 * Undefined when help is asked for, or when the line has an option the root does not know (whose value cannot be
 * told from a command's name).
 */
export function commandOf(root: Command, args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-h' || arg === '--help') return undefined;
    if (!arg.startsWith('-') || arg === '-') return arg;
    const flag = arg.split('=')[0];
    const option = root.options.find((o) => o.long === flag || o.short === flag);
    if (!option) return undefined;
    if ((option.required || option.optional) && !arg.includes('=')) i++;
  }
  return undefined;
}

/**
 * The command tree. Given the command line, only the command it runs is built (and its module loaded); without one,
 * or for help, the whole tree. Commands load their heavy modules only when they run.
 */
export async function createProgram(ctx: CliContext, argv?: string[]): Promise<Command> {
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
    .option(
      '--media <url>',
      'keep media in an S3-compatible object store: s3://BUCKET[/PREFIX]?endpoint=URL&region=R&path_style=true (env COMPLIANCE_MEDIA_URL)',
    )
    .configureOutput(output(ctx))
    .exitOverride();

  program.hook('preAction', async (_root, action) => {
    ctx.command = action;
    await ctx.configure(action.optsWithGlobals(), storeAccess(action), tenantUse(action));
  });

  const name = argv && commandOf(program, argv.slice(2));
  const listed = COMMANDS.filter(([n]) => n === name);
  const chosen = listed.length ? listed : COMMANDS;
  for (const make of await Promise.all(chosen.map(([, load]) => load()))) program.addCommand(make(ctx));
  // subcommands inherit the error handling of the root, so usage errors never exit on their own
  const inherit = (c: Command) => {
    c.exitOverride();
    c.configureOutput(output(ctx));
    c.commands.forEach(inherit);
  };
  program.commands.forEach(inherit);
  return program;
}
