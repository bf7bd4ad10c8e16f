import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors.js';
import {
  addDays,
  certificatePayload,
  daysOverdue,
  derivedStatus,
  escalationLabel,
  escalationLevel,
  escalationStep,
  scoreQuiz,
  verificationCode,
  verificationUrl,
} from '../../src/domain/training/training.rules.js';
import { refusal } from '../support/refusal.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const at = (days: number, ms = 0) => new Date(NOW.getTime() + days * 86_400_000 + ms).toISOString();

describe('derivedStatus: overdue and expired come from the clock', () => {
  it.each([
    // stored status, deadline, valid_until, expected
    ['pending', at(1), null, 'pending'],
    ['in_progress', at(1), null, 'in_progress'],
    ['pending', at(0), null, 'pending'], // a deadline equal to now is not yet passed
    ['pending', at(0, -1), null, 'overdue'],
    ['in_progress', at(-3), null, 'overdue'],
    ['completed', at(-100), at(10), 'completed'], // a passed deadline does not matter once completed
    ['completed', at(-100), at(0), 'completed'],
    ['completed', at(-400), at(0, -1), 'expired'],
    ['completed', at(-400), null, 'completed'],
  ] as const)('%s, deadline %s, valid until %s -> %s', (status, deadline, valid_until, expected) => {
    expect(derivedStatus({ status, deadline, valid_until }, NOW)).toBe(expected);
  });
});

describe('daysOverdue: whole days since the deadline', () => {
  it.each([
    [at(2), 0],
    [at(0), 0],
    [at(0, -1), 0],
    [at(-1, 1), 0],
    [at(-1), 1],
    [at(-6, -86_399_000), 6],
    [at(-7), 7],
    [at(-45), 45],
  ])('deadline %s -> %i', (deadline, days) => {
    expect(daysOverdue(deadline, NOW)).toBe(days);
  });
});

describe('escalation stages 7/14/30/45', () => {
  it.each([
    [0, 0, 'none'],
    [6, 0, 'none'],
    [7, 1, 'reminder_employee'],
    [13, 1, 'reminder_employee'],
    [14, 2, 'notify_team_lead'],
    [29, 2, 'notify_team_lead'],
    [30, 3, 'notify_management'],
    [44, 3, 'notify_management'],
    [45, 4, 'notify_compliance_officer'],
    [400, 4, 'notify_compliance_officer'],
  ])('%i days overdue -> level %i (%s)', (days, level, label) => {
    expect(escalationLevel(days)).toBe(level);
    expect(escalationLabel(level)).toBe(label);
  });

  it.each([
    // current level, days overdue, step
    [0, 3, null],
    [0, 7, { level: 1, label: 'reminder_employee' }],
    [0, 50, { level: 4, label: 'notify_compliance_officer' }], // stages can be skipped when the check runs rarely
    [1, 10, null],
    [1, 14, { level: 2, label: 'notify_team_lead' }],
    [3, 20, null], // never down (deadline moved or an earlier as_of)
    [4, 100, null],
  ])('level %i at %i days -> %j', (current, days, step) => {
    expect(escalationStep(current, days)).toEqual(step);
  });
});

