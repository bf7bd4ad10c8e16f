import { DomainError } from '../errors.js';
import { ESCALATION_STAGES } from './training.values.js';

const DAY = 86_400_000;

/** The status a reader sees: overdue and expired are derived from the clock, never stored (decisions.md). */
export function derivedStatus(
  a: { status: string; deadline: string; valid_until: string | null },
  now: Date,
): 'pending' | 'in_progress' | 'completed' | 'overdue' | 'expired' {
  if (a.status === 'completed')
    return a.valid_until && Date.parse(a.valid_until) < now.getTime() ? 'expired' : 'completed';
  if (Date.parse(a.deadline) < now.getTime()) return 'overdue';
  return a.status === 'in_progress' ? 'in_progress' : 'pending';
}

/** Whole days since the deadline (0 before it). */
export const daysOverdue = (deadline: string, now: Date): number =>
  Math.max(0, Math.floor((now.getTime() - Date.parse(deadline)) / DAY));

/** The escalation level a number of overdue days reaches: 1 at 7, 2 at 14, 3 at 30, 4 at 45. */
export function escalationLevel(days: number): number {
  let level = 0;
  for (const s of ESCALATION_STAGES) if (days >= s.days) level = s.level;
  return level;
}

export const escalationLabel = (level: number): string =>
  ESCALATION_STAGES.find((s) => s.level === level)?.label ?? 'none';

/**
 * One escalation step: the level an overdue assignment moves to, or null when it stays where it is. A level never goes
 * down, so a deadline moved later (or an earlier `as_of`) leaves a raised level alone.
 */
export function escalationStep(currentLevel: number, days: number): { level: number; label: string } | null {
  const level = escalationLevel(days);
  return level > currentLevel ? { level, label: escalationLabel(level) } : null;
}

/**
 * The level an assignment has after its deadline moved to `deadline` at `at`: a later deadline is a new situation,
 * so the level falls to what the new deadline reaches then; it never rises by a move (escalation raises it).
 */
export const levelAfterDeadline = (level: number, deadline: string, at: Date): number =>
  Math.min(level, escalationLevel(daysOverdue(deadline, at)));

/** The statuses an assignment is stored with (overdue and expired are derived) and the step each may take. */
export const STORED_STATUS_STEPS = { pending: 'in_progress', in_progress: 'completed', completed: null } as const;
export type StoredStatus = keyof typeof STORED_STATUS_STEPS;

/** Why a certificate may not be issued for an assignment (null: it may): it needs completion and a passed quiz. */
export function certificateProblem(a: { id: string; status: string; quiz_passed: boolean }): string | null {
  if (a.status === 'completed' && a.quiz_passed) return null;
  return `assignment ${a.id} is ${a.status}${a.quiz_passed ? '' : ' and its quiz is not passed'}; a certificate needs a completed assignment with a passed quiz`;
}

/** Why a module may not be deleted (null: it may): its assignments would lose their module. */
export const moduleDeletionProblem = (id: string, assignments: number): string | null =>
  assignments > 0 ? `module ${id} has ${assignments} assignment(s) and cannot be deleted` : null;

/** A quiz's score from its counts: 100 × correct / all questions, one decimal; passed iff score >= threshold. */
export function quizScore(correct: number, total: number, threshold: number): { score: number; passed: boolean } {
  const score = Math.round((1000 * correct) / total) / 10;
  return { score, passed: score >= threshold };
}

export const addDays = (iso: string | Date, days: number): string =>
  new Date((typeof iso === 'string' ? Date.parse(iso) : iso.getTime()) + days * DAY).toISOString();

/**
 * Scores a quiz: 100 × correct / all questions, one decimal; unanswered questions count as wrong; passed iff
 * score >= threshold. An unknown question id or an index outside the options is refused (422).
 */
export function scoreQuiz(
  questions: Array<{ id: string; options: string[]; correct_index: number }>,
  answers: Array<{ question_id: string; selected_index: number }>,
  threshold: number,
): { score: number; passed: boolean; correct_count: number; total_count: number; threshold: number } {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const details = answers.flatMap((a, i) => {
    const q = byId.get(a.question_id);
    if (!q) return [{ path: `answers.${i}.question_id`, message: `unknown question ${a.question_id} for this module` }];
    if (a.selected_index >= q.options.length)
      return [{ path: `answers.${i}.selected_index`, message: `must be 0 to ${q.options.length - 1}` }];
    return [];
  });
  const dup = answers.findIndex((a, i) => answers.findIndex((b) => b.question_id === a.question_id) !== i);
  if (dup >= 0) details.push({ path: `answers.${dup}.question_id`, message: 'answered twice' });
  if (details.length)
    throw new DomainError(
      'validation',
      `invalid answers: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
      details,
    );
  if (questions.length === 0) throw new DomainError('conflict', 'this module has no quiz questions yet');
  const correct = answers.filter((a) => byId.get(a.question_id)!.correct_index === a.selected_index).length;
  return {
    ...quizScore(correct, questions.length, threshold),
    correct_count: correct,
    total_count: questions.length,
    threshold,
  };
}

/** The fields a certificate signature covers, in a fixed order, so any edit breaks verification. */
export const certificatePayload = (c: Record<string, unknown>): string =>
  JSON.stringify(
    [
      'id',
      'tenant_id',
      'assignment_id',
      'user_id',
      'user_name',
      'module_id',
      'module_code',
      'module_title',
      'score',
      'issued_at',
      'valid_until',
    ].map((k) => c[k]),
  );

/** A printed verification code: the first 16 hex digits of a certificate's signature, in groups of four or not. */
export const VERIFICATION_CODE = /^[0-9a-f]{4}(?:-?[0-9a-f]{4}){3}$/i;

/**
 * The code and tenant in a certificate's verification URL, as its QR code holds it
 * (`https://host/sdk/v1/training/certificates/verify/F994-85E9-B7AC-F69B?tenant_id=acme`); the tenant is `default`
 * when the URL names none, as on the public route. Undefined for anything that is not an http(s) URL; a URL that
 * does not point at a verification route is refused, naming the form expected.
 */
export function verificationUrl(input: string): { code: string; tenant: string } | undefined {
  if (!/^https?:\/\//i.test(input.trim())) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(input.trim());
  } catch {
    url = undefined;
  }
  const code = url && /\/training\/certificates\/verify\/([^/]+)\/?$/.exec(url.pathname)?.[1];
  if (!url || !code || !VERIFICATION_CODE.test(decodeURIComponent(code)))
    throw new DomainError(
      'bad_request',
      `${input} is not the verification URL of a certificate: expected …/training/certificates/verify/CODE?tenant_id=TENANT`,
      [{ path: 'id-or-code', message: 'a certificate id, its verification code, or the URL in its QR code' }],
    );
  return { code: decodeURIComponent(code), tenant: url.searchParams.get('tenant_id') || 'default' };
}

/** A short code printed on the certificate and in its QR code: the first 16 hex digits of the signature. */
export const verificationCode = (signature: string): string =>
  signature.slice(0, 16).toUpperCase().match(/.{4}/g)!.join('-');
