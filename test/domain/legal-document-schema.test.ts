// The inputs of legal documents as the schemas read them: the language code, the version's content and summary, and
// the comment a rejection needs. The contract suite covers the same rules through the service.
import { describe, expect, it } from 'vitest';
import {
  Approve,
  LegalDocumentCreate,
  LegalDocumentQuery,
  Reject,
  TRANSITIONS,
  VersionCreate,
} from '../../src/domain/legal-documents/legal-document.schema.js';
import { parseOrThrow } from '../../src/domain/validation.js';
import { refusal } from '../support/refusal.js';

const create = (body: Record<string, unknown>) =>
  parseOrThrow(LegalDocumentCreate, { title: 'Datenschutzerklärung', document_type: 'privacy_policy', ...body });

describe('a legal document', () => {
  it('is German unless another language is named', () => {
    expect(create({}).language).toBe('de');
  });

  it.each([
    ['en', 'en'],
    ['de-AT', 'de-AT'],
    [' fr ', 'fr'],
    [' de-CH ', 'de-CH'],
  ])('accepts the language code %j as %j', (language, read) => {
    expect(create({ language }).language).toBe(read);
  });

  it.each(['', 'd', 'deu', 'DE', 'De', 'de-at', 'de-A', 'de-AUT', 'de_AT', 'x de', 'de x', '1e', 'de-'])(
    'refuses the language code %j',
    (language) => {
      expect(refusal(() => create({ language })).details).toEqual([
        { path: 'language', message: 'a language code such as de, en or de-AT' },
      ]);
    },
  );

  it('takes its title trimmed, and refuses a blank one', () => {
    expect(create({ title: '  Impressum  ' }).title).toBe('Impressum');
    expect(refusal(() => create({ title: '   ' })).details[0]!.path).toBe('title');
    expect(create({ title: 'x'.repeat(300) }).title).toHaveLength(300);
    expect(refusal(() => create({ title: 'x'.repeat(301) })).details[0]!.path).toBe('title');
  });

  it.each(['privacy_policy', 'terms', 'cookie_policy', 'imprint', 'dpa'])('is of the type %s', (t) => {
    expect(create({ document_type: t }).document_type).toBe(t);
  });

  it('filters the list by type and status, each optional', () => {
    expect(parseOrThrow(LegalDocumentQuery, {})).toStrictEqual({});
    expect(parseOrThrow(LegalDocumentQuery, { document_type: 'dpa', status: 'published' })).toEqual({
      document_type: 'dpa',
      status: 'published',
    });
    expect(refusal(() => parseOrThrow(LegalDocumentQuery, { status: 'archived' })).details[0]!.path).toBe('status');
  });
});

describe('a version', () => {
  const version = (body: Record<string, unknown>) => parseOrThrow(VersionCreate, { title: 'v1', ...body });

  it('needs content, up to two million characters', () => {
    expect(refusal(() => version({ content: '' })).details).toEqual([
      { path: 'content', message: 'must not be empty' },
    ]);
    expect(version({ content: '\n' }).content).toBe('\n');
    expect(version({ content: 'x'.repeat(2_000_000) }).content).toHaveLength(2_000_000);
    expect(refusal(() => version({ content: 'x'.repeat(2_000_001) })).details[0]!.path).toBe('content');
  });

  it('keeps its content as written, blanks and line endings included', () => {
    expect(version({ content: '  # Titel\r\n\tText  ' }).content).toBe('  # Titel\r\n\tText  ');
  });

  it('may carry a change summary of up to 2000 characters, or none', () => {
    expect(version({ content: 'x' }).change_summary).toBeUndefined();
    expect(version({ content: 'x', change_summary: null }).change_summary).toBeNull();
    expect(version({ content: 'x', change_summary: 's'.repeat(2000) }).change_summary).toHaveLength(2000);
    expect(refusal(() => version({ content: 'x', change_summary: 's'.repeat(2001) })).details[0]!.path).toBe(
      'change_summary',
    );
  });
});

describe('approving and rejecting', () => {
  it('an approval may name the approver and a comment', () => {
    expect(parseOrThrow(Approve, {})).toStrictEqual({});
    expect(parseOrThrow(Approve, { approved_by: ' dpo@example.com ', comment: 'passt' })).toEqual({
      approved_by: 'dpo@example.com',
      comment: 'passt',
    });
    expect(refusal(() => parseOrThrow(Approve, { approved_by: '  ' })).details[0]!.path).toBe('approved_by');
    expect(refusal(() => parseOrThrow(Approve, { comment: 'c'.repeat(2001) })).details[0]!.path).toBe('comment');
  });

  it('a rejection must say why', () => {
    expect(parseOrThrow(Reject, { comment: ' Kontakt fehlt ' })).toEqual({ comment: 'Kontakt fehlt' });
    for (const comment of ['', '   ', '\n'])
      expect(refusal(() => parseOrThrow(Reject, { comment })).details).toEqual([
        { path: 'comment', message: 'say why the version is rejected' },
      ]);
    expect(parseOrThrow(Reject, { comment: 'c'.repeat(2000) }).comment).toHaveLength(2000);
    expect(refusal(() => parseOrThrow(Reject, { comment: 'c'.repeat(2001) })).details[0]!.path).toBe('comment');
  });

  it('moves a version draft → review → approved → published, and a rejected one back to draft', () => {
    expect(TRANSITIONS).toEqual({
      submit: { from: 'draft', to: 'review' },
      approve: { from: 'review', to: 'approved' },
      reject: { from: 'review', to: 'draft' },
      publish: { from: 'approved', to: 'published' },
    });
  });
});
