import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Backend } from '../../src/backend/backend.js';
import type { DomainError } from '../../src/domain/errors.js';
import { OllamaClient } from '../../src/services/llm/llm-client.js';
import { FakeOllama } from '../support/ollama-server.js';
import { BACKEND_NAMES, engineOf, freshStore, overHttp, freePort, startServer } from '../support/helpers.js';

const failure = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected failure');
    },
    (e: DomainError) => e,
  );
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
      api = local;
      close = () => local.close();
    } else {
      const srv = await startServer(local);
      api = createHttpBackend({ url: srv.url });
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
    expect(log!.details).toMatchObject({ kind: 'content', redacted: { person: 2, email: 1, phone: 1 } });
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

  it('plans and runs bulk generation for modules without content', async () => {
    await api.training.createModule({
      ...T,
      body: { module_code: 'DS-2', title: 'Zweites Modul', regulation_area: 'nis2', frequency_type: 'micro' },
    });
    const plan = await api.trainingContent.generateAll({ ...T, body: { dry_run: true } });
    expect(plan.results.map((r) => [r.module_code, r.status])).toEqual([['DS-2', 'planned']]);
    ollama.reply({ text: '# Zweites Modul\n\n## Lernziele\n- x' });
    const run = await api.trainingContent.generateAll({ ...T, body: {} });
    expect(run).toMatchObject({ generated: 1, failed: 0, prompt_tokens: 11, completion_tokens: 22 });
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
