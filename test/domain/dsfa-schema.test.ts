// The DSFA inputs as the schemas read them: AI modules and their risks and mitigations, the optional Art. 35(7) fields
// (documented as our additions), the list filter and the screening answers. The contract suite covers the same rules
// through the service; these pin the messages and the documentation the schemas carry.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DsfaCreate, DsfaListQuery, DsfaUpdate, Dsfa, DSFA_ADDITIONS } from '../../src/domain/dsfa/dsfa.schema.js';
import { ScreeningAnswersSchema } from '../../src/domain/dsfa/screening.schema.js';
import { parseOrThrow } from '../../src/domain/validation.js';
import { refusal } from '../support/refusal.js';

const create = (body: Record<string, unknown>) => parseOrThrow(DsfaCreate, { title: 'KI', ...body });
const details = (body: Record<string, unknown>) => refusal(() => create(body)).details;

const MODULE_FIELDS =
  'ai_act_justification, ai_act_risk_class, art22_assessment, created_at, data_subjects, id, ' +
  'input_data_categories, involves_special_categories, legal_basis, mitigations, model_description, model_type, ' +
  'name, output_data_categories, privacy_by_design_measures, processing_activity, processing_purpose, provider, ' +
  'provider_country, review_triggers, risk_criteria, risks, third_country_transfer, updated_at, use_case_type, ' +
  'wp248_criteria_met';

describe('an AI module', () => {
  const modules = (...m: unknown[]) => ({ ai_use_case_modules: m });

  it('refuses an unknown field naming it and every accepted field in order', () => {
    expect(details(modules({ use_case_type: 'custom', description: 'x' }))).toEqual([
      {
        path: 'ai_use_case_modules.0',
        message: `unknown field description; accepted: ${MODULE_FIELDS.replace('processing_activity, ', '')}`,
      },
    ]);
  });

  it('names several unknown fields at once', () => {
    expect(details(modules({ use_case_type: 'custom', modell: 'x', anbieter: 'y' }))?.[0]?.message).toMatch(
      /^unknown fields modell, anbieter; accepted: ai_act_justification, /,
    );
  });

  it('that is no object is a type error, not an unknown field', () => {
    expect(details(modules('chatbot'))).toEqual([
      { path: 'ai_use_case_modules.0', message: 'expected object, got "chatbot"' },
    ]);
  });

  it('takes created_at and updated_at as read and drops them (the store assigns them)', () => {
    const d = create(modules({ use_case_type: 'custom', created_at: 'x', updated_at: 'y' }));
    expect(d.ai_use_case_modules).toEqual([{ use_case_type: 'custom' }]);
  });

  it('checks the ratings of its risks and the shape of its mitigations, keeping further keys as sent', () => {
    expect(details(modules({ use_case_type: 'custom', risks: [{ likelihood: 'often' }] }))?.[0]?.path).toBe(
      'ai_use_case_modules.0.risks.0.likelihood',
    );
    expect(details(modules({ use_case_type: 'custom', risks: [{ severity: 'bad' }] }))?.[0]?.path).toBe(
      'ai_use_case_modules.0.risks.0.severity',
    );
    expect(details(modules({ use_case_type: 'custom', risks: [{ title: 7 }] }))?.[0]?.path).toBe(
      'ai_use_case_modules.0.risks.0.title',
    );
    expect(details(modules({ use_case_type: 'custom', mitigations: [{ risk_ids: 'r1' }] }))?.[0]?.path).toBe(
      'ai_use_case_modules.0.mitigations.0.risk_ids',
    );
    expect(details(modules({ use_case_type: 'custom', mitigations: [{ implemented: 'yes' }] }))?.[0]?.path).toBe(
      'ai_use_case_modules.0.mitigations.0.implemented',
    );
    const kept = create(
      modules({
        use_case_type: 'custom',
        risks: [{ id: 'r1', likelihood: 'low', owner: 'IT' }],
        mitigations: [{ risk_ids: ['r1'], implemented: true, due: '2027-01' }],
      }),
    );
    expect(kept.ai_use_case_modules[0]).toMatchObject({
      risks: [{ id: 'r1', likelihood: 'low', owner: 'IT' }],
      mitigations: [{ risk_ids: ['r1'], implemented: true, due: '2027-01' }],
    });
  });
});

describe('the optional Art. 35(7) fields', () => {
  it('refuse an unknown field of a risk or a measure detail naming the accepted ones', () => {
    expect(details({ risks: [{ title: 'r', likelihood: 'low', severity: 'low', owner: 'x' }] })).toEqual([
      { path: 'risks.0', message: 'unknown field owner; accepted: description, likelihood, severity, title' },
    ]);
    expect(details({ measure_details: [{ measure: 'm', implemented: true, status: 'done' }] })).toEqual([
      { path: 'measure_details.0', message: 'unknown field status; accepted: description, implemented, measure' },
    ]);
  });

  it('refuse a measure detailed twice, naming it', () => {
    const twice = [
      { measure: 'Verschlüsselung', implemented: true },
      { measure: 'Verschlüsselung', implemented: false },
    ];
    expect(details({ measure_details: twice })).toEqual([
      { path: 'measure_details.1.measure', message: '"Verschlüsselung" is listed twice' },
    ]);
  });

  // what the OpenAPI document says of each field (src/server/openapi.ts builds it the same way)
  type Property = { description?: string; anyOf?: Property[] };
  const documented = (schema: z.ZodType, io: 'input' | 'output') => {
    const { properties } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as {
      properties: Record<string, Property>;
    };
    // a field that may also be null is documented in the branch that is not null
    const text = (p?: Property) => p?.description ?? p?.anyOf?.find((a) => a.description)?.description;
    return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, { description: text(p) }]));
  };
  const create = documented(DsfaCreate, 'input');
  const update = documented(DsfaUpdate, 'input');
  const record = documented(Dsfa, 'output');

  it.each(DSFA_ADDITIONS)('document %s as an addition to the specification, on input and in responses', (field) => {
    const text = create[field]?.description ?? '';
    expect(text).toMatch(/^\S.{15,}\. Addition to the API specification; absent when unset\.$/);
    expect(update[field]?.description).toBe(text);
    expect(record[field]?.description).toBe(text);
  });

  it('are documented each in its own words', () => {
    const texts = DSFA_ADDITIONS.map((f) => create[f]?.description);
    expect(new Set(texts).size).toBe(DSFA_ADDITIONS.length);
  });
});

describe('the filters of the DSFA list', () => {
  it('search for the text without surrounding spaces, and refuse a blank search', () => {
    expect(parseOrThrow(DsfaListQuery, { search: '  Lager ' }).search).toBe('Lager');
    expect(refusal(() => parseOrThrow(DsfaListQuery, { search: '   ' })).details?.[0]?.path).toBe('search');
    expect(refusal(() => parseOrThrow(DsfaListQuery, { search: 'x'.repeat(201) })).details?.[0]?.path).toBe('search');
  });
});

describe('the screening answers', () => {
  it('take a title without surrounding spaces and refuse a blank one', () => {
    expect(parseOrThrow(ScreeningAnswersSchema, { title: '  Videoüberwachung Lager ' }).title).toBe(
      'Videoüberwachung Lager',
    );
    expect(refusal(() => parseOrThrow(ScreeningAnswersSchema, { title: '  ' })).details?.[0]?.path).toBe('title');
    expect(parseOrThrow(ScreeningAnswersSchema, {})).toEqual({ criteria: [], triggers: [] });
  });
});
