// The training inputs as the schemas read them: the bounds of every number and list, the defaults a missing field
// takes, the module code's pattern, the dates with offsets and what a refusal names. The contract suite reaches some of
// them through the service; these pin each bound on both sides.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MediaPublish, SignedQuery } from '../../src/domain/training/media.schema.js';
import {
  AsOf,
  AssignmentQuery,
  AssignmentUpdate,
  AuditQuery,
  CertificatePdfQuery,
  ComputeInput,
  DeadlineQuery,
  EscalationInput,
  LearnerQuestion,
  MatrixDeleteParams,
  MatrixSet,
  ModuleCreate,
  ModuleIdParams,
  AssignmentIdParams,
  ModuleQuery,
  ModuleUpdate,
  Progress,
  QuestionInput,
  QuizSubmit,
  VerificationCodeParams,
} from '../../src/domain/training/training.schema.js';
import { parseOrThrow } from '../../src/domain/validation.js';
import { refusal } from '../support/refusal.js';

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;
const details = (schema: z.ZodType, value: unknown) => refusal(() => parseOrThrow(schema, value)).details;

const QUESTION = { question: 'Frist?', options: ['24 h', '72 h'], correct_index: 1 };
const MODULE = { module_code: 'DSGVO-01', title: 'Grundlagen', regulation_area: 'dsgvo', frequency_type: 'annual' };
const USER = { user_id: 'u', user_name: 'U', user_email: 'u@example.com', roles: ['R9'] };
const long = (n: number) => 'x'.repeat(n);

