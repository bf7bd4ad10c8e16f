import { describe, expect, it } from 'vitest';
import { CONSENT_ROW_RULES } from '../../src/domain/consents/consent.row-rules.js';
import { COOKIE_BANNER_ROW_RULES } from '../../src/domain/cookie-banner/cookie-banner.row-rules.js';
import { DSFA_ROW_RULES } from '../../src/domain/dsfa/dsfa.row-rules.js';
import { LEGAL_DOCUMENT_ROW_RULES } from '../../src/domain/legal-documents/legal-document.row-rules.js';
import { ROW_RULES } from '../../src/domain/sync/row-rules.js';
import type { SyncRow } from '../../src/domain/sync/version.js';
import { BLOCK_ROW_RULES } from '../../src/domain/training-blocks/block.row-rules.js';
import { CONTENT_ROW_RULES } from '../../src/domain/training/content.row-rules.js';
import { TRAINING_ROW_RULES } from '../../src/domain/training/training.row-rules.js';
import { idOf, NOW, refusal, rows, T0, T1 } from '../support/sync-rows.js';

// What a pushed or imported row of each table may say, column by column, stated here table by table (not read from
// the rules, so that a column dropped from a rule fails): the columns a record keeps for life, the times that may not
// lie in the future, the records it names, the values each column takes.

/** A change of one column of a valid row, as the door answers it (undefined: accepted). */
const change = (entity: keyof typeof rows, o: SyncRow, held = HELD) => {
  const before = rows[entity]();
  return refusal(held, { entity, before, after: { ...before, ...o } });
};
/** A new row with some columns set, as the door answers it. */
const insert = (entity: keyof typeof rows, o: SyncRow, held = HELD) =>
  refusal(held, { entity, before: null, after: rows[entity](o) });
const name = (entity: keyof typeof rows, o: SyncRow = {}) => `${entity} ${idOf(entity, rows[entity](o))}`;

const escape = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

const LATE = new Date(NOW.getTime() + 3_600_000).toISOString();
const EARLIER = '2026-04-01T00:00:00.000Z';
const DONE = { status: 'completed', progress_percent: 100, quiz_passed: 1, started_at: T0, completed_at: T1 };

/** What the tenant holds: a record of each table the others name. */
const HELD: Record<string, SyncRow[]> = {
  dsfa: [rows.dsfa()],
  consent: [rows.consent()],
  consent_import_run: [rows.consent_import_run()],
  legal_document: [rows.legal_document()],
  training_module: [rows.training_module()],
  training_assignment: [rows.training_assignment({ ...DONE, valid_until: '2027-05-10T10:00:00.000Z' })],
  training_certificate: [rows.training_certificate()],
  training_content: [rows.training_content()],
  training_block: [rows.training_block()],
};

describe('the rules of the tables', () => {
  it("are kept by each area for its own tables, and the door's are all of them", () => {
    const areas = {
      dsfa: [DSFA_ROW_RULES, ['dsfa_setting', 'dsfa', 'dsfa_audit']],
      consents: [CONSENT_ROW_RULES, ['consent', 'consent_history', 'consent_import_run']],
      legal: [LEGAL_DOCUMENT_ROW_RULES, ['legal_document', 'legal_document_version']],
      banner: [COOKIE_BANNER_ROW_RULES, ['cookie_banner']],
      training: [
        TRAINING_ROW_RULES,
        [
          'training_module',
          'training_question',
          'training_matrix',
          'training_assignment',
          'training_quiz_attempt',
          'training_certificate',
          'training_audit',
        ],
      ],
      content: [CONTENT_ROW_RULES, ['training_content', 'training_media']],
      blocks: [BLOCK_ROW_RULES, ['training_canonical_control', 'training_block', 'training_block_control']],
    } as const;
    for (const [area, [rules, tables]] of Object.entries(areas)) expect(Object.keys(rules), area).toEqual(tables);
    for (const [rules] of Object.values(areas))
      for (const [table, rule] of Object.entries(rules)) expect(ROW_RULES[table], table).toBe(rule);
    expect(Object.keys(ROW_RULES)).toHaveLength(Object.values(areas).flatMap(([, t]) => t).length);
  });
});

