import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, useBackend } from '../support/helpers.js';

const T = { tenant: 'acme', actor: 'alice@example.com' };
const OTHER = { tenant: 'globex', actor: 'bob' };
const LOCAL_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

const aiModule = {
  use_case_type: 'chatbot_nlp',
  name: 'Kundenservice-Chatbot',
  model_description: 'LLM with retrieval',
  model_type: 'transformer',
  provider: 'Example AI GmbH',
  third_country_transfer: false,
  provider_country: 'DE',
  input_data_categories: ['Kontaktdaten'],
  output_data_categories: ['Antworttexte'],
  involves_special_categories: false,
  data_subjects: ['Kunden'],
  processing_purpose: 'Support',
  legal_basis: 'Art. 6(1)(b)',
  art22_assessment: { applies: false, safeguards: [] },
  risk_criteria: [{ id: 'rc1', applies: true, severity: 'high' }],
  ai_act_risk_class: 'limited',
  ai_act_justification: 'Chatbot: transparency duty (Art. 50)',
  wp248_criteria_met: ['innovative_technology'],
  risks: [{ description: 'wrong answers', severity: 'medium' }],
  mitigations: [{ description: 'human escalation', implemented: true }],
  privacy_by_design_measures: [
    { category: 'minimisation', description: 'no chat logs after 30 days', implemented: true },
  ],
  review_triggers: [{ type: 'model_change', description: 'new model version', monitoring_interval: 'quarterly' }],
};

/** Every optional field (our additions for Art. 35(7) GDPR), set. */
const art35 = {
  controller: 'Muster GmbH',
  purposes: ['Auswahl von Bewerbern', 'Nachweis gegenüber Behörden'],
  data_subjects: ['Bewerberinnen und Bewerber'],
  necessity_assessment: 'Erforderlich, weil …\n\n- nur **Pflichtangaben**\n- Löschung nach 6 Monaten',
  risks: [
    { title: 'Diskriminierung', description: 'Verzerrte Trainingsdaten', likelihood: 'medium', severity: 'high' },
    { title: 'Datenabfluss', likelihood: 'low', severity: 'critical' },
  ],
  measure_details: [
    { measure: 'Verschlüsselung', implemented: true },
    { measure: 'Bias-Audit', implemented: false, description: 'jährlich durch Dritte' },
  ],
  dpo_opinion: 'Keine Einwände, sofern der Bias-Audit vor dem Start erfolgt.',
  dpo_name: 'Dr. Erika Mustermann',
  dpo_opinion_date: '2026-11-20',
  review_date: '2027-11-20',
};
const ART35_FIELDS = Object.keys(art35);