describe('numeric and length bounds, each side', () => {
  // what, field, schema, the rest of a valid value, accepted values, refused values
  const cases: Array<[string, string, z.ZodType, Record<string, unknown>, unknown[], unknown[]]> = [
    ['module', 'duration_minutes', ModuleCreate, MODULE, [1, 30, 600], [0, 601, 1.5]],
    ['module', 'pass_threshold', ModuleCreate, MODULE, [0, 55, 100], [-1, 101]],
    ['module', 'validity_days', ModuleCreate, MODULE, [1, 365, 3650], [0, 3651]],
    ['module', 'title', ModuleCreate, MODULE, ['T', long(300)], ['', ' ', long(301), 'a\nb']],
    ['module', 'description', ModuleCreate, MODULE, ['', long(4000)], [long(4001)]],
    [
      'module',
      'questions',
      ModuleCreate,
      MODULE,
      [[], [QUESTION], Array(100).fill(QUESTION)],
      [Array(101).fill(QUESTION)],
    ],
    ['module update', 'duration_minutes', ModuleUpdate, {}, [1, 30, 600], [0, 601]],
    ['module update', 'pass_threshold', ModuleUpdate, {}, [0, 55, 100], [-1, 101]],
    ['module update', 'validity_days', ModuleUpdate, {}, [1, 365, 3650], [0, 3651]],
    ['module update', 'title', ModuleUpdate, {}, ['T', long(300)], ['', long(301)]],
    ['module update', 'description', ModuleUpdate, {}, ['', long(4000)], [long(4001)]],
    [
      'module update',
      'questions',
      ModuleUpdate,
      {},
      [[QUESTION], Array(100).fill(QUESTION)],
      [Array(101).fill(QUESTION)],
    ],
    ['question', 'question', QuestionInput, QUESTION, ['Q', long(2000)], ['', ' ', long(2001)]],
    [
      'question',
      'options',
      QuestionInput,
      QUESTION,
      [
        ['a', 'b'],
        ['a', 'b', 'c', 'd', 'e', 'f'],
      ],
      [['a'], ['a', 'b', 'c', 'd', 'e', 'f', 'g'], ['a', ' '], ['a', long(501)]],
    ],
    ['question', 'correct_index', QuestionInput, QUESTION, [0, 1], [-1, 2, 0.5]],
    ['question', 'explanation', QuestionInput, QUESTION, ['', long(4000)], [long(4001)]],
    ['matrix entry', 'priority', MatrixSet, { role_code: 'R1', module_id: 'm' }, [1, 5, 10], [0, 11]],
    ['matrix entry', 'module_id', MatrixSet, { role_code: 'R1' }, ['m', 'module-with-a-long-id'], ['']],
    ['matrix entry', 'role_code', MatrixSet, { module_id: 'm' }, ['R1', 'R10'], ['R0', 'R11', 'r1']],
    ['computation', 'deadline_days', ComputeInput, USER, [1, 30, 3650], [0, 3651]],
    ['computation', 'roles', ComputeInput, USER, [['R1'], ['R1', 'R10']], [[], ['R11']]],
    ['computation', 'user_id', ComputeInput, USER, ['u', long(200)], ['', long(201)]],
    ['computation', 'user_name', ComputeInput, USER, ['U', long(200)], [' ', long(201)]],
    ['computation', 'trigger', ComputeInput, USER, ['onboarding', 'manual', undefined], ['hr']],
    ['progress', 'progress', Progress, {}, [0, 40, 100], [-1, 101, 4.5]],
    ['quiz', 'assignment_id', QuizSubmit, { answers: [] }, ['a', 'an-assignment-id'], ['']],
    ['quiz', 'duration_seconds', QuizSubmit, { assignment_id: 'a', answers: [] }, [0, 95, undefined], [-1, 1.5]],
    [
      'quiz',
      'answers',
      QuizSubmit,
      { assignment_id: 'a' },
      [[], [{ question_id: 'q1', selected_index: 0 }], [{ question_id: 'q', selected_index: 5 }]],
      [[{ question_id: '', selected_index: 0 }], [{ question_id: 'q', selected_index: -1 }]],
    ],
    ['assignment list', 'limit', AssignmentQuery, {}, [1, '50', 500], [0, 501]],
    ['assignment list', 'offset', AssignmentQuery, {}, [0, '10'], [-1]],
    ['assignment list', 'user_id', AssignmentQuery, {}, ['u', 'a-user', undefined], ['']],
    ['assignment list', 'module_id', AssignmentQuery, {}, ['m', 'a-module', undefined], ['']],
    ['deadline list', 'limit', DeadlineQuery, {}, [1, '500'], [0, '501']],
    ['audit log', 'limit', AuditQuery, {}, [1, 500], [0, 501]],
    ['audit log', 'offset', AuditQuery, {}, [0, 3], [-1]],
    ['module list', 'search', ModuleQuery, {}, ['daten', long(200)], [' ', long(201)]],
    ['assignment update', 'user_name', AssignmentUpdate, {}, ['Neu', long(200)], ['', long(201)]],
    ['assignment update', 'user_email', AssignmentUpdate, {}, ['neu@example.com'], ['neu']],
    ['signed link', 'expires', SignedQuery, {}, ['', long(20)], [long(21)]],
    ['signed link', 'sig', SignedQuery, {}, ['', long(200)], [long(201)]],
  ];
  it.each(cases)('%s: %s within its bounds', (_what, field, schema, base, good, bad) => {
    for (const v of good)
      expect(accepts(schema, { ...base, [field]: v }), `${field} = ${JSON.stringify(v)}`).toBe(true);
    for (const v of bad) {
      const d = details(schema, { ...base, [field]: v });
      expect(d?.[0]?.path, `${field} = ${JSON.stringify(v)?.slice(0, 40)}`).toMatch(new RegExp(`^${field}\\b`));
    }
  });

  it.each([
    ['module', ModuleIdParams, 'moduleId'],
    ['assignment', AssignmentIdParams, 'assignmentId'],
    ['matrix module', MatrixDeleteParams, 'moduleId'],
  ] as const)('a %s id in the path must not be empty, and may be long', (_what, schema, field) => {
    const base = { role: 'R1' };
    expect(accepts(schema, { ...base, [field]: 'an-id-of-some-length' })).toBe(true);
    expect(accepts(schema, { ...base, [field]: '' })).toBe(false);
  });
});

describe('defaults of a missing field', () => {
  it('a new module: no description, 30 minutes, pass mark 70, valid a year, no questions given', () => {
    expect(parseOrThrow(ModuleCreate, MODULE)).toEqual({
      ...MODULE,
      description: '',
      duration_minutes: 30,
      pass_threshold: 70,
      validity_days: 365,
    });
  });

  it('a module update changes only the fields sent', () => {
    expect(parseOrThrow(ModuleUpdate, {})).toStrictEqual({});
    expect(parseOrThrow(ModuleUpdate, { title: 'T' })).toEqual({ title: 'T' });
  });

  it('a question without explanation has an empty one', () => {
    expect(parseOrThrow(QuestionInput, QUESTION)).toEqual({ ...QUESTION, explanation: '' });
  });

  it('a matrix entry is optional with priority 5; a computation has 30 days', () => {
    expect(parseOrThrow(MatrixSet, { role_code: 'R2', module_id: 'm' })).toEqual({
      role_code: 'R2',
      module_id: 'm',
      is_mandatory: false,
      priority: 5,
    });
    expect(parseOrThrow(ComputeInput, USER)).toEqual({ ...USER, deadline_days: 30 });
  });

  it('an escalation run writes unless asked for a dry run; publishing media publishes', () => {
    expect(parseOrThrow(EscalationInput, {})).toEqual({ dry_run: false });
    expect(parseOrThrow(EscalationInput, { dry_run: true })).toEqual({ dry_run: true });
    expect(parseOrThrow(MediaPublish, {})).toEqual({ published: true });
    expect(parseOrThrow(MediaPublish, { published: false })).toEqual({ published: false });
    expect(parseOrThrow(SignedQuery, {})).toEqual({ expires: '', sig: '' });
  });

  it('lists page 50 at a time from the start', () => {
    expect(parseOrThrow(AssignmentQuery, {})).toEqual({ limit: 50, offset: 0 });
    expect(parseOrThrow(AuditQuery, {})).toEqual({ limit: 50, offset: 0 });
    expect(parseOrThrow(DeadlineQuery, {})).toEqual({ limit: 50 });
  });
});

