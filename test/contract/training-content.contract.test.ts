import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Backend } from '../../src/backend/backend.js';
import { shortId } from '../../src/domain/short-id.js';
import { OllamaClient } from '../../src/services/llm/llm-client.js';
import { FakeOllama } from '../support/ollama-server.js';
import { BACKEND_NAMES, engineOf, freshStore, overHttp, freePort, startServer, failure } from '../support/helpers.js';
import { checkedTransport, checkedLocal } from '../support/openapi-check.js';

const quiz = (n: number, bad = false) =>
  JSON.stringify({
    questions: Array.from({ length: n }, (_, i) => ({
      question: `Frage ${i + 1}?`,
      options: ['a', 'b', 'c'],
      correct_index: bad ? 5 : i % 3,
      explanation: 'weil',
    })),
  });
const T = { tenant: 'lernen', actor: 'autor' };

describe.each(BACKEND_NAMES)('content generation on the %s backend', (name) => {
  let ollama: FakeOllama;
  let local: LocalBackend;
  let api: Backend;
  let close: () => Promise<void>;
  let moduleId = '';
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
    local = await createLocalBackend(await freshStore(engineOf(name)), {
      llm: { host: ollama.url, model: 'llama3.1:8b' },
    });
    if (!overHttp(name)) {
      api = checkedLocal(local);
      close = () => local.close();
    } else {
      const srv = await startServer(local);
      api = createHttpBackend({ url: srv.url, transport: checkedTransport(srv.url) });
      close = async () => {
        await srv.close();
        await local.close();
      };
    }
    moduleId = (
      await api.training.createModule({
        ...T,
        body: {
          module_code: 'DS-1',
          title: 'Datenschutz für Erika Mustermann',
          description: 'Fragen an datenschutz@firma.de',
          regulation_area: 'dsgvo',
          frequency_type: 'annual',
        },
      })
    ).id;
    await api.training.setMatrix({ ...T, body: { role_code: 'R9', module_id: moduleId } });
    await api.training.compute({
      ...T,
      body: { user_id: 'e1', user_name: 'Erika Mustermann', user_email: 'erika@firma.de', roles: ['R9'] },
    });
  });
  afterAll(async () => {
    await close();
    await ollama.close();
  });

  it('sends a redacted prompt, redacts the answer, stores a draft and logs kinds and counts only', async () => {
    ollama.reply({
      text: '# Datenschutz\n\n## Lernziele\n- Regeln kennen\n\nFragen an Erika Mustermann unter +49 30 1234567.\n\n## Zusammenfassung\n- Vorsicht',
    });
    const r = await api.trainingContent.generate({ ...T, body: { module_id: moduleId } });
    const sent = ollama.requests.filter((x) => x.path === '/api/generate').at(-1)!.body;
    expect(sent.model).toBe('llama3.1:8b');
    expect(String(sent.prompt)).toContain('[PERSON_1]');
    expect(String(sent.prompt)).toContain('[EMAIL_1]');
    expect(JSON.stringify(sent)).not.toContain('Mustermann');
    expect(JSON.stringify(sent)).not.toContain('datenschutz@firma.de');
    expect(r).toMatchObject({ status: 'draft', version: 1, language: 'de', prompt_tokens: 11, completion_tokens: 22 });
    expect(r.markdown).toContain('[PERSON_1]');
    expect(r.markdown).toContain('[PHONE_1]');
    expect(r.redacted).toMatchObject({ person: 2, email: 1, phone: 1 });
    const [log] = await api.training.auditLog({ ...T, query: { action: 'content_generated' } });
    expect(log).toMatchObject({ entity_type: 'module', entity_id: moduleId, actor: 'autor' });
    expect(log!.details).toEqual({
      kind: 'content',
      content_id: r.id,
      model: 'llama3.1:8b',
      redacted: { person: 2, email: 1, phone: 1 },
      prompt_tokens: 11,
      completion_tokens: 22,
    });
    expect(JSON.stringify(log)).not.toContain('Mustermann');
    expect((await failure(api.trainingContent.published({ ...T, params: { moduleId } }))).code).toBe('not_found');
    await api.trainingContent.publish({ ...T, params: { contentId: r.id }, body: {} });
    expect((await api.trainingContent.published({ ...T, params: { moduleId } })).id).toBe(r.id);
    expect((await api.training.getModule({ ...T, params: { id: moduleId } })).content!.id).toBe(r.id);
  });

  it('generates a quiz, retrying once on an invalid reply, and refuses what is still invalid', async () => {
    ollama.reply({ text: 'Hier sind Fragen: nicht JSON' }, { text: quiz(5) });
    const r = await api.trainingContent.generateQuiz({ ...T, body: { module_id: moduleId } });
    expect(r.questions).toHaveLength(5);
    expect(String(ollama.requests.at(-1)!.body.prompt)).toContain('previous answer was refused');
    expect(ollama.requests.at(-1)!.body.format).toBe('json');
    ollama.reply({ text: quiz(5, true) }, { text: quiz(2) });
    const before = (await api.training.getModule({ ...T, params: { id: moduleId } })).questions.map((q) => q.id);
    const e = await failure(api.trainingContent.generateQuiz({ ...T, body: { module_id: moduleId } }));
    expect(e.code).toBe('unavailable');
    expect(e.message).toMatch(/expected 5 questions, got 2/);
    expect((await api.training.getModule({ ...T, params: { id: moduleId } })).questions.map((q) => q.id)).toEqual(
      before,
    );
  });

  it('turns Ollama failures into clear errors without writing anything', async () => {
    const versions = async () => (await api.training.auditLog({ ...T, query: { action: 'content_generated' } })).length;
    const n = await versions();
    ollama.reply({ status: 500, error: 'out of memory' });
    expect((await failure(api.trainingContent.generate({ ...T, body: { module_id: moduleId } }))).message).toMatch(
      /answered 500: out of memory/,
    );
    ollama.reply({ status: 404, error: "model 'tiny' not found" });
    expect(
      (await failure(api.trainingContent.generate({ ...T, body: { module_id: moduleId, model: 'tiny' } }))).message,
    ).toMatch(/ollama pull tiny/);
    ollama.reply({
      text: 'abgebrochene Antwort, die länger als vierzig Zeichen ist, damit sie aufgeteilt wird',
      stopAfterChunks: 1,
    });
    expect((await failure(api.trainingContent.generate({ ...T, body: { module_id: moduleId } }))).message).toMatch(
      /stopped in the middle|Did not receive done/,
    );
    expect((await failure(api.trainingContent.generate({ ...T, body: { module_id: 'unknown' } }))).code).toBe(
      'not_found',
    );
    expect(await versions()).toBe(n);
  });

  // bulk runs work on every module of a tenant: each test has a tenant of its own, so it holds whichever tests run
  it('plans and runs bulk generation for modules without content', async () => {
    const P = { tenant: 'lernen-plan', actor: 'autor' };
    await api.training.createModule({
      ...P,
      body: { module_code: 'DS-2', title: 'Zweites Modul', regulation_area: 'nis2', frequency_type: 'micro' },
    });
    const plan = await api.trainingContent.generateAll({ ...P, body: { dry_run: true } });
    expect(plan.results.map((r) => [r.module_code, r.status])).toEqual([['DS-2', 'planned']]);
    ollama.reply({ text: '# Zweites Modul\n\n## Lernziele\n- x' });
    const run = await api.trainingContent.generateAll({ ...P, body: {} });
    expect(run).toMatchObject({ generated: 1, failed: 0, prompt_tokens: 11, completion_tokens: 22 });
    expect((await api.trainingContent.generateAll({ ...P, body: { dry_run: true } })).results).toEqual([]);
  });

  const generated = () => ollama.requests.filter((x) => x.path === '/api/generate').map((x) => x.body);
  const newModule = async (module_code: string) =>
    (
      await api.training.createModule({
        ...T,
        body: { module_code, title: `Modul ${module_code}`, regulation_area: 'dsgvo', frequency_type: 'annual' },
      })
    ).id;
  const lastLog = async () =>
    (await api.training.auditLog({ ...T, query: { action: 'content_generated', limit: 1 } }))[0]!;

  it('asks for text (not JSON) for content, and logs the system as the actor when nobody is named', async () => {
    ollama.reply({ text: '# Content' });
    const r = await api.trainingContent.generate({ tenant: T.tenant, body: { module_id: moduleId, language: 'en' } });
    expect(generated().at(-1)!.format).toBeUndefined();
    expect(r).toMatchObject({ language: 'en', markdown: '# Content', status: 'draft', published_at: null });
    expect(await lastLog()).toMatchObject({ actor: 'system', entity_id: moduleId, details: { content_id: r.id } });
  });

  it('refuses an answer of blanks without storing a version', async () => {
    const n = (await api.training.auditLog({ ...T, query: { action: 'content_generated' } })).length;
    ollama.reply({ text: ' \n\t ' });
    const e = await failure(api.trainingContent.generate({ ...T, body: { module_id: moduleId } }));
    expect(e).toMatchObject({ code: 'unavailable', message: 'the model llama3.1:8b answered with an empty text' });
    expect((await api.training.auditLog({ ...T, query: { action: 'content_generated' } })).length).toBe(n);
  });

  it('generates a quiz with the model asked for, telling the model on the retry what was wrong, counting both attempts', async () => {
    ollama.reply({ text: quiz(5, true) }, { text: quiz(5) });
    const n = generated().length;
    const r = await api.trainingContent.generateQuiz({ ...T, body: { module_id: moduleId, model: 'mistral:7b' } });
    const [first, retry] = generated().slice(n);
    expect([first!.model, retry!.model, first!.format, retry!.format]).toEqual([
      'mistral:7b',
      'mistral:7b',
      'json',
      'json',
    ]);
    expect(String(first!.prompt)).not.toContain('refused');
    const problems = [0, 1, 2, 3, 4].map((i) => `questions.${i}.correct_index: must point at one of the options`);
    expect(String(retry!.prompt)).toContain(
      `\n\nYour previous answer was refused: ${problems.join('; ')}. Answer again with valid JSON in exactly the format above.`,
    );
    expect(String(retry!.prompt).startsWith(String(first!.prompt))).toBe(true);
    expect(r).toMatchObject({ module_id: moduleId, prompt_tokens: 22, completion_tokens: 44 });
    expect(r.questions.map((q) => [q.position, q.question, q.module_id])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [i, `Frage ${i + 1}?`, moduleId]),
    );
    expect(await lastLog()).toMatchObject({
      actor: 'autor',
      entity_type: 'module',
      entity_id: moduleId,
      details: {
        kind: 'quiz',
        model: 'mistral:7b',
        questions: 5,
        attempts: 2,
        prompt_tokens: 22,
        completion_tokens: 44,
      },
    });
    expect((await lastLog()).details.redacted).toEqual(r.redacted);
  });

  it('logs one attempt for a quiz valid at once', async () => {
    ollama.reply({ text: quiz(3) });
    const r = await api.trainingContent.generateQuiz({ ...T, body: { module_id: moduleId, count: 3 } });
    expect(r).toMatchObject({ prompt_tokens: 11, completion_tokens: 22 });
    expect((await lastLog()).details).toMatchObject({ model: 'llama3.1:8b', questions: 3, attempts: 1 });
  });

  it('gives up after one retry, naming the first five problems, with twenty at most in the details', async () => {
    ollama.reply({ text: quiz(25, true) }, { text: quiz(25, true) });
    const e = await failure(api.trainingContent.generateQuiz({ ...T, body: { module_id: moduleId } }));
    const problem = (i: number) => `questions.${i}.correct_index: must point at one of the options`;
    expect(e).toMatchObject({
      code: 'unavailable',
      message: `the model llama3.1:8b did not answer with a valid quiz, also after one retry: ${[0, 1, 2, 3, 4].map(problem).join('; ')}`,
    });
    expect(e.details).toEqual(Array.from({ length: 20 }, (_, i) => ({ path: 'quiz', message: problem(i) })));
  });

  it('publishes one version at a time and says what it cannot find', async () => {
    const other = await newModule('DS-3');
    expect(await failure(api.trainingContent.published({ ...T, params: { moduleId: other } }))).toMatchObject({
      code: 'not_found',
      message: `published content of module ${other} not found`,
    });
    expect(await failure(api.trainingContent.generate({ ...T, body: { module_id: 'nope' } }))).toMatchObject({
      code: 'not_found',
      message: 'training module nope not found',
    });
    ollama.reply({ text: '# Eins' }, { text: '# Zwei' });
    const {
      redacted: _r,
      prompt_tokens: _p,
      completion_tokens: _c,
      ...v1
    } = await api.trainingContent.generate({
      ...T,
      body: { module_id: other },
    });
    const p1 = await api.trainingContent.publish({ ...T, params: { contentId: v1.id }, body: {} });
    expect(p1).toEqual({ ...v1, status: 'published', published_at: expect.stringMatching(/^\d{4}-.*Z$/) });
    expect(await api.trainingContent.published({ ...T, params: { moduleId: other } })).toEqual(p1);
    expect(await failure(api.trainingContent.publish({ ...T, params: { contentId: v1.id }, body: {} }))).toMatchObject({
      code: 'conflict',
      message: `content ${v1.id} is already published`,
    });
    expect(await failure(api.trainingContent.publish({ ...T, params: { contentId: 'nope' }, body: {} }))).toMatchObject(
      {
        code: 'not_found',
        message: 'content nope not found',
      },
    );
    // the module and the content by their short ids (their last 8 characters)
    const v2 = await api.trainingContent.generate({ ...T, body: { module_id: shortId(other) } });
    expect([v2.version, v2.module_id]).toEqual([2, other]);
    await api.trainingContent.publish({ ...T, params: { contentId: shortId(v2.id) }, body: {} });
    expect((await api.trainingContent.published({ ...T, params: { moduleId: shortId(other) } })).markdown).toBe(
      '# Zwei',
    );
  });

  it('reports a module whose generation failed in a bulk run, and runs quizzes in bulk', async () => {
    const B = { tenant: 'lernen-bulk', actor: 'autor' };
    const failing = (
      await api.training.createModule({
        ...B,
        body: { module_code: 'DS-4', title: 'Viertes Modul', regulation_area: 'dsgvo', frequency_type: 'annual' },
      })
    ).id;
    ollama.reply({ status: 500, error: 'busy' });
    const run = await api.trainingContent.generateAll({ ...B, body: {} });
    expect(run).toEqual({
      results: [
        {
          module_id: failing,
          module_code: 'DS-4',
          status: 'failed',
          error: expect.stringMatching(/answered 500: busy/),
          prompt_tokens: 0,
          completion_tokens: 0,
        },
      ],
      generated: 0,
      failed: 1,
      prompt_tokens: 0,
      completion_tokens: 0,
      dry_run: false,
    });
    ollama.reply({ text: quiz(2) });
    const quizzes = await api.trainingContent.generateAllQuiz({ ...B, body: { count: 2, language: 'en' } });
    expect(quizzes).toMatchObject({
      results: [{ module_code: 'DS-4', status: 'generated', error: null, prompt_tokens: 11, completion_tokens: 22 }],
      generated: 1,
      failed: 0,
    });
    expect(generated().at(-1)!.format).toBe('json');
    expect((await api.training.getModule({ ...B, params: { id: failing } })).questions).toHaveLength(2);
  });
});

