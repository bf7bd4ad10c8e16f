import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import { DomainError } from '../errors.js';
import { ConsentReceipt, RECEIPT_FORMAT, type UnsignedReceipt } from './receipt.schema.js';

/** The fingerprint of a public key: `SHA256:` and the hash of its DER bytes. */
export const keyFingerprint = (der: Buffer): string => `SHA256:${createHash('sha256').update(der).digest('hex')}`;

/**
 * A fingerprint as a person types it (`SHA256:9F2C…`, `sha256:9f2c…`), in the form receipts print; throws naming the
 * form (and the likely fix) when it cannot be the fingerprint of any key. `source` names where it came from.
 */
export function parseKeyFingerprint(value: string, source: string): string {
  const m = /^sha256:([0-9a-f]{64})$/i.exec(value.trim());
  if (m) return `SHA256:${m[1]!.toLowerCase()}`;
  const hint = /^[0-9a-f]{64}$/i.test(value.trim())
    ? `: did you mean SHA256:${value.trim()}?`
    : ', as receipts print it after "signed by Ed25519"';
  throw new DomainError('bad_request', `${source} ${value}: expected SHA256: and 64 hexadecimal digits${hint}`, [
    { path: source, message: 'expected SHA256: and 64 hexadecimal digits' },
  ]);
}

/** Signs a receipt with the store's private key (PKCS#8 PEM). */
export function signReceipt(receipt: UnsignedReceipt, privateKeyPem: string): ConsentReceipt {
  const priv = createPrivateKey(privateKeyPem);
  const der = createPublicKey(priv).export({ type: 'spki', format: 'der' });
  const value = sign(null, Buffer.from(canonicalJson(receipt), 'utf8'), priv);
  return {
    ...receipt,
    signature: {
      algorithm: 'Ed25519',
      public_key: der.toString('base64'),
      key_fingerprint: keyFingerprint(der),
      value: value.toString('base64'),
    },
  };
}

/** The public half of the store's receipt key: what a verifier pins. */
export function publicKeyOf(privateKeyPem: string): { public_key: string; key_fingerprint: string } {
  const der = createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' });
  return { public_key: der.toString('base64'), key_fingerprint: keyFingerprint(der) };
}

export interface ReceiptCheck {
  valid: boolean;
  /** What fails, one sentence each, naming the field. */
  problems: string[];
  receipt?: ConsentReceipt;
}

/**
 * Checks a receipt offline: its shape, the hash of its consent, the key's fingerprint (against `expectedFingerprint`
 * too, when given) and the Ed25519 signature with the public key it carries.
 */
export function verifyReceipt(value: unknown, expectedFingerprint?: string): ReceiptCheck {
  const parsed = ConsentReceipt.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'receipt'}: ${i.message}`);
    if ((value as { format?: unknown })?.format !== RECEIPT_FORMAT)
      problems.unshift(`format: not a consent receipt (expected "${RECEIPT_FORMAT}")`);
    return { valid: false, problems };
  }
  const r = parsed.data;
  const problems: string[] = [];
  if (sha256Hex(canonicalJson(r.consent)) !== r.consent_hash)
    problems.push('consent_hash: does not match the consent (a field of the consent was changed)');
  let key: KeyObject | undefined;
  const der = Buffer.from(r.signature.public_key, 'base64');
  try {
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') {
      problems.push('signature.public_key: not an Ed25519 key');
      key = undefined;
    }
  } catch {
    problems.push('signature.public_key: not a public key (DER, base64)');
  }
  if (key && keyFingerprint(der) !== r.signature.key_fingerprint)
    problems.push('signature.key_fingerprint: does not match the public key');
  if (expectedFingerprint && r.signature.key_fingerprint !== expectedFingerprint)
    problems.push(
      `signature.key_fingerprint: signed by ${r.signature.key_fingerprint}, not by the expected key ${expectedFingerprint}`,
    );
  if (key) {
    const { signature, ...unsigned } = r;
    const ok = verify(null, Buffer.from(canonicalJson(unsigned), 'utf8'), key, Buffer.from(signature.value, 'base64'));
    if (!ok) problems.push('signature.value: does not match the receipt (a field was changed, or another key signed)');
  }
  return { valid: problems.length === 0, problems, receipt: r };
}