describe('the module code', () => {
  it.each([
    ['X', 'X'],
    ['DSGVO-01', 'DSGVO-01'],
    ['a_b.c-9', 'a_b.c-9'],
    ['  NIS2-01  ', 'NIS2-01'],
    ['\tISO.27001\n', 'ISO.27001'],
    ['9' + long(39), '9' + long(39)],
  ])('accepts %j as %j', (code, stored) => {
    expect(parseOrThrow(ModuleCreate, { ...MODULE, module_code: code }).module_code).toBe(stored);
    expect(parseOrThrow(ModuleUpdate, { module_code: code }).module_code).toBe(stored);
  });

  it.each(['', ' ', '-X', '_X', '.X', 'DS GVO', 'DSGVO/01', 'Ä-1', 'X' + long(40), 'a\nb'])('refuses %j', (code) => {
    expect(details(ModuleCreate, { ...MODULE, module_code: code })).toEqual([
      { path: 'module_code', message: 'letters, digits, - _ . (at most 40)' },
    ]);
  });
});

describe('a quiz question', () => {
  it('must point its correct answer at one of its options', () => {
    expect(details(QuestionInput, { ...QUESTION, options: ['a', 'b', 'c'], correct_index: 3 })).toEqual([
      { path: 'correct_index', message: 'must point at one of the options' },
    ]);
    expect(accepts(QuestionInput, { ...QUESTION, options: ['a', 'b', 'c'], correct_index: 2 })).toBe(true);
  });

  it('reaches a learner without its answer and explanation', () => {
    expect(Object.keys(LearnerQuestion.shape).sort()).toEqual(['id', 'module_id', 'options', 'position', 'question']);
  });
});

describe('dates of a request take an offset', () => {
  it.each([
    ['assignment update', AssignmentUpdate, 'deadline'],
    ['as of', AsOf, 'as_of'],
    ['escalation', EscalationInput, 'as_of'],
    ['deadline list', DeadlineQuery, 'as_of'],
  ] as const)('%s: %s', (_what, schema, field) => {
    for (const v of ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59+01:00', '2026-12-31T23:59:59.123-05:30'])
      expect(accepts(schema, { [field]: v }), v).toBe(true);
    for (const v of ['2026-12-31', 'tomorrow', '2026-12-31 23:59:59'])
      expect(accepts(schema, { [field]: v }), v).toBe(false);
  });
});

describe('the printed verification code', () => {
  it.each(['0123-4567-89ab-CDEF', '0123456789abcdef', '0123-456789AB-cdef'])('accepts %j', (code) => {
    expect(accepts(VerificationCodeParams, { code })).toBe(true);
  });

  it.each([
    '0123-4567-89ab',
    '0123-4567-89ab-cdef-0',
    'x0123-4567-89ab-cdef',
    '0123-4567-89ab-cdeg',
    '0123--4567-89ab-cdef',
  ])('refuses %j saying what is expected', (code) => {
    expect(details(VerificationCodeParams, { code })).toEqual([
      { path: 'code', message: 'expected the verification code printed on the certificate' },
    ]);
  });
});

describe('the verification link of a certificate PDF', () => {
  it.each([
    ['https://compliance.example.com/sdk/v1', true],
    ['http://localhost:8080/sdk/v1', true],
    [undefined, true],
    ['ftp://example.com/sdk/v1', false],
    ['httpss://example.com', false],
    ['xhttp://example.com', false],
    ['javascript:alert(1)', false],
    ['example.com', false],
  ])('%j: %s', (verify_url, ok) => {
    expect(accepts(CertificatePdfQuery, { verify_url })).toBe(ok);
  });
});
