import { isoZ, type Clock } from '../clock.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { defaultCookieBanner } from '../cookie-banner/cookie-banner.schema.js';
import { bannerRevision } from '../cookie-banner/cookie-banner.service.js';
import { DomainError, notFound } from '../errors.js';
import { contentHash, findPublished, type PublishedDocument } from '../legal-documents/published.js';
import type { UnitOfWork } from '../unit-of-work.js';
import { publicKeyOf, signReceipt } from './receipt.js';
import { RECEIPT_FORMAT, type ConsentReceipt, type UnsignedReceipt } from './receipt.schema.js';

/** A new Ed25519 private key as PKCS#8 PEM; injected, like the clock, so the rules stay free of randomness. */
export type ReceiptKeySource = () => string;

/** Receipts of consents, signed by the store's receipt key (receipt.schema.ts). */
export class ConsentReceiptService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly newKey: ReceiptKeySource,
  ) {}

  /** The public half of the store's receipt key, to pin when verifying (`--key-fingerprint`). */
  async publicKey(): Promise<{ public_key: string; key_fingerprint: string }> {
    return publicKeyOf(await this.uow.read.consents.receiptSigningKey(this.newKey));
  }

  async receipt(tenant: string, id: string): Promise<ConsentReceipt> {
    const read = this.uow.read;
    const c = await read.consents.get(tenant, id);
    if (!c) throw notFound('consent', id);
    const consent = {
      id: c.id,
      tenant_id: c.tenant_id,
      user_id: c.user_id,
      data_point_id: c.data_point_id,
      granted: c.granted,
      granted_at: c.granted_at,
      revoked_at: c.revoked_at,
      consent_version: c.consent_version,
      source: c.source,
      ip_address: c.ip_address,
      user_agent: c.user_agent,
      created_at: c.created_at,
    };
    const notes: string[] = [];
    if (c.revoked_at) notes.push(`revoked at ${c.revoked_at}: the consent is no longer in force`);

    let banner: UnsignedReceipt['texts']['banner'] = null;
    if (c.banner_revision) {
      const current = bannerRevision((await read.cookieBanner.get(tenant)) ?? defaultCookieBanner(tenant));
      banner = { revision: c.banner_revision, current_revision: current, is_current: current === c.banner_revision };
      notes.push(
        banner.is_current
          ? `refers to banner revision ${c.banner_revision}, the current one`
          : `refers to banner revision ${c.banner_revision}; current is ${current}`,
      );
    } else notes.push('no banner revision recorded (the consent was not given in the website banner)');

    let policy: UnsignedReceipt['texts']['privacy_policy'] = null;
    if (c.policy_version_id && c.policy_content_hash) {
      const shown = await read.legalDocuments.getVersion(tenant, c.policy_version_id);
      const doc = shown && (await read.legalDocuments.get(tenant, shown.document_id));
      let current: PublishedDocument | undefined;
      try {
        current = await findPublished(read.legalDocuments, tenant, {
          document_type: doc?.document_type ?? 'privacy_policy',
          language: doc?.language,
        });
      } catch (e) {
        if (!(e instanceof DomainError && e.code === 'not_found')) throw e;
      }
      const stored = shown ? contentHash(shown.content) : null;
      policy = {
        version_id: c.policy_version_id,
        content_hash: c.policy_content_hash,
        version_number: shown?.version_number ?? null,
        title: shown?.title ?? null,
        stored_content_hash: stored,
        current_version_id: current?.version_id ?? null,
        current_content_hash: current?.content_hash ?? null,
        is_current: current?.version_id === c.policy_version_id && current.content_hash === c.policy_content_hash,
      };
      const label = `privacy-policy version ${c.policy_version_id}${shown ? ` (v${shown.version_number})` : ''}`;
      if (policy.is_current) notes.push(`refers to ${label}, the current one`);
      else
        notes.push(
          `refers to ${label}; current is ${current ? `${current.version_id} (v${current.version_number})` : 'none published'}`,
        );
      if (!shown) notes.push(`privacy-policy version ${c.policy_version_id} is no longer in the store`);
      else if (stored !== c.policy_content_hash)
        notes.push(
          `the stored text of privacy-policy version ${c.policy_version_id} hashes to ${stored}, not ${c.policy_content_hash} as shown to the visitor`,
        );
    } else notes.push('no privacy-policy version recorded');

    const unsigned: UnsignedReceipt = {
      format: RECEIPT_FORMAT,
      issued_at: isoZ(this.clock.now()),
      consent,
      consent_hash: sha256Hex(canonicalJson(consent)),
      texts: { banner, privacy_policy: policy },
      notes,
    };
    return signReceipt(unsigned, await read.consents.receiptSigningKey(this.newKey));
  }
}
