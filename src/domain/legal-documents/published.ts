import * as z from 'zod';
import { sha256Hex } from '../canonical-json.js';
import { DomainError } from '../errors.js';
import type { LegalDocumentStore } from './legal-document-store.port.js';
import { DOCUMENT_TYPES } from './legal-document.values.js';

/** Which published document a website asks for: its type, in the page's language where one exists. */
export const PublishedQuery = z.object({
  document_type: z.enum(DOCUMENT_TYPES).default('privacy_policy'),
  language: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/, 'a language tag such as de, en or de-AT')
    .optional(),
});
export type PublishedQuery = z.infer<typeof PublishedQuery>;

/**
 * The published version of a document, as a website shows it and a consent cites it: `content_hash` is the SHA-256 of
 * the version's content (its UTF-8 bytes, hexadecimal), so a receipt can later prove which text the visitor was shown.
 */
export const PublishedDocument = z.object({
  document_id: z.string(),
  document_type: z.enum(DOCUMENT_TYPES),
  language: z.string(),
  version_id: z.string(),
  version_number: z.int(),
  title: z.string(),
  published_at: z.string().nullable(),
  content_hash: z.string(),
});
export type PublishedDocument = z.infer<typeof PublishedDocument>;

export const contentHash = (content: string): string => sha256Hex(content);

/**
 * The published version of the tenant's document of `document_type`: in `language` when a published document has it
 * (`de-AT` also takes `de`), else the most recently updated published one; not found when none is published.
 */
export async function findPublished(
  store: LegalDocumentStore,
  tenant: string,
  q: PublishedQuery,
): Promise<PublishedDocument> {
  const docs = await store.list(tenant, { document_type: q.document_type, status: 'published' });
  const want = q.language?.toLowerCase().replace('_', '-');
  const lang = (d: { language: string }) => d.language.toLowerCase();
  const ordered = [
    ...docs.filter((d) => want !== undefined && lang(d) === want),
    ...docs.filter((d) => want !== undefined && lang(d).split('-')[0] === want.split('-')[0]),
    ...[...docs].sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0)),
  ];
  for (const doc of ordered) {
    const v = (await store.versions(tenant, doc.id)).find((x) => x.status === 'published');
    if (!v) continue;
    return {
      document_id: doc.id,
      document_type: doc.document_type,
      language: doc.language,
      version_id: v.id,
      version_number: v.version_number,
      title: v.title,
      published_at: v.published_at,
      content_hash: contentHash(v.content),
    };
  }
  throw new DomainError('not_found', `no published ${q.document_type} for tenant ${tenant}`);
}
