import { operationVerb } from '../../../operation-verb.js';
import { printList } from '../../../output.js';

/** The verbs of `training quiz` that call one operation and print its answer. */
export const attempts = operationVerb({
  area: 'training',
  operation: 'attempts',
  name: 'attempts',
  description: 'quiz attempts of an assignment, newest first',
  args: [['<assignment-id>', 'assignmentId']],
  print: (ctx, rows) =>
    printList(
      ctx,
      rows,
      [
        { header: 'WHEN', value: (x) => x.created_at },
        { header: 'SCORE', value: (x) => `${x.score}%` },
        { header: 'PASSED', value: (x) => (x.passed ? 'yes' : 'no') },
        { header: 'CORRECT', value: (x) => `${x.correct_count}/${x.total_count}` },
      ],
      { empty: 'no attempts yet' },
    ),
});