describe('the columns a record keeps for life', () => {
  // the journal key and the tenant are not listed: a row that changes them names another record or tenant
  const FIXED: Array<[keyof typeof rows, SyncRow]> = [
    ['dsfa', { created_by: 'mallory', created_at: '2026-04-01T00:00:00.000' }],
    [
      'consent',
      {
        user_id: 'u2',
        data_point_id: 'ads',
        granted: 0,
        granted_at: T1,
        created_at: T1,
        source: 'import',
        ip_address: '10.0.0.1',
        user_agent: 'curl/8',
        import_run_id: 'r1',
        banner_revision: 'abcdef12',
        policy_version_id: 'pv2',
        policy_content_hash: 'c'.repeat(64),
      },
    ],
    [
      'consent_import_run',
      {
        file_name: 'other.csv',
        sha256: 'c'.repeat(64),
        format: 'ndjson',
        options: '{"delimiter":";"}',
        created_by: 'eve',
        started_at: EARLIER,
      },
    ],
    ['legal_document', { title: 'AGB', document_type: 'terms', language: 'en', created_at: EARLIER }],
    [
      'legal_document_version',
      {
        document_id: 'doc2',
        version_number: 2,
        title: 'Neu',
        content: 'Neu',
        change_summary: 'anders',
        created_by: 'eve',
        created_at: EARLIER,
      },
    ],
    ['training_block', { created_at: EARLIER }],
    ['training_module', { created_at: EARLIER }],
    ['training_question', { module_id: 'm2' }],
    ['training_assignment', { module_id: 'm2', user_id: 'u-2', role_code: 'R1', created_at: EARLIER }],
    ['training_content', { module_id: 'm2', version: 2, language: 'en', markdown: '# Neu', created_at: EARLIER }],
    [
      'training_media',
      {
        module_id: 'm2',
        content_id: 'ct1',
        kind: 'video',
        bucket: 'elsewhere',
        object_key: 'x/y.m4a',
        content_type: 'audio/mpeg',
        size_bytes: 11,
        created_at: EARLIER,
      },
    ],
  ];
  for (const [entity, columns] of FIXED)
    it(`${entity}: ${Object.keys(columns).join(', ')}`, async () => {
      for (const [column, value] of Object.entries(columns))
        expect(await change(entity, { [column]: value }), column).toBe(
          `${name(entity)} cannot change ${column}: it is fixed once the record is written`,
        );
    });
});

describe('the times a sender sets, none in the future', () => {
  const TIMES: Array<[keyof typeof rows, string[]]> = [
    ['dsfa_setting', ['updated_at']],
    ['dsfa', ['created_at', 'updated_at', 'approved_at']],
    ['dsfa_audit', ['created_at']],
    ['consent', ['created_at']],
    ['consent_history', ['created_at']],
    ['consent_import_run', ['started_at', 'finished_at', 'reverted_at']],
    ['legal_document', ['created_at', 'updated_at']],
    ['legal_document_version', ['created_at', 'updated_at', 'approved_at', 'published_at']],
    ['cookie_banner', ['updated_at']],
    ['training_canonical_control', ['updated_at']],
    ['training_block', ['created_at', 'updated_at', 'last_generated_at']],
    ['training_module', ['created_at', 'updated_at']],
    ['training_matrix', ['created_at']],
    ['training_assignment', ['created_at', 'updated_at', 'started_at', 'completed_at']],
    ['training_quiz_attempt', ['created_at']],
    ['training_certificate', ['issued_at']],
    ['training_audit', ['created_at']],
    ['training_content', ['created_at', 'published_at']],
    ['training_media', ['created_at', 'published_at']],
  ];
  for (const [entity, columns] of TIMES)
    it(`${entity}: ${columns.join(', ')}`, async () => {
      for (const column of columns)
        expect(await insert(entity, { [column]: LATE }), column).toBe(
          `${name(entity)}: ${column} lies in the future (more than 5 minutes after ${NOW.toISOString()})`,
        );
    });

  it('a deadline and a validity lie ahead', async () => {
    expect(await insert('training_assignment', { deadline: LATE })).toBeUndefined();
    const attempt = { ...HELD, training_quiz_attempt: [rows.training_quiz_attempt()] };
    expect(await change('training_assignment', { ...DONE, valid_until: LATE }, attempt)).toBeUndefined();
    expect(await insert('training_certificate', { valid_until: LATE })).toBeUndefined();
  });
});

describe('the records a row names, held by the tenant or written in the same batch', () => {
  const REFS: Array<[keyof typeof rows, Array<[column: string, entity: string]>]> = [
    ['consent', [['import_run_id', 'consent_import_run']]],
    [
      'consent_history',
      [
        ['consent_id', 'consent'],
        ['import_run_id', 'consent_import_run'],
      ],
    ],
    ['legal_document_version', [['document_id', 'legal_document']]],
    [
      'training_block_control',
      [
        ['block_id', 'training_block'],
        ['module_id', 'training_module'],
      ],
    ],
    ['training_question', [['module_id', 'training_module']]],
    ['training_matrix', [['module_id', 'training_module']]],
    [
      'training_assignment',
      [
        ['module_id', 'training_module'],
        ['certificate_id', 'training_certificate'],
      ],
    ],
    [
      'training_quiz_attempt',
      [
        ['assignment_id', 'training_assignment'],
        ['module_id', 'training_module'],
      ],
    ],
    [
      'training_certificate',
      [
        ['assignment_id', 'training_assignment'],
        ['module_id', 'training_module'],
      ],
    ],
    ['training_content', [['module_id', 'training_module']]],
    [
      'training_media',
      [
        ['module_id', 'training_module'],
        ['content_id', 'training_content'],
      ],
    ],
  ];
  for (const [entity, refs] of REFS)
    it(`${entity}: ${refs.map(([c]) => c).join(', ')}`, async () => {
      for (const [column, target] of refs) {
        const o = { [column]: 'gone' };
        expect(await insert(entity, o), column).toBe(
          `${name(entity, o)} names ${target} gone (${column}), which this tenant does not hold`,
        );
      }
    });
});

