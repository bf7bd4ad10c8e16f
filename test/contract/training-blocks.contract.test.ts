import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Backend } from '../../src/backend/backend.js';
import { FakeOllama } from '../support/ollama-server.js';
import {
  BACKEND_NAMES,
  engineOf,
  freshStore,
  overHttp,
  cli,
  freePort,
  startServer,
  tmpDb,
  failure,
} from '../support/helpers.js';
import { checkedTransport, checkedLocal } from '../support/openapi-check.js';

const T = { tenant: 'bloecke', actor: 'ciso' };

describe.each(BACKEND_NAMES)('training blocks on the %s backend', (name) => {
  let ollama: FakeOllama;
  let local: LocalBackend;
  let api: Backend;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ollama = await new FakeOllama().start();
    local = await createLocalBackend(await freshStore(engineOf(name)), { llm: { host: ollama.url } });
    const srv = await startServer(local);
    api = !overHttp(name)
      ? checkedLocal(local)
      : createHttpBackend({ url: srv.url, transport: checkedTransport(srv.url) });
    close = async () => {
      await srv.close();
      await local.close();
    };
  });
  afterAll(async () => {
    await close();
    await ollama.close();
  });

  it.each([
    [{ regulation_area: 'nis2', module_code_prefix: 'SEC' }, 'name'],
    [{ name: 'x', module_code_prefix: 'SEC' }, 'regulation_area'],
    [{ name: 'x', regulation_area: 'nis2' }, 'module_code_prefix'],
    [
      { name: 'x', regulation_area: 'nis2', module_code_prefix: 'SEC', target_audience_filter: 'everyone' },
      'target_audience_filter',
    ],
    [
      { name: 'x', regulation_area: 'nis2', module_code_prefix: 'SEC', max_controls_per_module: 0 },
      'max_controls_per_module',
    ],
  ])('refuses %j (422 naming %s)', async (body, path) => {
    const e = await failure(api.trainingBlocks.create({ ...T, body }));
    expect(e.code).toBe('validation');
    expect(e.details.map((d) => d.path)).toContain(path);
    expect(await api.trainingBlocks.list(T)).toEqual([]);
  });

  it('previews without writing, generates modules with links, content and matrix, and updates on a second run', async () => {
    const b = await api.trainingBlocks.create({
      ...T,
      body: {
        name: 'Zugang',
        regulation_area: 'nis2',
        module_code_prefix: 'SEC-AUTH',
        domain_filter: 'AUTH',
        max_controls_per_module: 5,
      },
    });
    expect(b).toMatchObject({
      frequency_type: 'annual',
      duration_minutes: 30,
      pass_threshold: 70,
      max_controls_per_module: 5,
      last_generated_at: null,
    });
    const p = await api.trainingBlocks.preview({ ...T, params: { id: b.id }, body: {} });
    expect(p.total_controls).toBeGreaterThan(5);
    expect(p.message).toBe(`${p.total_controls} control(s) in ${p.modules.length} module(s)`);
    expect(p.modules.every((m) => m.control_ids.length <= 5 && m.module_code.startsWith('SEC-AUTH-'))).toBe(true);
    expect(await api.training.listModules(T)).toEqual([]);
    ollama.reply(...p.modules.map(() => ({ text: '# Modul\n\n## Lernziele\n- sicher anmelden' })));
    const g = await api.trainingBlocks.generate({ ...T, params: { id: b.id }, body: {} });
    expect(g).toMatchObject({
      modules_created: p.modules.length,
      modules_updated: 0,
      controls_linked: p.total_controls,
      content_generated: p.modules.length,
      errors: [],
    });
    expect(g.matrix_entries_created).toBe(p.modules.length * p.roles.length);
    // a block suggests its modules to the roles it suits: optional, of middle priority, until someone decides otherwise
    const entries = (await api.training.matrix(T)).filter((e) => e.module_code.startsWith('SEC-AUTH-'));
    expect(entries).toHaveLength(g.matrix_entries_created);
    expect(new Set(entries.map((e) => `${e.is_mandatory}/${e.priority}`))).toEqual(new Set(['false/5']));
    expect((await api.training.listModules(T)).map((m) => m.module_code)).toEqual(p.modules.map((m) => m.module_code));
    const linked = await api.trainingBlocks.controls({ ...T, params: { id: b.id } });
    expect(linked).toHaveLength(p.total_controls);
    expect(linked[0]!.module_code).toBe('SEC-AUTH-001');
    const again = await api.trainingBlocks.generate({ ...T, params: { id: b.id }, body: { skip_content: true } });
    expect(again).toMatchObject({
      modules_created: 0,
      modules_updated: p.modules.length,
      matrix_entries_created: 0,
      content_generated: 0,
    });
    expect(await api.training.listModules(T)).toHaveLength(p.modules.length);
    expect((await api.trainingBlocks.get({ ...T, params: { id: b.id } })).last_generated_at).not.toBeNull();
  });

  it('creates the modules and reports a per-module error when the language model is unavailable', async () => {
    const b = await api.trainingBlocks.create({
      ...T,
      body: {
        name: 'Krypto',
        regulation_area: 'iso27001',
        module_code_prefix: 'SEC-CRYP',
        domain_filter: 'CRYP',
        severity_filter: 'critical,high',
        target_audience_filter: 'provider',
      },
    });
    expect(b).toMatchObject({
      domain_filter: 'CRYP',
      category_filter: null,
      severity_filter: 'critical,high',
      target_audience_filter: 'provider',
    });
    ollama.reply({ status: 500, error: 'busy' }, { status: 500, error: 'busy' });
    const g = await api.trainingBlocks.generate({ ...T, params: { id: b.id }, body: { auto_matrix: false } });
    expect(g.modules_created).toBeGreaterThan(0);
    expect(g.matrix_entries_created).toBe(0);
    expect(g.errors.length).toBe(g.modules_created - g.content_generated);
    expect(g.errors[0]!.message).toMatch(/content not generated: Ollama at .* answered 500/);
  });

  it('says so when the filters match no control, and creates nothing', async () => {
    const b = await api.trainingBlocks.create({
      ...T,
      body: {
        name: 'Leer',
        regulation_area: 'dsgvo',
        module_code_prefix: 'NONE',
        domain_filter: 'NOPE',
        category_filter: 'identity',
      },
    });
    expect(b).toMatchObject({
      domain_filter: 'NOPE',
      category_filter: 'identity',
      severity_filter: null,
      target_audience_filter: null,
    });
    const p = await api.trainingBlocks.preview({ ...T, params: { id: b.id }, body: {} });
    expect(p).toMatchObject({ total_controls: 0, modules: [], message: expect.stringMatching(/no control matches/) });
    const before = (await api.training.listModules(T)).length;
    const g = await api.trainingBlocks.generate({ ...T, params: { id: b.id }, body: {} });
    expect(g).toMatchObject({
      modules_created: 0,
      errors: [{ module_code: null, message: expect.stringMatching(/no control matches/) }],
    });
    expect((await api.training.listModules(T)).length).toBe(before);
    const elsewhere = await failure(api.trainingBlocks.get({ tenant: 'andere', params: { id: b.id } }));
    expect(elsewhere).toMatchObject({ code: 'not_found', message: expect.stringContaining(`training block ${b.id}`) });
    expect(
      (await api.trainingBlocks.update({ ...T, params: { id: b.id }, body: { domain_filter: 'HR' } })).domain_filter,
    ).toBe('HR');
    expect(await api.trainingBlocks.delete({ ...T, params: { id: b.id } })).toEqual({
      success: true,
      message: `block ${b.id} deleted (its modules stay)`,
    });
  });
});

