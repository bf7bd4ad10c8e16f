import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { AnchorCheck, ChainReport } from '../../../domain/journal/journal.service.js';
import type { CliContext } from '../../context.js';
import { note, printJson, writeOut } from '../../output.js';
import { usesTenant } from '../../store-access.js';

const HASH = /^[0-9a-f]{64}$/;

/** `--anchor HASH`, or the JSON `audit anchor --json` printed ({"tenant","seq","head"}). */
function parseAnchor(text: string): AnchorCheck & { tenant?: string } {
  const t = text.trim();
  if (HASH.test(t.toLowerCase())) return { hash: t.toLowerCase() };
  try {
    const a = JSON.parse(t) as { tenant?: unknown; seq?: unknown; head?: unknown };
    if (typeof a.head === 'string' && HASH.test(a.head) && Number.isInteger(a.seq) && typeof a.tenant === 'string')
      return { hash: a.head, seq: a.seq as number, tenant: a.tenant };
  } catch {
    /* not JSON: refused below */
  }
  throw new DomainError(
    'bad_request',
    '--anchor takes a hash (64 hex digits) or the JSON `audit anchor --json` printed',
    [{ path: '--anchor', message: 'a SHA-256 hash in hex, or {"tenant","seq","head"}' }],
  );
}

const label = (tenant: string) => (tenant === '' ? '(store: API keys)' : tenant);

function describe(r: ChainReport): string {
  const trail = r.trails?.find((t) => !t.ok)?.problem;
  const what = r.ok
    ? `intact, ${r.entries} entries, head ${r.head.seq} ${r.head.hash}`
    : r.problem
      ? `BROKEN at entry ${r.problem.seq} (${r.problem.kind}): ${r.problem.message}`
      : trail
        ? `chain intact (${r.entries} entries), but an audit trail was changed outside it (${trail.kind}): ${trail.message}`
        : `${r.entries} entries`;
  const anchor = r.anchor ? `; anchor: ${r.anchor.message}` : '';
  return `${label(r.tenant)}: ${what}${anchor}`;
}

/** `audit verify`: every tenant's chain, or the one named, and optionally against an anchor. */
export interface VerifyOptions {
  anchor?: string;
}

export function register(audit: Command, ctx: CliContext): Command {
  return usesTenant(audit.command('verify'), 'narrows')
    .description(
      'recompute the hash chains and compare the audit trails with the journal; exits 6 naming the first problem',
    )
    .option('--anchor <hash|json>', 'also prove that nothing up to this anchored entry changed since')
    .action((o: VerifyOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: VerifyOptions): Promise<void> {
  const c = ctx.config();
  const anchor = o.anchor === undefined ? undefined : parseAnchor(o.anchor);
  if (anchor?.tenant !== undefined && c.tenantGiven && anchor.tenant !== c.tenant)
    throw new DomainError('bad_request', `the anchor is of tenant ${anchor.tenant}, not of --tenant ${c.tenant}`);
  const tenant = anchor?.tenant ?? (c.tenantGiven || anchor || c.remote ? c.tenant : undefined);
  let reports: ChainReport[];
  if (c.remote) {
    // through the API: the chain is checked here, from the entries the server hands out
    const { journalOverApi } = await import('../../../backend/journal-over-api.js');
    const { JournalService } = await import('../../../domain/journal/journal.service.js');
    const api = journalOverApi(await ctx.backend(), tenant!, c.user);
    reports = await new JournalService(api).verify(tenant, anchor);
  } else {
    reports = await (await (await ctx.localBackend('audit verify')).auditor()).verify(tenant, anchor);
  }
  if (c.json) printJson(ctx, reports);
  else if (!reports.length) note(ctx, 'the journal is empty');
  else for (const r of reports) writeOut(ctx, describe(r));
  if (reports.some((r) => !r.ok)) ctx.exitCode = 6;
}
