import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import type { LlmRequest } from '../../src/domain/training/content.llm.js';
import type { Content } from '../../src/domain/training/content.schema.js';
import { TrainingContentService } from '../../src/domain/training/content.service.js';
import type { TrainingContentStore } from '../../src/domain/training/content.store.js';

const NOW = '2026-06-15T12:00:00.000Z';
const MODULE = {
  id: 'mod1',
  module_code: 'DS-1',
  title: 'Datenschutz',
  description: 'Fragen an Erika Mustermann',
  regulation_area: 'dsgvo',
  duration_minutes: 20,
};
const PUBLISHED: Content = {
  id: 'c1',
  module_id: 'mod1',
  version: 1,
  language: 'de',
  markdown: '# Datenschutz\n\nAnsprechpartnerin ist Erika Mustermann, erika@firma.de.',
  status: 'published',
  created_at: NOW,
  published_at: NOW,
};
const quiz = JSON.stringify({
  questions: [{ question: 'Wer hilft? Erika Mustermann?', options: ['ja', 'nein'], correct_index: 0, explanation: '' }],
});

/** A content store in memory and a language model that answers from a list, recording what it was sent. */
function setup(replies: string[], published: Content | null = PUBLISHED) {
  const sent: LlmRequest[] = [];
  const audit: Array<{ details: Record<string, unknown> }> = [];
  const saved: unknown[] = [];
  let n = 0;
  const store = {
    transaction: (fn: (s: TrainingContentStore) => Promise<unknown>) => fn(store as unknown as TrainingContentStore),
    getModule: async () => MODULE,
    assignedNames: async () => ['Erika Mustermann'],
    publishedContent: async () => published ?? undefined,
    lastVersion: async () => 0,
    insertContent: async () => undefined,
    replaceQuestions: async (_t: string, _m: string, qs: unknown[]) => void saved.push(...qs),
    questions: async () => saved,
    appendAudit: async (entries: Array<{ details: Record<string, unknown> }>) => void audit.push(...entries),
  };
  const svc = new TrainingContentService(
    store as unknown as TrainingContentStore,
    fixedClock(NOW),
    { next: () => `id${++n}` },
    () => ({
      generate: async (req) => {
        sent.push(req);
        return { text: replies.shift()!, prompt_tokens: 3, completion_tokens: 5 };
      },
    }),
    'llama3.1:8b',
  );
  return { svc, sent, audit, saved };
}

describe('TrainingContentService', () => {
  it('bases a quiz on the published content, redacted before it leaves, and redacts the questions coming back', async () => {
    const { svc, sent, audit } = setup([quiz]);
    const r = await svc.generateQuiz('t', 'autor', { module_id: 'mod1', count: 1, language: 'de' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.prompt).toContain(
      'Grundlage ist dieser Inhalt:\n# Datenschutz\n\nAnsprechpartnerin ist [PERSON_1], [EMAIL_1].',
    );
    expect(JSON.stringify(sent)).not.toContain('Mustermann');
    expect(r.questions).toEqual([
      expect.objectContaining({ question: 'Wer hilft? [PERSON_1]?', position: 0, module_id: 'mod1' }),
    ]);
    expect(r.redacted).toEqual({ person: 2, email: 1 });
    expect(audit.map((e) => e.details)).toEqual([
      {
        kind: 'quiz',
        model: 'llama3.1:8b',
        questions: 1,
        attempts: 1,
        redacted: { person: 2, email: 1 },
        prompt_tokens: 3,
        completion_tokens: 5,
      },
    ]);
  });

  it('bases a quiz on the description when nothing is published', async () => {
    const { svc, sent } = setup([quiz], null);
    await svc.generateQuiz('t', undefined, { module_id: 'mod1', count: 1, language: 'de' });
    expect(sent[0]!.prompt.split('\n')[1]).toBe('Fragen an [PERSON_1]');
  });

  it('adds up what was redacted in the prompt and in the answer, kind by kind', async () => {
    const { svc } = setup(['Fragen an [PERSON_1] oder Erika Mustermann unter erika@firma.de und info@firma.de.']);
    const r = await svc.generate('t', 'autor', { module_id: 'mod1', language: 'de' });
    expect(r.markdown).toBe('Fragen an [PERSON_1] oder [PERSON_1] unter [EMAIL_1] und [EMAIL_2].');
    expect(r.redacted).toEqual({ person: 2, email: 2 });
  });
});
