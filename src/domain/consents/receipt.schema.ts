import * as z from 'zod';
import { Consent } from './consent.schema.js';

export const RECEIPT_FORMAT = 'compliance-consent-receipt/1';

/** The consent a receipt is about: who, what, when, from where (the texts it refers to stand beside it). */
const ReceiptConsent = Consent.omit({ banner_revision: true, policy_version_id: true, policy_content_hash: true });

/**
 * A signed consent receipt (our addition): the consent, the texts it was given on (the banner's revision, the
 * privacy-policy version and the SHA-256 of its content) beside the texts current when the receipt was issued, and an
 * Ed25519 signature by the store's receipt key over everything else (canonical JSON, domain/canonical-json.ts). The
 * public key travels inside, with its fingerprint, so `consents receipt --verify` checks a receipt offline.
 */
export const ConsentReceipt = z.object({
  format: z.literal(RECEIPT_FORMAT),
  issued_at: z.string(),
  consent: ReceiptConsent,
  /** SHA-256 of the consent above in canonical JSON. */
  consent_hash: z.string(),
  texts: z.object({
    banner: z
      .object({
        revision: z.string(),
        current_revision: z.string(),
        is_current: z.boolean(),
      })
      .nullable(),
    privacy_policy: z
      .object({
        version_id: z.string(),
        content_hash: z.string(),
        /** The number and title of that version in the store when the receipt was issued (null: no longer stored). */
        version_number: z.int().nullable(),
        title: z.string().nullable(),
        /** The hash of the stored version's content now: equal to content_hash unless the text was changed since. */
        stored_content_hash: z.string().nullable(),
        current_version_id: z.string().nullable(),
        current_content_hash: z.string().nullable(),
        is_current: z.boolean(),
      })
      .nullable(),
  }),
  /** Plain sentences about the texts, e.g. "refers to banner revision X; current is Y". */
  notes: z.array(z.string()),
  signature: z.object({
    algorithm: z.literal('Ed25519'),
    /** The public key, DER (SubjectPublicKeyInfo) in base64. */
    public_key: z.string(),
    /** `SHA256:` and the SHA-256 of the public key's DER bytes, hexadecimal. */
    key_fingerprint: z.string(),
    /** The signature over the canonical JSON of the receipt without `signature`, base64. */
    value: z.string(),
  }),
});
export type ConsentReceipt = z.infer<typeof ConsentReceipt>;
export type UnsignedReceipt = Omit<ConsentReceipt, 'signature'>;