describe('the Ollama client', () => {
  it('says how to start Ollama when nothing listens, without hanging', async () => {
    const client = new OllamaClient({ host: `http://127.0.0.1:${await freePort()}` });
    const t = Date.now();
    const e = await failure(client.generate({ model: 'llama3.1:8b', prompt: 'x' }));
    expect(e.message).toMatch(/not reachable.*ollama serve.*ollama pull llama3\.1:8b/);
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it('gives up on a stalled stream after the idle timeout', async () => {
    const ollama = await new FakeOllama().start();
    try {
      ollama.reply({ stallMs: 3000 });
      const e = await failure(
        new OllamaClient({ host: ollama.url, idleTimeoutMs: 300 }).generate({ model: 'm', prompt: 'x' }),
      );
      expect(e.message).toMatch(/no answer from Ollama/);
    } finally {
      await ollama.close();
    }
  });
});

describe('content commands on the command line', () => {
  it('lists what generate-all would do, generates with the model from the environment, and reports a missing Ollama', async () => {
    const { cli, tmpDb: db0 } = await import('../support/helpers.js');
    const ollama = await new FakeOllama().start();
    try {
      const db = db0();
      const env = { OLLAMA_HOST: ollama.url, COMPLIANCE_LLM_MODEL: 'mistral:7b' };
      await cli(
        [
          '--db',
          db,
          'training',
          'modules',
          'create',
          '--code',
          'C-1',
          '--title',
          'Eins',
          '--area',
          'dsgvo',
          '--frequency',
          'micro',
        ],
        { env },
      );
      const plan = await cli(['--db', db, 'training', 'content', 'generate-all', '--dry-run'], { env });
      expect(plan.stdout).toContain('C-1');
      ollama.reply({ text: '# Eins\n\n## Lernziele\n- a' });
      const r = await cli(['--db', db, 'training', 'content', 'generate-all', '--json'], { env });
      expect(JSON.parse(r.stdout)).toMatchObject({ generated: 1, failed: 0 });
      expect(ollama.requests.at(-1)!.body.model).toBe('mistral:7b');
      const down = await cli(['--db', db, 'training', 'content', 'generate', 'C-1'], {
        env: { OLLAMA_HOST: `http://127.0.0.1:${await freePort()}` },
      });
      expect(down.code).toBe(1);
      expect(down.stderr).toMatch(/Ollama is not reachable.*ollama serve/);
    } finally {
      await ollama.close();
    }
  });
});