describe('the values of the columns, as the API takes them', () => {
  /** Per table: values a column refuses, and values of other columns it takes. */
  const REFUSED: Array<[keyof typeof rows, SyncRow]> = [
    ['dsfa', { created_by: 'x'.repeat(321) }],
    ['consent_import_run', { sha256: 'A'.repeat(64), read: -1, rejected: -1 }],
    [
      'legal_document_version',
      { version_number: 0, change_summary: 'x'.repeat(2001), comment: 'x'.repeat(2001), status: 'hacked' },
    ],
    ['legal_document', { status: 'archived' }],
    ['training_block_control', { position: -1 }],
    ['training_question', { position: -1, options: 'not json', correct_index: 2 }],
    [
      'training_assignment',
      { progress_percent: 101, escalation_level: 5, manager_email: 'nobody', user_email: 'x', status: 'PENDING' },
    ],
    ['training_quiz_attempt', { total_count: 0, correct_count: -1, duration_seconds: -1, answers: 'x' }],
    ['training_certificate', { signature: 'z'.repeat(64), score: 101 }],
    ['training_content', { version: 0, language: 'x'.repeat(36) }],
    ['training_media', { content_type: 'text/html', size_bytes: -1, duration_seconds: -0.5 }],
  ];
  for (const [entity, columns] of REFUSED)
    it(`${entity} refuses: ${Object.keys(columns).join(', ')}`, async () => {
      for (const [column, value] of Object.entries(columns))
        expect(await insert(entity, { [column]: value }), column).toMatch(
          new RegExp(`^${escape(name(entity))} does not fit its table: ${column}(\\.\\d+)?: `),
        );
    });

  it('hashes and signatures are lower-case hexadecimal of their full length, nothing around them', async () => {
    for (const sha256 of ['a'.repeat(63), `x${'a'.repeat(64)}`, `${'a'.repeat(64)}x`])
      expect(await insert('consent_import_run', { sha256 }), sha256).toMatch(/does not fit its table: sha256: /);
    expect(await insert('consent_import_run', { sha256: null })).toBeUndefined();
    for (const signature of [`x${'b'.repeat(64)}`, `${'b'.repeat(64)}x`, 'b'.repeat(63)])
      expect(await insert('training_certificate', { signature }), signature).toBe(
        `${name('training_certificate')} does not fit its table: signature: an HMAC-SHA-256 as 64 hexadecimal digits`,
      );
  });

  it('a medium is audio or video, by its media type', async () => {
    for (const content_type of ['xaudio/mp4', 'audio/mp4 x', 'audio/', 'image/png'])
      expect(await insert('training_media', { content_type }), content_type).toBe(
        `${name('training_media')} does not fit its table: content_type: an audio/… or video/… media type`,
      );
    for (const content_type of ['audio/mpeg', 'video/mp4', 'audio/x-m4a+a.1'])
      expect(await insert('training_media', { content_type }), content_type).toBeUndefined();
  });

  it('takes every value in range, and null where a column is optional', async () => {
    const taken: Array<[keyof typeof rows, SyncRow]> = [
      ['consent_import_run', { read: 0, created: 0, unchanged: 3, revoked: 0, renewed: 4, rejected: 5 }],
      ['legal_document_version', { version_number: 3, change_summary: 'x'.repeat(2000), created_by: null }],
      ['legal_document_version', { comment: 'x'.repeat(2000) }],
      ['training_block_control', { position: 7 }],
      ['training_question', { position: 3, options: '["a","b","c"]', correct_index: 2 }],
      ['training_assignment', { escalation_level: 4, role_code: null, manager_email: 'chef@example.com' }],
      ['training_assignment', { status: 'in_progress', started_at: T1, progress_percent: 50 }],
      ['training_content', { version: 2, language: 'x'.repeat(35) }],
      ['training_media', { size_bytes: 0, duration_seconds: 0 }],
      ['training_media', { content_id: 'ct1' }],
      ['training_quiz_attempt', { duration_seconds: 0 }],
      ['training_quiz_attempt', { duration_seconds: 95 }],
    ];
    for (const [entity, o] of taken) expect(await insert(entity, o), `${entity} ${JSON.stringify(o)}`).toBeUndefined();
  });
});
