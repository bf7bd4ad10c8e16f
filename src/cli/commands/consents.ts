import { Command } from 'commander';
import type { ConsentHistoryEntry, ConsentWithHistory } from '../../domain/consents/consent.schema.js';
import type { CliContext } from '../context.js';
import { defined } from '../input.js';
import { note, printJson, printList, printRecord, type Column } from '../output.js';
import { flagFields } from '../flag-names.js';
import { usesTenant, writes } from '../store-access.js';
import { addImportCommand } from './consents-import.js';
import { addImportsCommands } from './consents-imports.js';
import { addReceiptCommand } from './consents-receipt.js';
import * as exportVerb from './consents-export.js';

const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });

const columns: Column<ConsentWithHistory>[] = [
  { header: 'ID', value: (c) => c.id, id: true },
  { header: 'USER', value: (c) => c.user_id },
  { header: 'DATA POINT', value: (c) => c.data_point_id },
  { header: 'GRANTED', value: (c) => (c.granted ? 'yes' : 'no') },
  { header: 'VERSION', value: (c) => c.consent_version },
  { header: 'GRANTED AT', value: (c) => c.granted_at },
  { header: 'REVOKED AT', value: (c) => c.revoked_at },
];
const historyColumns: Column<ConsentHistoryEntry>[] = [
  { header: 'WHEN', value: (h) => h.created_at },
  { header: 'ACTION', value: (h) => h.action },
  { header: 'VERSION', value: (h) => h.consent_version },
  { header: 'SOURCE', value: (h) => h.source },
  { header: 'IP', value: (h) => h.ip_address },
];

export function createConsentsCommand(ctx: CliContext): Command {
  const cmd = new Command('consents').description('consents per user and data point, with history');

  flagFields(cmd.command('list'), { data_point_id: '--data-point' })
    .description('list consents, newest first')
    .option('--user-id <id>', 'only this user')
    .option('--data-point <id>', 'only this data point')
    .option('--granted <bool>', 'true or false')
    .option('--limit <n>', '1 to 500 (default 50)')
    .option('--offset <n>', 'default 0')
    .action(async (o: { userId?: string; dataPoint?: string; granted?: string; limit?: string; offset?: string }) => {
      const r = await (
        await ctx.backend()
      ).consents.list({
        ...req(ctx),
        query: { user_id: o.userId, data_point_id: o.dataPoint, granted: o.granted, limit: o.limit, offset: o.offset },
      });
      if (ctx.config().json) return printJson(ctx, r);
      await printList(ctx, r.consents, columns, { empty: 'no consents' });
      if (ctx.io.stderrIsTTY) note(ctx, `${r.consents.length} of ${r.total} (offset ${r.offset})`);
    });

  flagFields(usesTenant(writes(cmd.command('grant')), 'starts'), {
    data_point_id: '--data-point',
    ip_address: '--ip',
    granted: '--refused',
  })
    .description(
      'record a decision (use --refused for a refusal): a refusal revokes the grant in force, the same decision again changes nothing',
    )
    .requiredOption('--user-id <id>', 'user id or e-mail')
    .requiredOption('--data-point <id>', 'data point id')
    .option('--refused', 'the user refused (granted=false)')
    .option('--consent-version <v>', 'version of the privacy statement (default 1.0)')
    .option('--source <s>', 'e.g. web_banner, api')
    .option('--ip <address>', 'IPv4 or IPv6')
    .option('--user-agent <ua>')
    .option('--granted-at <iso>', 'when it was given (default now)')
    .action(
      async (o: {
        userId: string;
        dataPoint: string;
        refused?: boolean;
        consentVersion?: string;
        source?: string;
        ip?: string;
        userAgent?: string;
        grantedAt?: string;
      }) => {
        const r = await (
          await ctx.backend()
        ).consents.create({
          ...req(ctx),
          body: defined({
            user_id: o.userId,
            data_point_id: o.dataPoint,
            granted: !o.refused,
            consent_version: o.consentVersion,
            source: o.source,
            ip_address: o.ip,
            user_agent: o.userAgent,
            granted_at: o.grantedAt,
          }),
        });
        await printRecord(ctx, r, [
          ['id', r.id],
          ['user_id', r.user_id],
          ['data_point_id', r.data_point_id],
          ['granted', r.granted],
          ['granted_at', r.granted_at],
          ['outcome', r.outcome],
          ['revoked', r.revoked_consent_ids.length ? r.revoked_consent_ids.join(', ') : null],
        ]);
      },
    );

  writes(cmd.command('revoke'))
    .description('revoke an active consent (irreversible)')
    .argument('<id>')
    .action(async (id: string) => {
      const r = await (await ctx.backend()).consents.revoke({ ...req(ctx), params: { id } });
      await printRecord(ctx, r, [
        ['id', r.id],
        ['revoked_at', r.revoked_at],
      ]);
    });

  writes(cmd.command('renew'))
    .description('renew an active consent; with --consent-version a new version is recorded')
    .argument('<id>')
    .option('--consent-version <v>')
    .action(async (id: string, o: { consentVersion?: string }) => {
      const r = await (
        await ctx.backend()
      ).consents.renew({ ...req(ctx), params: { id }, body: defined({ consent_version: o.consentVersion }) });
      await printRecord(ctx, r, [
        ['id', r.id],
        ['consent_version', r.consent_version],
        ['last action', r.history.at(-1)?.action],
      ]);
    });

  cmd
    .command('get')
    .description('one consent with its history (its id or a short id)')
    .argument('<id>')
    .action(async (id: string) => {
      const c = await (await ctx.backend()).consents.get({ ...req(ctx), params: { id } });
      await printRecord(ctx, c, [
        ['id', c.id],
        ['user_id', c.user_id],
        ['data_point_id', c.data_point_id],
        ['granted', c.granted],
        ['consent_version', c.consent_version],
        ['granted_at', c.granted_at],
        ['revoked_at', c.revoked_at],
        ['source', c.source],
        ['ip_address', c.ip_address],
        ['user_agent', c.user_agent],
        ...c.history.map((h): [string, unknown] => [
          'history',
          `${h.created_at} ${h.action} ${h.consent_version}${h.source ? ` (${h.source})` : ''}`,
        ]),
      ]);
    });

  cmd
    .command('history')
    .description('history of a consent, oldest first')
    .argument('<id>')
    .action(async (id: string) => {
      await printList(
        ctx,
        await (await ctx.backend()).consents.history({ ...req(ctx), params: { id } }),
        historyColumns,
      );
    });

  cmd
    .command('stats')
    .description('totals, active, revoked, unique users, conversion rate, per data point')
    .action(async () => {
      const s = await (await ctx.backend()).consents.stats(req(ctx));
      await printRecord(ctx, s, [
        ['total_consents', s.total_consents],
        ['active_consents', s.active_consents],
        ['revoked_consents', s.revoked_consents],
        ['unique_users', s.unique_users],
        ['conversion_rate', `${s.conversion_rate} %`],
        ...Object.entries(s.by_data_point).map(
          ([k, v]) =>
            [`data point ${k}`, `${v.total} total, ${v.active} active, ${v.revoked} revoked`] as [string, unknown],
        ),
      ]);
    });

  addImportCommand(cmd, ctx);
  addImportsCommands(cmd, ctx);
  addReceiptCommand(cmd, ctx);

  exportVerb.register(cmd, ctx);
  return cmd;
}