describe.each(BACKEND_NAMES)('DSFA contract on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.dsfa;

  it('creates with the decided defaults and local timestamps', async () => {
    const d = await api().create({ ...T, body: { title: 'Videoüberwachung Lager' } });
    expect(d).toMatchObject({
      tenant_id: 'acme',
      title: 'Videoüberwachung Lager',
      description: '',
      status: 'draft',
      risk_level: 'medium',
      processing_activity: '',
      data_categories: [],
      recipients: [],
      measures: [],
      approved_by: null,
      approved_at: null,
      created_by: 'alice@example.com',
      ai_use_case_modules: [],
    });
    expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.created_at).toMatch(LOCAL_TS);
    expect(d.updated_at).toBe(d.created_at);
    expect(await api().get({ ...T, params: { id: d.id } })).toEqual(d);
  });

  it('defaults created_by to system without an actor, and takes created_by from the body', async () => {
    const a = await api().create({ tenant: 'acme', body: { title: 'no actor' } });
    expect(a.created_by).toBe('system');
    const c = await api().create({ ...T, body: { title: 'with author', created_by: 'dpo@example.com' } });
    expect(c.created_by).toBe('dpo@example.com');
  });

  it('stores the full AI use-case appendix with ids and timestamps assigned', async () => {
    const d = await api().create({
      ...T,
      body: { title: 'Chatbot', risk_level: 'high', ai_use_case_modules: [aiModule] },
    });
    expect(d.ai_use_case_modules).toHaveLength(1);
    const m = d.ai_use_case_modules[0]!;
    expect(m).toMatchObject(aiModule);
    expect(m.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(m.created_at).toMatch(LOCAL_TS);
    // a second PUT with the same module keeps its id and created_at
    const again = await api().update({
      ...T,
      params: { id: d.id },
      body: { ai_use_case_modules: [{ ...m, name: 'Bot v2' }] },
    });
    expect(again.ai_use_case_modules[0]).toMatchObject({ id: m.id, created_at: m.created_at, name: 'Bot v2' });
  });

  it.each([
    [{ title: 'x', status: 'done' }, 'status', 'draft, in-review, approved, needs-update'],
    [{ title: 'x', risk_level: 'extreme' }, 'risk_level', 'low, medium, high, critical'],
    [{}, 'title', 'required'],
    [{ title: '   ' }, 'title', 'must not be empty'],
    [{ title: 42 }, 'title', 'expected string'],
    [{ title: 'x', data_categories: 'Gesundheit' }, 'data_categories', 'expected array'],
    [
      { title: 'x', ai_use_case_modules: [{ use_case_type: 'robot' }] },
      'ai_use_case_modules.0.use_case_type',
      'generative_ai',
    ],
    [
      { title: 'x', ai_use_case_modules: [{ use_case_type: 'custom', ai_act_risk_class: 'medium' }] },
      'ai_use_case_modules.0.ai_act_risk_class',
      'prohibited, high, limited, minimal',
    ],
    [
      { title: 'x', ai_use_case_modules: [{ use_case_type: 'custom', risk_criteria: [{ id: 'a', applies: 'yes' }] }] },
      'ai_use_case_modules.0.risk_criteria.0.applies',
      'expected boolean',
    ],
    [
      { title: 'x', risks: [{ title: 'r', likelihood: 'sometimes', severity: 'high' }] },
      'risks.0.likelihood',
      'low, medium, high, critical',
    ],
    [{ title: 'x', risks: [{ title: 'r', likelihood: 'low' }] }, 'risks.0.severity', 'low, medium, high, critical'],
    [
      { title: 'x', risks: [{ title: 'r', likelihood: 'low', severity: 'low', schwere: 'hoch' }] },
      'risks.0',
      'unknown field schwere; accepted: description, likelihood, severity, title',
    ],
    [{ title: 'x', measure_details: [{ measure: 'm' }] }, 'measure_details.0.implemented', 'required (boolean)'],
    [{ title: 'x', dpo_opinion_date: '2026-02-30' }, 'dpo_opinion_date', 'no such day'],
    [{ title: 'x', review_date: '20.11.2027' }, 'review_date', 'expected a date such as 2026-12-31'],
    [{ title: 'x', necessity_assessment: 'a\u0007b' }, 'necessity_assessment', 'control characters'],
    [{ title: 'x', dpo_name: 'Erika\nMustermann' }, 'dpo_name', 'control characters'],
    [{ title: 'x', purposes: [''] }, 'purposes.0', 'must not be empty'],
    [{ title: 'x', dpo_opinion: 'x'.repeat(20_001) }, 'dpo_opinion', '20000'],
  ])('refuses %j on create, naming %s, and stores nothing', async (body, path, hint) => {
    const before = (await api().stats(T)).total;
    const e = await failure(api().create({ ...T, body }));
    expect(e.code).toBe('validation');
    const d = e.details.find((x) => x.path === path);
    expect(d, JSON.stringify(e.details)).toBeDefined();
    expect(d!.message).toContain(hint);
    expect((await api().stats(T)).total).toBe(before);
  });

  it('stores the optional Art. 35(7) fields, leaves them out while unset, and an empty value clears one', async () => {
    const bare = await api().create({ ...T, body: { title: 'ohne Zusätze' } });
    for (const f of ART35_FIELDS) expect(bare, f).not.toHaveProperty(f);
    expect(await api().get({ ...T, params: { id: bare.id } })).toEqual(bare);

    const d = await api().create({ ...T, body: { title: 'Bewerberauswahl', measures: ['Verschlüsselung'], ...art35 } });
    expect(d).toMatchObject(art35);
    expect(d.measures).toEqual(['Verschlüsselung', 'Bias-Audit']); // a measure named in the details is added
    expect(await api().get({ ...T, params: { id: d.id } })).toEqual(d);
    const [created] = await api().auditLog({ ...T, query: { dsfa_id: d.id, limit: 1 } });
    expect(created!.new_values).toMatchObject({ risks: art35.risks, dpo_name: art35.dpo_name });

    const nulls = Object.fromEntries(ART35_FIELDS.map((f) => [f, null]));
    expect(await api().update({ ...T, params: { id: d.id }, body: nulls })).toMatchObject(art35);
    const cleared = await api().update({
      ...T,
      params: { id: d.id },
      body: { controller: '  ', risks: [], dpo_opinion_date: '', necessity_assessment: '' },
    });
    for (const f of ['controller', 'risks', 'dpo_opinion_date', 'necessity_assessment'])
      expect(cleared, f).not.toHaveProperty(f);
    expect(cleared).toMatchObject({ dpo_name: art35.dpo_name, purposes: art35.purposes });
    expect(await api().get({ ...T, params: { id: d.id } })).toEqual(cleared);
    const [entry] = await api().auditLog({ ...T, query: { dsfa_id: d.id, limit: 1 } });
    expect(entry).toMatchObject({
      old_values: { controller: 'Muster GmbH', risks: art35.risks, dpo_opinion_date: '2026-11-20' },
      new_values: { controller: null, risks: null, dpo_opinion_date: null, necessity_assessment: null },
    });
  });

  it('keeps measure_details in step with measures: removing a measure drops its state', async () => {
    const d = await api().create({
      ...T,
      body: {
        title: 'Maßnahmen',
        measures: ['A', 'B'],
        measure_details: [
          { measure: 'A', implemented: true, description: '' },
          { measure: 'B', implemented: false },
        ],
      },
    });
    expect(d.measure_details).toEqual([
      { measure: 'A', implemented: true },
      { measure: 'B', implemented: false },
    ]);
    const u = await api().update({ ...T, params: { id: d.id }, body: { measures: ['B', 'C'] } });
    expect(u.measures).toEqual(['B', 'C']);
    expect(u.measure_details).toEqual([{ measure: 'B', implemented: false }]);
    const none = await api().update({ ...T, params: { id: d.id }, body: { measures: ['C'] } });
    expect(none).not.toHaveProperty('measure_details');
    const e = await failure(
      api().update({
        ...T,
        params: { id: d.id },
        body: {
          measure_details: [
            { measure: 'C', implemented: true },
            { measure: 'C', implemented: false },
          ],
        },
      }),
    );
    expect(e.details).toEqual([{ path: 'measure_details.1.measure', message: '"C" is listed twice' }]);
  });

  it('a change of an optional field moves an approved DSFA to needs-update', async () => {
    const d = await api().create({ ...T, body: { title: 'Freigabe', ...art35 } });
    await api().setStatus({ ...T, params: { id: d.id }, body: { status: 'approved', approved_by: 'dpo' } });
    const same = await api().update({ ...T, params: { id: d.id }, body: { risks: art35.risks } });
    expect(same.status).toBe('approved');
    const changed = await api().update({
      ...T,
      params: { id: d.id },
      body: { risks: [{ ...art35.risks[0]!, likelihood: 'high' }] },
    });
    expect(changed).toMatchObject({ status: 'needs-update', approved_by: null });
  });

  it('updates only the fields present; null leaves a field unchanged; audit has only changed fields', async () => {
    const d = await api().create({
      ...T,
      body: { title: 'Bewerbermanagement', measures: ['Verschlüsselung'], description: 'alt' },
    });
    const u = await api().update({
      ...T,
      params: { id: d.id },
      body: { description: 'neu', title: null, measures: ['Verschlüsselung'] },
    });
    expect(u).toMatchObject({ title: 'Bewerbermanagement', description: 'neu', measures: ['Verschlüsselung'] });
    const [entry] = await api().auditLog({ ...T, query: { dsfa_id: d.id, limit: 1 } });
    expect(entry).toMatchObject({
      action: 'UPDATE',
      changed_by: 'alice@example.com',
      old_values: { description: 'alt' },
      new_values: { description: 'neu' },
    });
  });

  it('approving by PATCH sets approved_at, approved_by and the content hash; leaving approved clears them', async () => {
    const d = await api().create({ ...T, body: { title: 'HR-Analytics' } });
    const a = await api().setStatus({
      ...T,
      params: { id: d.id },
      body: { status: 'approved', approved_by: 'dpo@example.com' },
    });
    expect(a.status).toBe('approved');
    expect(a.approved_by).toBe('dpo@example.com');
    expect(a.approved_at).toMatch(LOCAL_TS);
    const n = await api().setStatus({ ...T, params: { id: d.id }, body: { status: 'needs-update' } });
    expect(n).toMatchObject({ status: 'needs-update', approved_by: null, approved_at: null });
    const log = await api().auditLog({ ...T, query: { dsfa_id: d.id } });
    expect(log.map((e) => e.action)).toEqual(['STATUS_CHANGE', 'STATUS_CHANGE', 'CREATE']);
    expect(log[1]).toMatchObject({
      old_values: { status: 'draft', approved_by: null, approved_at: null },
      new_values: { status: 'approved', approved_by: 'dpo@example.com', approved_at: a.approved_at },
    });
    expect(log[1]!.new_values.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(log[0]).toMatchObject({
      old_values: { status: 'approved', approved_by: 'dpo@example.com', approved_at: a.approved_at },
      new_values: { status: 'needs-update', approved_by: null, approved_at: null },
    });
  });

  it('approving again without a name keeps the approver on record and moves approved_at', async () => {
    const d = await api().create({ ...T, body: { title: 'Re-approval' } });
    const first = await api().setStatus({
      ...T,
      params: { id: d.id },
      body: { status: 'approved', approved_by: 'dpo@example.com' },
    });
    await new Promise((r) => setTimeout(r, 5));
    const again = await api().setStatus({ ...T, params: { id: d.id }, body: { status: 'approved' } });
    expect(again.approved_by).toBe('dpo@example.com');
    expect(again.approved_at! > first.approved_at!).toBe(true);
  });

  it('a content change to an approved DSFA moves it to needs-update, whatever status the body repeats', async () => {
    const d = await api().create({ ...T, body: { title: 'Videoüberwachung', description: 'v1' } });
    const a = await api().setStatus({ ...T, params: { id: d.id }, body: { status: 'approved', approved_by: 'dpo' } });
    // a client that read the record and sends it back with one field changed
    const { id: _i, tenant_id: _t, created_at: _c, updated_at: _u, ...roundTrip } = a;
    const u = await api().update({ ...T, params: { id: d.id }, body: { ...roundTrip, description: 'v2' } });
    expect(u).toMatchObject({ status: 'needs-update', approved_by: null, approved_at: null, description: 'v2' });
    const [entry] = await api().auditLog({ ...T, query: { dsfa_id: d.id, limit: 1 } });
    expect(entry).toMatchObject({
      action: 'UPDATE',
      old_values: { description: 'v1', status: 'approved', approved_by: 'dpo', approved_at: a.approved_at },
      new_values: { description: 'v2', status: 'needs-update', approved_by: null, approved_at: null },
    });
    // a PUT without a content change leaves an approval alone, approved_at included
    const b = await api().setStatus({ ...T, params: { id: d.id }, body: { status: 'approved', approved_by: 'dpo' } });
    const same = await api().update({ ...T, params: { id: d.id }, body: { description: 'v2', status: 'approved' } });
    expect(same).toMatchObject({ status: 'approved', approved_by: 'dpo', approved_at: b.approved_at });
    const [quiet] = await api().auditLog({ ...T, query: { dsfa_id: d.id, limit: 1 } });
    expect(quiet).toMatchObject({ action: 'UPDATE', old_values: {}, new_values: {} });
  });

  it('finds records by a search text in title, description or processing activity, ASCII case-insensitively', async () => {
    const t = { tenant: `search-${Math.random()}`, actor: 'a' };
    await api().create({ ...t, body: { title: 'Videoüberwachung Lager' } });
    await api().create({ ...t, body: { title: 'HR', description: 'Bewerber-SCORING mit 100% Quote' } });
    await api().create({ ...t, body: { title: 'Newsletter', processing_activity: 'Versand_an Kunden' } });
    const titles = async (search: string) => (await api().list({ ...t, query: { search } })).map((d) => d.title).sort();
    expect(await titles('überwachung')).toEqual(['Videoüberwachung Lager']);
    expect(await titles('scoring')).toEqual(['HR']);
    expect(await titles('100%')).toEqual(['HR']);
    expect(await titles('_')).toEqual(['Newsletter']);
    expect(await titles('%')).toEqual(['HR']);
    expect(await titles('nichts')).toEqual([]);
  });

  it('takes a unique id prefix of at least 8 characters and refuses an ambiguous one listing the candidates', async () => {
    const t = { tenant: `prefix-${Math.random()}`, actor: 'a' };
    const a = await api().create({ ...t, body: { title: 'A' } });
    const b = await api().create({ ...t, body: { title: 'B' } });
    expect((await api().get({ ...t, params: { id: a.id.slice(0, 30) } })).id).toBe(a.id);
    const u = await api().update({ ...t, params: { id: b.id.slice(0, 30) }, body: { description: 'via prefix' } });
    expect(u).toMatchObject({ id: b.id, description: 'via prefix' });
    let common = 0;
    while (a.id[common] === b.id[common]) common++;
    if (common >= 8) {
      const e = await failure(api().get({ ...t, params: { id: a.id.slice(0, common) } }));
      expect(e.code).toBe('bad_request');
      expect(e.message).toContain(a.id);
      expect(e.message).toContain(b.id);
    }
    expect((await failure(api().get({ ...t, params: { id: a.id.slice(0, 7) } }))).code).toBe('not_found');
    const other = { tenant: `prefix-other-${Math.random()}`, actor: 'a' };
    expect((await failure(api().get({ ...other, params: { id: a.id.slice(0, 30) } }))).code).toBe('not_found');
  });

  it('refuses an unknown AI-module field naming it and the accepted fields; a module read back can be sent again', async () => {
    const body = { title: 'KI', ai_use_case_modules: [{ use_case_type: 'chatbot_nlp', modell_typ: 'LLM' }] };
    const e = await failure(api().create({ ...T, body }));
    expect(e.code).toBe('validation');
    expect(e.details?.[0]?.path).toBe('ai_use_case_modules.0');
    expect(e.details?.[0]?.message).toMatch(/unknown field modell_typ; accepted: .*model_type/);
    const d = await api().create({
      ...T,
      body: { title: 'KI', ai_use_case_modules: [{ use_case_type: 'chatbot_nlp' }] },
    });
    const again = await api().update({
      ...T,
      params: { id: d.id },
      body: { ai_use_case_modules: d.ai_use_case_modules },
    });
    expect(again.ai_use_case_modules).toEqual(d.ai_use_case_modules);
  });

  it('refuses a title over 500 characters with a validation error naming the field', async () => {
    const e = await failure(api().create({ ...T, body: { title: 'x'.repeat(501) } }));
    expect(e.code).toBe('validation');
    expect(e.details?.[0]?.path).toBe('title');
    expect((await api().create({ ...T, body: { title: 'x'.repeat(500) } })).title).toHaveLength(500);
  });

  it('approving by PUT also sets approved_at and records the actor when no approver is named', async () => {
    const d = await api().create({ ...T, body: { title: 'PUT approval' } });
    const u = await api().update({ ...T, params: { id: d.id }, body: { status: 'approved' } });
    expect(u.approved_at).toMatch(LOCAL_TS);
    expect(u.approved_by).toBe(T.actor);
    const created = await api().create({ ...T, body: { title: 'born approved', status: 'approved' } });
    expect(created).toMatchObject({ approved_by: T.actor, approved_at: created.created_at });
    const draft = await api().create({ ...T, body: { title: 'draft with a name', approved_by: 'x' } });
    expect(draft).toMatchObject({ approved_by: null, approved_at: null });
  });

  it('the strict review workflow allows only its transitions, with four eyes, per tenant', async () => {
    const S = { tenant: 'strict-gmbh', actor: 'author@example.com' };
    expect(await api().settings(S)).toEqual({ workflow: 'open', updated_by: null, updated_at: null });
    const set = await api().updateSettings({ ...S, body: { workflow: 'strict' } });
    expect(set).toMatchObject({ workflow: 'strict', updated_by: S.actor, updated_at: expect.stringMatching(LOCAL_TS) });
    expect((await api().settings(S)).workflow).toBe('strict');
    expect((await api().settings(T)).workflow).toBe('open'); // another tenant keeps its own

    expect((await failure(api().create({ ...S, body: { title: 'x', status: 'approved' } }))).code).toBe('conflict');
    const d = await api().create({ ...S, body: { title: 'Strenger Ablauf' } });
    const status = (body: Record<string, unknown>) => api().setStatus({ ...S, params: { id: d.id }, body } as never);
    const skip = await failure(status({ status: 'approved', approved_by: 'dpo@example.com' }));
    expect(skip.code).toBe('conflict');
    expect(skip.message).toContain('from draft it allows in-review');
    expect(skip.details).toEqual([{ path: 'status', message: 'allowed from draft: in-review' }]);
    expect((await status({ status: 'in-review' })).status).toBe('in-review');
    const nobody = await failure(status({ status: 'approved' }));
    expect(nobody.details[0]).toMatchObject({ path: 'approved_by' });
    const self = await failure(status({ status: 'approved', approved_by: ' Author@example.com ' }));
    expect(self.message).toContain('four-eyes');
    expect((await api().get({ ...S, params: { id: d.id } })).status).toBe('in-review');
    const ok = await status({ status: 'approved', approved_by: 'dpo@example.com' });
    expect(ok).toMatchObject({ status: 'approved', approved_by: 'dpo@example.com' });
    expect((await failure(status({ status: 'draft' }))).message).toContain('from approved it allows needs-update');
    // a content change is allowed: it moves the record to needs-update, as the workflow does
    const changed = await api().update({ ...S, params: { id: d.id }, body: { description: 'neu' } });
    expect(changed.status).toBe('needs-update');
    expect((await failure(status({ status: 'approved', approved_by: 'dpo@example.com' }))).code).toBe('conflict');
    expect((await status({ status: 'in-review' })).status).toBe('in-review');
    const put = await failure(api().update({ ...S, params: { id: d.id }, body: { status: 'needs-update' } }));
    expect(put.code).toBe('conflict');
    await api().updateSettings({ ...S, body: { workflow: 'open' } });
    expect((await status({ status: 'draft' })).status).toBe('draft');
    const bad = await failure(api().updateSettings({ ...S, body: { workflow: 'lenient' } as never }));
    expect(bad.details[0]).toMatchObject({ path: 'workflow', message: expect.stringContaining('open, strict') });
  });

  it('refuses a bad status change and leaves the record as it was', async () => {
    const d = await api().create({ ...T, body: { title: 'stay' } });
    const e = await failure(api().setStatus({ ...T, params: { id: d.id }, body: { status: 'archived' } }));
    expect(e.code).toBe('validation');
    expect(e.message).toContain('draft, in-review, approved, needs-update');
    expect((await api().get({ ...T, params: { id: d.id } })).status).toBe('draft');
    expect((await failure(api().setStatus({ ...T, params: { id: d.id }, body: {} }))).details[0]!.path).toBe('status');
  });

  it('deletes, logs the deletion, and then answers not found', async () => {
    const d = await api().create({ ...T, body: { title: 'weg damit' } });
    const r = await api().delete({ ...T, params: { id: d.id } });
    expect(r).toEqual({ success: true, message: expect.stringContaining(d.id) });
    expect((await failure(api().get({ ...T, params: { id: d.id } }))).code).toBe('not_found');
    expect((await failure(api().delete({ ...T, params: { id: d.id } }))).code).toBe('not_found');
    const [entry] = await api().auditLog({ ...T, query: { dsfa_id: d.id, limit: 1 } });
    expect(entry).toMatchObject({
      action: 'DELETE',
      changed_by: T.actor,
      old_values: { title: 'weg damit' },
      new_values: {},
    });
  });

  it("keeps tenants apart: another tenant's id is not found for every operation", async () => {
    const d = await api().create({ ...T, body: { title: 'geheim' } });
    const other = { ...OTHER, params: { id: d.id } };
    expect((await failure(api().get(other))).code).toBe('not_found');
    expect((await failure(api().update({ ...other, body: { title: 'hijack' } }))).code).toBe('not_found');
    expect((await failure(api().setStatus({ ...other, body: { status: 'approved' } }))).code).toBe('not_found');
    expect((await failure(api().delete(other))).code).toBe('not_found');
    expect(await api().list({ ...OTHER })).toEqual([]);
    expect((await api().stats(OTHER)).total).toBe(0);
    expect(await api().auditLog(OTHER)).toEqual([]);
    expect((await api().get({ ...T, params: { id: d.id } })).title).toBe('geheim');
  });

  it('filters by status and risk level, pages with skip and limit, newest first', async () => {
    const t = { tenant: 'paging', actor: 'p' };
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        (
          await api().create({
            ...t,
            body: { title: `D${i}`, risk_level: i % 2 ? 'high' : 'low', status: i < 3 ? 'in-review' : 'draft' },
          })
        ).id,
      );
    }
    const all = await api().list(t);
    expect(all.map((d) => d.id)).toEqual([...ids].reverse());
    expect((await api().list({ ...t, query: { status: 'in-review' } })).map((d) => d.title).sort()).toEqual([
      'D0',
      'D1',
      'D2',
    ]);
    expect(
      (await api().list({ ...t, query: { risk_level: 'high', status: 'draft' } })).map((d) => d.title).sort(),
    ).toEqual(['D3', 'D5']);
    const page = await api().list({ ...t, query: { skip: 2, limit: 3 } });
    expect(page.map((d) => d.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect(await api().list({ ...t, query: { limit: 500 } })).toHaveLength(7);
  });

  it.each([
    [{ limit: 0 }, 'validation'],
    [{ limit: -5 }, 'validation'],
    [{ limit: 501 }, 'validation'],
    [{ limit: 'abc' }, 'bad_request'],
    [{ skip: -1 }, 'validation'],
    [{ status: 'open' }, 'validation'],
    [{ risk_level: 'x' }, 'validation'],
  ])('refuses list query %j (%s)', async (query, code) => {
    const e = await failure(api().list({ ...T, query }));
    expect(e.code).toBe(code);
    expect(e.details[0]!.path).toBe(Object.keys(query)[0]);
  });

  it('audit log pages with limit and offset and checks its limits', async () => {
    const t = { tenant: 'audit', actor: 'a' };
    for (let i = 0; i < 4; i++) await api().create({ ...t, body: { title: `A${i}` } });
    const all = await api().auditLog(t);
    expect(all).toHaveLength(4);
    expect(all.map((e) => e.new_values.title)).toEqual(['A3', 'A2', 'A1', 'A0']);
    expect((await api().auditLog({ ...t, query: { limit: 2, offset: 1 } })).map((e) => e.new_values.title)).toEqual([
      'A2',
      'A1',
    ]);
    expect((await failure(api().auditLog({ ...t, query: { limit: 501 } }))).code).toBe('validation');
    expect((await failure(api().auditLog({ ...t, query: { offset: 'x' } }))).code).toBe('bad_request');
    expect(all[0]!.created_at).toMatch(LOCAL_TS);
  });

  it('statistics leave zero counts out of the maps and always carry the four counts', async () => {
    const t = { tenant: 'stats', actor: 's' };
    expect(await api().stats(t)).toEqual({
      total: 0,
      by_status: {},
      by_risk_level: {},
      draft_count: 0,
      in_review_count: 0,
      approved_count: 0,
      needs_update_count: 0,
    });
    await api().create({ ...t, body: { title: 'a', risk_level: 'high' } });
    await api().create({ ...t, body: { title: 'b', risk_level: 'high', status: 'approved' } });
    await api().create({ ...t, body: { title: 'c', risk_level: 'low', status: 'approved' } });
    expect(await api().stats(t)).toEqual({
      total: 3,
      by_status: { draft: 1, approved: 2 },
      by_risk_level: { low: 1, high: 2 },
      draft_count: 1,
      in_review_count: 0,
      approved_count: 2,
      needs_update_count: 0,
    });
  });

  it('unknown ids are not found on every id route', async () => {
    const p = { ...T, params: { id: '00000000-0000-4000-8000-000000000000' } };
    const calls = [
      () => api().get(p),
      () => api().update({ ...p, body: {} }),
      () => api().setStatus({ ...p, body: { status: 'draft' } }),
      () => api().delete(p),
    ];
    for (const call of calls) expect((await failure(call())).code).toBe('not_found');
  });
});