describe('blocks on the command line', () => {
  it('creates, previews and generates without an LLM (--skip-content), exiting 6 on an empty preview', async () => {
    const db = tmpDb();
    const env = { OLLAMA_HOST: `http://127.0.0.1:${await freePort()}` };
    const run = (...a: string[]) => cli(['--db', db, ...a], { env });
    const b = JSON.parse(
      (
        await run(
          'training',
          'blocks',
          'create',
          '--name',
          'Netz',
          '--area',
          'nis2',
          '--prefix',
          'NET',
          '--domain',
          'NET',
          '--max-controls',
          '4',
          '--json',
        )
      ).stdout,
    );
    const p = await run('training', 'blocks', 'preview', b.id);
    expect(p.stdout.split('\n')[0]).toMatch(/^NET-001\t/);
    const g = await run('training', 'blocks', 'generate', b.id, '--skip-content');
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(/modules created \d+/);
    const noLlm = await run('training', 'blocks', 'generate', b.id);
    expect(noLlm.code).toBe(6);
    expect(noLlm.stderr).toMatch(/NET-001: content not generated: Ollama is not reachable/);
    const empty = JSON.parse(
      (
        await run(
          'training',
          'blocks',
          'create',
          '--name',
          'x',
          '--area',
          'nis2',
          '--prefix',
          'X',
          '--domain',
          'NONE',
          '--json',
        )
      ).stdout,
    );
    expect((await run('training', 'blocks', 'preview', empty.id)).code).toBe(6);
    expect(
      (
        await run(
          'training',
          'blocks',
          'create',
          '--name',
          'x',
          '--area',
          'nis2',
          '--prefix',
          'X',
          '--max-controls',
          '0',
        )
      ).code,
    ).toBe(2);
  });
});
