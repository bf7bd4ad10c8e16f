// The header row of a consents import: which field each column feeds, and the headers a person has to fix before a
// single row is read (exit 2 on the CLI, 400 on the API), each refused with a message that says what to do.
import { describe, expect, it } from 'vitest';
import { resolveHeader } from '../../src/domain/consents/import-header.js';
import { refusal } from '../support/refusal.js';

const none = new Map<string, string>();

describe('the header row of an import', () => {
  it('gives each column its field, ignoring unknown columns, case, spaces and a byte order mark', () => {
    expect(resolveHeader(['\uFEFFUser_ID', ' data_point_id ', 'Granted', 'comment', 'granted_at'], none)).toEqual([
      'user_id',
      'data_point_id',
      'granted',
      undefined,
      'granted_at',
    ]);
  });

  it('maps other column names to fields', () => {
    const map = new Map([
      ['kunde', 'user_id'],
      ['zweck', 'data_point_id'],
    ]);
    expect(resolveHeader(['Kunde', 'Zweck', 'granted'], map)).toEqual(['user_id', 'data_point_id', 'granted']);
  });

  it('refuses a name given twice, naming both columns', () => {
    const e = refusal(() => resolveHeader(['user_id', 'granted', 'data_point_id', 'User_ID'], none));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'the header row names column "user_id" twice (columns 1 and 4): rename one of them',
      [{ path: 'user_id', message: 'duplicate column name' }],
    ]);
  });

  it('allows several empty column names (a trailing delimiter)', () => {
    expect(resolveHeader(['user_id', 'data_point_id', 'granted', '', ''], none)).toEqual([
      'user_id',
      'data_point_id',
      'granted',
      undefined,
      undefined,
    ]);
  });

  it('refuses a mapping of a column the file lacks, listing the columns it has', () => {
    const map = new Map([
      ['kunde', 'user_id'],
      ['zweck', 'data_point_id'],
    ]);
    const e = refusal(() => resolveHeader(['user_id', 'data_point_id', 'granted'], map));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'the file has no column "kunde", "zweck" to map (map kunde=user_id, zweck=data_point_id); ' +
        'its columns are: user_id, data_point_id, granted',
      [
        { path: 'map', message: 'no column "kunde" in the header row' },
        { path: 'map', message: 'no column "zweck" in the header row' },
      ],
    ]);
  });

  it('refuses two columns for one field', () => {
    const map = new Map([['kunde', 'user_id']]);
    const e = refusal(() => resolveHeader(['user_id', 'kunde', 'data_point_id', 'granted'], map));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'columns "user_id" and "kunde" both give user_id: map only one of them',
      [{ path: 'user_id', message: 'two columns for one field' }],
    ]);
  });

  it('refuses a header without a required field, naming each missing one', () => {
    const e = refusal(() => resolveHeader(['user_id', 'comment'], none));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'missing required column(s) data_point_id, granted in the header row; found: user_id, comment; ' +
        'map other names with --map column=field',
      [
        { path: 'data_point_id', message: 'required column' },
        { path: 'granted', message: 'required column' },
      ],
    ]);
  });

  it.each([';', ',', '\t', '|'])('asks about the delimiter when the whole header is one column with %j in it', (d) => {
    const e = refusal(() => resolveHeader([['user_id', 'data_point_id', 'granted'].join(d)], none));
    expect(e.message).toContain('(is the delimiter right? see --delimiter)');
  });

  it('does not ask about the delimiter when there are several columns or none of those characters', () => {
    expect(refusal(() => resolveHeader(['user_id;x', 'comment'], none)).message).not.toContain('delimiter');
    expect(refusal(() => resolveHeader(['user_id'], none)).message).not.toContain('delimiter');
  });
});