describe('scoreQuiz', () => {
  const q = (id: string, correct: number, n = 3) => ({
    id,
    options: Array.from({ length: n }, (_, i) => `o${i}`),
    correct_index: correct,
  });
  const three = [q('a', 0), q('b', 1), q('c', 2)];
  const ans = (...pairs: Array<[string, number]>) =>
    pairs.map(([question_id, selected_index]) => ({ question_id, selected_index }));

  it.each([
    // questions, answers, threshold, score, passed, correct
    [three, ans(['a', 0], ['b', 1], ['c', 2]), 70, 100, true, 3],
    [three, ans(['a', 0], ['b', 1], ['c', 0]), 70, 66.7, false, 2],
    [three, ans(['a', 0]), 30, 33.3, true, 1], // unanswered count as wrong
    [three, [], 0, 0, true, 0], // threshold 0 passes everyone
    [three, ans(['a', 1], ['b', 0], ['c', 0]), 0, 0, true, 0],
    [
      [q('a', 0), q('b', 0), q('c', 0), q('d', 0), q('e', 0)],
      ans(['a', 0], ['b', 0], ['c', 0], ['d', 1]),
      60,
      60,
      true,
      3,
    ], // equal to threshold passes
    [[q('a', 0), q('b', 0), q('c', 0), q('d', 0), q('e', 0)], ans(['a', 0], ['b', 0], ['c', 1]), 60, 40, false, 2],
    [
      Array.from({ length: 7 }, (_, i) => q(`q${i}`, 0)),
      ans(['q0', 0], ['q1', 0], ['q2', 0], ['q3', 0], ['q4', 0]),
      70,
      71.4,
      true,
      5,
    ],
    [[q('a', 0)], ans(['a', 0]), 100, 100, true, 1],
  ] as const)('case %#: score %d', (questions, answers, threshold, score, passed, correct) => {
    expect(scoreQuiz([...questions], [...answers], threshold)).toEqual({
      score,
      passed,
      correct_count: correct,
      total_count: questions.length,
      threshold,
    });
  });

  it.each([
    [ans(['zzz', 0]), 'answers.0.question_id', /unknown question zzz/],
    [ans(['a', 0], ['b', 3]), 'answers.1.selected_index', /must be 0 to 2/],
    [ans(['a', 0], ['a', 1]), 'answers.1.question_id', /answered twice/],
  ])('refuses %j with a 422 on %s', (answers, path, message) => {
    let e: unknown;
    try {
      scoreQuiz(three, answers, 70);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe('validation');
    expect((e as DomainError).details[0]).toMatchObject({ path });
    expect((e as DomainError).message).toMatch(message);
  });

  it('names every wrong answer in one refusal', () => {
    const e = refusal(() => scoreQuiz(three, ans(['a', 0], ['zzz', 1], ['b', 3], ['a', 2]), 70)) as DomainError;
    expect(e.message).toBe(
      'invalid answers: answers.1.question_id: unknown question zzz for this module; ' +
        'answers.2.selected_index: must be 0 to 2; answers.3.question_id: answered twice',
    );
    expect(e.details).toEqual([
      { path: 'answers.1.question_id', message: 'unknown question zzz for this module' },
      { path: 'answers.2.selected_index', message: 'must be 0 to 2' },
      { path: 'answers.3.question_id', message: 'answered twice' },
    ]);
  });

  it('a module without questions cannot be scored (409)', () => {
    expect(() => scoreQuiz([], [], 70)).toThrow(
      expect.objectContaining({ code: 'conflict', message: 'this module has no quiz questions yet' }),
    );
  });
});

describe('certificates', () => {
  const cert = {
    id: 'c',
    tenant_id: 't',
    assignment_id: 'a',
    user_id: 'u',
    user_name: 'Erika',
    module_id: 'm',
    module_code: 'X',
    module_title: 'Y',
    score: 90,
    issued_at: 'i',
    valid_until: 'v',
  };
  it.each(Object.keys(cert))('the signed payload covers %s', (field) => {
    expect(certificatePayload({ ...cert, [field]: 'changed' })).not.toBe(certificatePayload(cert));
  });
  it('ignores fields outside the certificate (signature, verification code)', () => {
    expect(certificatePayload({ ...cert, signature: 'x', verification_code: 'y' })).toBe(certificatePayload(cert));
  });
  it('derives a grouped verification code from the signature', () => {
    expect(verificationCode('0123456789abcdef0123')).toBe('0123-4567-89AB-CDEF');
  });
  it('adds whole days in UTC', () => {
    expect(addDays('2026-01-31T10:00:00.000Z', 30)).toBe('2026-03-02T10:00:00.000Z');
    expect(addDays(new Date('2026-01-31T10:00:00.123Z'), 1)).toBe('2026-02-01T10:00:00.123Z'); // from the clock, to the ms
  });
});

describe('the verification URL of a certificate', () => {
  it.each([
    [
      'http://h:8765/sdk/v1/training/certificates/verify/F994-85E9-B7AC-F69B?tenant_id=acme',
      'F994-85E9-B7AC-F69B',
      'acme',
    ],
    [
      'https://verify.example.com/x/sdk/v1/training/certificates/verify/f99485e9b7acf69b/',
      'f99485e9b7acf69b',
      'default',
    ],
    ['HTTPS://h/training/certificates/verify/F994-85E9-B7AC-F69B?tenant_id=&x=1', 'F994-85E9-B7AC-F69B', 'default'],
    [' http://h/training/certificates/verify/F994%2D85E9-B7AC-F69B?tenant_id=a%20b ', 'F994-85E9-B7AC-F69B', 'a b'],
  ])('%s holds code %s of tenant %s', (url, code, tenant) => {
    expect(verificationUrl(url)).toEqual({ code, tenant });
  });

  it.each([
    'F994-85E9-B7AC-F69B',
    '01a21569-54d4-7005-af9d-940a94b25c8b',
    'ftp://h/training/certificates/verify/F994-85E9-B7AC-F69B',
  ])('leaves %s to be read as a code or an id', (input) => expect(verificationUrl(input)).toBeUndefined());

  it.each([
    'http://h/sdk/v1/training/certificates',
    'http://h/training/certificates/verify/F994-85E9',
    'http://h/training/certificates/verify/F994-85E9-B7AC-F69B/pdf',
    'http://[bad',
  ])('refuses %s, naming the form it expects', (url) => {
    expect(() => verificationUrl(url)).toThrow(
      expect.objectContaining({
        code: 'bad_request',
        message: expect.stringContaining('expected …/training/certificates/verify/CODE?tenant_id=TENANT'),
      }),
    );
  });
});
