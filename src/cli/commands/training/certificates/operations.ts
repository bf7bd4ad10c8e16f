import { operationVerb } from '../../../operation-verb.js';
import { printList, printRecord } from '../../../output.js';

/** The verbs of `training certificates` that call one operation and print its answer. */
export const generate = operationVerb({
  area: 'training',
  operation: 'generateCertificate',
  name: 'generate',
  description: 'issue the certificate of a completed assignment with a passed quiz',
  args: [['<assignment-id>', 'assignmentId']],
  writes: true,
  print: (ctx, r) =>
    printRecord(ctx, r, [
      ['certificate_id', r.certificate_id],
      ['verification_code', r.verification_code],
      ['assignment', r.assignment.id],
      ['module', r.assignment.module_title],
    ]),
});

export const list = operationVerb({
  area: 'training',
  operation: 'certificates',
  name: 'list',
  description: 'list certificates, newest first',
  print: (ctx, rows) =>
    printList(
      ctx,
      rows,
      [
        { header: 'ID', value: (c) => c.id, id: true },
        { header: 'USER', value: (c) => c.user_name },
        { header: 'MODULE', value: (c) => c.module_code },
        { header: 'SCORE', value: (c) => `${c.score}%` },
        { header: 'ISSUED', value: (c) => c.issued_at.slice(0, 10) },
        { header: 'VALID UNTIL', value: (c) => c.valid_until.slice(0, 10) },
        { header: 'CODE', value: (c) => c.verification_code },
      ],
      { empty: 'no certificates' },
    ),
});
