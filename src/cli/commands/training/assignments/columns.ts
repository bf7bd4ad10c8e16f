import type { Assignment } from '../../../../domain/training/training.schema.js';
import type { Column } from '../../../output.js';

export const assignmentColumns: Column<Assignment>[] = [
  { header: 'ID', value: (a) => a.id, id: true },
  { header: 'USER', value: (a) => a.user_name },
  { header: 'MODULE', value: (a) => a.module_code },
  { header: 'STATUS', value: (a) => a.status },
  { header: 'PROGRESS', value: (a) => `${a.progress_percent}%` },
  { header: 'DEADLINE', value: (a) => a.deadline.slice(0, 10) },
  { header: 'LEVEL', value: (a) => a.escalation_level },
  { header: 'QUIZ', value: (a) => (a.quiz_passed ? 'passed' : '-') },
];

/** One assignment as the lines of a record: every field. */
export const assignmentPairs = (a: Assignment): Array<[string, unknown]> => Object.entries(a);
