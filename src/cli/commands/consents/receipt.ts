import type { Command } from 'commander';
import type { ConsentReceipt } from '../../../domain/consents/receipt.schema.js';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { readText } from '../../input.js';
import { req } from '../../operation-verb.js';
import { writeOutputFile } from '../../output-file.js';
import { note, printJson, printRecord, writeOut } from '../../output.js';

const pairs = (r: ConsentReceipt): Array<[string, unknown]> => {
  const c = r.consent;
  const b = r.texts.banner;
  const p = r.texts.privacy_policy;
  return [
    ['consent', c.id],
    ['tenant', c.tenant_id],
    ['who', c.user_id],
    [
      'what',
      `${c.data_point_id}: ${c.granted ? 'granted' : 'refused'}${c.revoked_at ? `, revoked ${c.revoked_at}` : ''}`,
    ],
    ['when', c.granted_at],
    ['source', c.source],
    ['user agent', c.user_agent],
    [
      'banner revision',
      b ? `${b.revision}${b.is_current ? ' (current)' : ` (current is ${b.current_revision})`}` : null,
    ],
    ['privacy policy', p ? `version ${p.version_id}${p.version_number ? ` (v${p.version_number})` : ''}` : null],
    ['policy sha256', p?.content_hash ?? null],
    ['consent sha256', r.consent_hash],
    ['issued at', r.issued_at],
    ['signed by', `${r.signature.algorithm} ${r.signature.key_fingerprint}`],
    ...r.notes.map((n): [string, unknown] => ['note', n]),
  ];
};

/** `consents receipt ID` (a signed receipt from the store) and `consents receipt --verify FILE` (offline). */
export interface ReceiptOptions {
  id?: string;
  output?: string;
  verify?: string;
  keyFingerprint?: string;
}

export function register(consents: Command, ctx: CliContext): Command {
  return consents
    .command('receipt')
    .description(
      'a receipt of a consent signed by the store (who, what, when, which texts and their hashes); --verify FILE checks one offline, exit 6 when it does not hold',
    )
    .argument('[id]', 'the consent (its id or a short id)')
    .option('-o, --output <file>', 'write the receipt as JSON to this file (what --verify reads)')
    .option('--verify <file>', 'check a receipt file offline: its hashes and its Ed25519 signature; - reads stdin')
    .option('--key-fingerprint <fp>', 'with --verify: also require this signing key (SHA256:…, printed on receipts)')
    .action((id: string | undefined, o: Omit<ReceiptOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, ...o }: ReceiptOptions): Promise<void> {
  if (o.verify !== undefined) {
    if (id !== undefined || o.output !== undefined)
      throw new DomainError('bad_request', '--verify FILE takes no consent id and no --output');
    return verify(ctx, o.verify, o.keyFingerprint);
  }
  if (id === undefined)
    throw new DomainError('bad_request', 'name the consent (consents receipt ID), or check a file with --verify FILE');
  if (o.keyFingerprint !== undefined) throw new DomainError('bad_request', '--key-fingerprint goes with --verify');
  const r = await (await ctx.backend()).consents.receipt({ ...req(ctx), params: { id } });
  if (o.output) {
    await writeOutputFile(o.output, JSON.stringify(r, null, 2) + '\n');
    note(ctx, `receipt of consent ${r.consent.id} written to ${o.output}`);
    if (ctx.config().json) printJson(ctx, r);
    return;
  }
  await printRecord(ctx, r, pairs(r));
}

async function verify(ctx: CliContext, file: string, pinned: string | undefined): Promise<void> {
  const { parseKeyFingerprint, verifyReceipt } = await import('../../../domain/consents/receipt.js');
  const fingerprint = pinned === undefined ? undefined : parseKeyFingerprint(pinned, '--key-fingerprint');
  const text = await readText(ctx, file);
  let value: unknown;
  let check: ReturnType<typeof verifyReceipt>;
  try {
    value = JSON.parse(text);
    check = verifyReceipt(value, fingerprint);
  } catch (e) {
    check = { valid: false, problems: [`${file}: not JSON: ${(e as Error).message}`] };
  }
  const r = check.receipt;
  if (ctx.config().json)
    printJson(ctx, {
      valid: check.valid,
      problems: check.problems,
      consent_id: r?.consent.id ?? null,
      key_fingerprint: r?.signature.key_fingerprint ?? null,
      notes: r?.notes ?? [],
    });
  else if (check.valid && r) {
    writeOut(ctx, `valid: receipt of consent ${r.consent.id}, signed by ${r.signature.key_fingerprint}`);
    for (const n of r.notes) writeOut(ctx, `note: ${n} (at ${r.issued_at})`);
  } else for (const p of check.problems) writeOut(ctx, `invalid: ${p}`);
  if (!check.valid) ctx.exitCode = 6;
}
