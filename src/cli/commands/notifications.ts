import { Command } from 'commander';
import type { OutboxMessage, Template } from '../../domain/notifications/notification.schema.js';
import { TEMPLATE_NAMES } from '../../domain/notifications/notification.values.js';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { readText } from '../input.js';
import { printJson, printList, printRecord, writeOut } from '../output.js';
import { usesTenant, writes } from '../store-access.js';

/** `compliance notifications …`: who hears of escalations, in which words, and what is queued. */
export function createNotificationsCommand(ctx: CliContext): Command {
  const n = new Command('notifications').description(
    'escalation e-mail: settings (language, management and compliance-officer addresses, base URL), templates, outbox',
  );
  const api = async () => (await ctx.backend()).notifications;
  const req = () => ({ tenant: ctx.config().tenant, actor: ctx.config().user });

  type SettingsFlags = {
    language?: string;
    managementEmail?: string;
    complianceOfficerEmail?: string;
    baseUrl?: string;
  };
  const changing = (o: SettingsFlags) => Object.values(o).some((v) => v !== undefined);
  writes(n.command('settings'), (o: SettingsFlags) => (changing(o) ? 'write' : 'read'))
    .description('show the settings, or change those given ("" clears an address or the base URL)')
    .option('--language <de|en>', 'language of the e-mail')
    .option('--management-email <address>', 'level 3 escalations go here')
    .option('--compliance-officer-email <address>', 'level 4 escalations go here')
    .option('--base-url <url>', "the tenant's training portal (http or https), linked from every message")
    .action(async (o: SettingsFlags) => {
      const clear = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v.trim());
      const s = changing(o)
        ? await (
            await api()
          ).updateSettings({
            ...req(),
            body: {
              language: o.language,
              management_email: clear(o.managementEmail),
              compliance_officer_email: clear(o.complianceOfficerEmail),
              base_url: clear(o.baseUrl),
            },
          })
        : await (await api()).settings(req());
      await printRecord(ctx, s, [
        ['language', s.language],
        ['management_email', s.management_email],
        ['compliance_officer_email', s.compliance_officer_email],
        ['base_url', s.base_url],
        ['updated_at', s.updated_at],
      ]);
    });

  const t = n.command('templates').description('the e-mail templates (built in for de and en; a tenant may override)');
  t.command('list')
    .description('every template in force')
    .action(async () => {
      const rows = await (await api()).templates(req());
      await printList(ctx, rows, [
        { header: 'NAME', value: (x: Template) => x.name },
        { header: 'LANGUAGE', value: (x: Template) => x.language },
        { header: 'OVERRIDDEN', value: (x: Template) => (x.overridden ? 'yes' : 'no') },
        { header: 'SUBJECT', value: (x: Template) => x.subject },
      ]);
    });
  t.command('show')
    .description('one template in force')
    .argument('<name>', TEMPLATE_NAMES.join(', '))
    .argument('<language>', 'de or en')
    .action(async (name: string, language: string) => {
      const x = await (await api()).template({ ...req(), params: { name, language } });
      if (ctx.config().json) return printJson(ctx, x);
      writeOut(ctx, `subject: ${x.subject}\n\n${x.body_text}\n\n${x.body_html}`);
    });
  writes(t.command('set'))
    .description(
      'override a template: {{name}}, {{count}}, {{people}}, {{items}}, {{link}}, {{tenant}} are filled in; ' +
        '{{#key}}…{{/key}} shows text only when the value is not empty, {{^key}}…{{/key}} only when it is',
    )
    .argument('<name>', TEMPLATE_NAMES.join(', '))
    .argument('<language>', 'de or en')
    .requiredOption('--subject <text>')
    .requiredOption('--text <file>', 'the plain-text body (- reads stdin)')
    .requiredOption('--html <file>', 'the HTML body')
    .action(async (name: string, language: string, o: { subject: string; text: string; html: string }) => {
      if (o.text === '-' && o.html === '-')
        throw new DomainError('bad_request', '--text and --html cannot both read stdin', [
          { path: '--html', message: 'name a file' },
        ]);
      const body = {
        subject: o.subject,
        body_text: await readText(ctx, o.text),
        body_html: await readText(ctx, o.html),
      };
      const x = await (await api()).setTemplate({ ...req(), params: { name, language }, body });
      await printRecord(ctx, x, [
        ['name', x.name],
        ['language', x.language],
        ['overridden', x.overridden],
      ]);
    });
  writes(t.command('reset'))
    .description('back to the built-in template')
    .argument('<name>', TEMPLATE_NAMES.join(', '))
    .argument('<language>', 'de or en')
    .action(async (name: string, language: string) => {
      const x = await (await api()).resetTemplate({ ...req(), params: { name, language } });
      await printRecord(ctx, x, [
        ['name', x.name],
        ['language', x.language],
        ['overridden', x.overridden],
      ]);
    });

  usesTenant(
    writes(n.command('smtp'), (o) => (o.url !== undefined || o.clear ? 'write' : 'read')),
    'none',
  )
    .description(
      "the store's own SMTP server, used when neither --smtp nor COMPLIANCE_SMTP_URL names one (embedded store only)",
    )
    .option('--url <url>', 'smtp://user:password@host:port or smtps://…')
    .option('--from <address>', 'sender of the e-mail', 'compliance@localhost')
    .option('--clear', 'remove the setting')
    .action(async (o: { url?: string; from: string; clear?: boolean }) => {
      const backend = await ctx.localBackend('notifications smtp');
      const events = await import('../../backend/local/events/events-runner.js');
      if (o.url !== undefined) {
        const { checkSmtpFlags } = await import('./smtp-flags.js');
        await events.storeSmtp(
          backend.store,
          checkSmtpFlags({ env: {} }, { smtp: o.url, smtpFrom: o.from }, { url: '--url', from: '--from' }),
        );
      } else if (o.clear) await events.storeSmtp(backend.store, undefined);
      const s = await events.storedSmtp(backend.store);
      const { redactUrl } = await import('../../store/store.js');
      const shown = { url: s ? redactUrl(s.url) : null, from: s?.from ?? null };
      await printRecord(ctx, shown, [
        ['url', shown.url],
        ['from', shown.from],
      ]);
    });

  n.command('outbox')
    .description('queued and sent e-mail, newest first')
    .option('--failed', 'only those that gave up or are being retried')
    .option('--limit <n>', '1 to 1000', '100')
    .action(async (o: { failed?: boolean; limit: string }) => {
      const rows = await (
        await api()
      ).outbox({ ...req(), query: { failed: o.failed ? 'true' : undefined, limit: o.limit } });
      await printList(
        ctx,
        rows,
        [
          { header: 'ID', value: (m: OutboxMessage) => m.id },
          { header: 'TO', value: (m: OutboxMessage) => m.recipient },
          { header: 'STATUS', value: (m: OutboxMessage) => m.status },
          { header: 'ATTEMPTS', value: (m: OutboxMessage) => m.attempts },
          { header: 'SUBJECT', value: (m: OutboxMessage) => m.subject },
          { header: 'ERROR', value: (m: OutboxMessage) => m.last_error ?? '' },
        ],
        { empty: o.failed ? 'no failed e-mail' : 'the outbox is empty' },
      );
    });
  return n;
}
