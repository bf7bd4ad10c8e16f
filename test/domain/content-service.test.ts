import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock.js';
import { TrainingContentService } from '../../src/domain/training/content.service.js';
import { TrainingService } from '../../src/domain/training/training.service.js';
import { OllamaClient } from '../../src/services/llm/llm-client.js';
import { FakeOllama } from '../support/ollama-server.js';
import { sqliteUnitOfWork } from '../support/unit-of-work.js';

const NOW = '2026-06-15T12:00:00.000Z';
const MARKDOWN = '# Datenschutz\n\nAnsprechpartnerin ist Erika Mustermann, erika@firma.de.';
const quiz = JSON.stringify({
  questions: [{ question: 'Wer hilft? Erika Mustermann?', options: ['ja', 'nein'], correct_index: 0, explanation: '' }],
});

const models: FakeOllama[] = [];
afterAll(async () => {
  for (const m of models) await m.close();
});

/**
 * A module on the SQLite store of a fresh file, assigned to Erika Mustermann and, unless `published` is false, with
 * published content naming her; the real Ollama client against a server that answers `replies` and keeps what it
 * was sent.
 */
async function setup(replies: string[], published = true) {
  const ollama = await new FakeOllama().reply(...replies.map((text) => ({ text }))).start();
  models.push(ollama);
  let n = 0;
  const ids = { next: () => `id${++n}` };
  const clock = fixedClock(NOW);
  const { uow } = await sqliteUnitOfWork(clock, ids);
  const training = new TrainingService(uow, clock, ids, () => 'ab'.repeat(32));
  const { id: moduleId } = await training.createModule('t', 'autor', {
    module_code: 'DS-1',
    title: 'Datenschutz',
    description: 'Fragen an Erika Mustermann',
    regulation_area: 'dsgvo',
    frequency_type: 'annual',
    duration_minutes: 20,
    pass_threshold: 70,
    validity_days: 365,
    questions: [],
  });
  await training.setMatrix('t', { role_code: 'R9', module_id: moduleId, is_mandatory: true, priority: 1 });
  await training.compute('t', 'hr', {
    user_id: 'erika',
    user_name: 'Erika Mustermann',
    user_email: 'erika@firma.de',
    roles: ['R9'],
    deadline_days: 30,
  });
  if (published) {
    const content = { id: 'c1', module_id: moduleId, version: 1, language: 'de', markdown: MARKDOWN };
    await uow.write('t', ({ trainingContent }) =>
      trainingContent.insertContent('t', { ...content, status: 'published', created_at: NOW, published_at: NOW }),
    );
  }
  const svc = new TrainingContentService(uow, clock, ids, () => new OllamaClient({ host: ollama.url }), 'llama3.1:8b');
  const sent = () => ollama.requests.filter((r) => r.path === '/api/generate').map((r) => r.body as { prompt: string });
  const audit = async () =>
    (await training.auditLog('t', { action: 'content_generated', limit: 50, offset: 0 })).map((e) => e.details);
  return { svc, sent, audit, moduleId };
}

describe('TrainingContentService', () => {
  it('bases a quiz on the published content, redacted before it leaves, and redacts the questions coming back', async () => {
    const { svc, sent, audit, moduleId } = await setup([quiz]);
    const r = await svc.generateQuiz('t', 'autor', { module_id: moduleId, count: 1, language: 'de' });
    expect(sent()).toHaveLength(1);
    expect(sent()[0]!.prompt).toContain(
      'Grundlage ist dieser Inhalt:\n# Datenschutz\n\nAnsprechpartnerin ist [PERSON_1], [EMAIL_1].',
    );
    expect(JSON.stringify(sent())).not.toContain('Mustermann');
    expect(r.questions).toEqual([
      expect.objectContaining({ question: 'Wer hilft? [PERSON_1]?', position: 0, module_id: moduleId }),
    ]);
    expect(r.redacted).toEqual({ person: 2, email: 1 });
    expect(await audit()).toEqual([
      {
        kind: 'quiz',
        model: 'llama3.1:8b',
        questions: 1,
        attempts: 1,
        redacted: { person: 2, email: 1 },
        prompt_tokens: 11,
        completion_tokens: 22,
      },
    ]);
  });

  it('bases a quiz on the description when nothing is published', async () => {
    const { svc, sent, moduleId } = await setup([quiz], false);
    await svc.generateQuiz('t', undefined, { module_id: moduleId, count: 1, language: 'de' });
    expect(sent()[0]!.prompt.split('\n')[1]).toBe('Fragen an [PERSON_1]');
  });

  it('adds up what was redacted in the prompt and in the answer, kind by kind', async () => {
    const { svc, moduleId } = await setup([
      'Fragen an [PERSON_1] oder Erika Mustermann unter erika@firma.de und info@firma.de.',
    ]);
    const r = await svc.generate('t', 'autor', { module_id: moduleId, language: 'de' });
    expect(r.markdown).toBe('Fragen an [PERSON_1] oder [PERSON_1] unter [EMAIL_1] und [EMAIL_2].');
    expect(r.redacted).toEqual({ person: 2, email: 2 });
  });
});
