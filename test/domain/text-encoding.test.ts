// The bytes of an import file turned into text: UTF-8 by default, the encoding asked for or the one a byte order mark
// names; a file in another encoding, a workbook or a contradicting mark is refused before anything is written, with a
// message that names the line, the byte and the encoding to use.
import { describe, expect, it } from 'vitest';
import {
  encodeText,
  encodingOf,
  firstInvalidUtf8,
  guessEncoding,
  ImportDecoder,
  type ImportEncoding,
} from '../../src/domain/consents/text-encoding.js';
import { refusal } from '../support/refusal.js';

const bytes = (...b: number[]) => new Uint8Array(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Decodes the pieces in turn as an import does, the end included. */
function decodeAll(encoding: ImportEncoding | undefined, ...pieces: Uint8Array[]): string {
  const d = new ImportDecoder(encoding);
  return pieces.map((p) => d.decode(p)).join('') + d.end();
}

describe('the first byte that is not UTF-8', () => {
  it.each([
    ['ASCII', utf8('user;granted\n'), -1],
    ['two-byte letters', utf8('Müller, Straße'), -1],
    ['three-byte signs', utf8('€ „quoted“'), -1],
    ['a four-byte emoji', utf8('ok 👍'), -1],
    ['the lowest two-byte lead 0xC2', bytes(0xc2, 0xa0), -1],
    ['the highest ASCII byte 0x7F', bytes(0x41, 0x7f), -1],
    ['0x80 alone', bytes(0x41, 0x80), 1],
    ['an overlong lead 0xC1', bytes(0xc1, 0xbf), 0],
    ['0xC0', bytes(0x41, 0xc0, 0x80), 1],
    ['0xDF as the last two-byte lead', bytes(0xdf, 0xbf), -1],
    ['0xE0 as a three-byte lead', bytes(0xe0, 0xa0, 0x80), -1],
    ['0xEF as the last three-byte lead', bytes(0xef, 0xbf, 0xbf), -1],
    ['0xF0 as a four-byte lead', bytes(0xf0, 0x90, 0x80, 0x80), -1],
    ['0xF4 as the last four-byte lead', bytes(0xf4, 0x8f, 0xbf, 0xbf), -1],
    ['0xF5, never a lead', bytes(0x41, 0xf5, 0x80, 0x80, 0x80), 1],
    ['0xFF', bytes(0x41, 0x42, 0xff), 2],
    ['a windows-1252 ä', bytes(0x4d, 0xe4, 0x72, 0x7a), 1],
    ['a lead without its continuation', bytes(0x41, 0xc3, 0x41), 1],
    ['a three-byte lead with one bad continuation', bytes(0xe2, 0x82, 0x41), 0],
    ['a four-byte lead with a bad last continuation', bytes(0xf0, 0x9f, 0x91, 0x41), 0],
    ['a sequence cut by the end of the piece', bytes(0x41, 0xe2, 0x82), -1],
    ['a lead as the last byte', bytes(0x41, 0xc3), -1],
  ])('%s: %i', (_what, input, at) => {
    expect(firstInvalidUtf8(input)).toBe(at);
  });
});

describe('the likely encoding of a file that is not UTF-8', () => {
  it('is UTF-16 when more than every eighth byte is a zero in the odd places', () => {
    const utf16 = new Uint8Array(Buffer.from('user;granted', 'utf16le'));
    expect(guessEncoding(utf16)).toBe('utf-16le');
    // 2 zeros in 16 bytes is exactly an eighth: not enough
    expect(guessEncoding(bytes(0x41, 0, 0x41, 0, ...new Array(12).fill(0x41)))).toBe('windows-1252');
    expect(guessEncoding(bytes(0x41, 0, 0x41, 0, 0x41, 0, ...new Array(10).fill(0x41)))).toBe('utf-16le');
    // zeros in the even places say nothing
    expect(guessEncoding(bytes(0, 0x41, 0, 0x41, 0, 0x41, 0, 0x41))).toBe('windows-1252');
  });

  it('is windows-1252 otherwise', () => {
    expect(guessEncoding(bytes(0x4d, 0xe4, 0x72, 0x7a))).toBe('windows-1252');
  });
});

describe('decoding an import', () => {
  it('reads UTF-8 by default, dropping a byte order mark', () => {
    expect(decodeAll(undefined, utf8('\uFEFFuser;granted\nmüller;ja\n'))).toBe('user;granted\nmüller;ja\n');
    expect(decodeAll(undefined, utf8('user;granted\n'))).toBe('user;granted\n');
  });

  it('keeps a character split between pieces, and a mark split before the fourth byte', () => {
    const all = utf8('\uFEFFä;€\n');
    const pieces = [all.subarray(0, 1), all.subarray(1, 2), all.subarray(2, 4), all.subarray(4, 7), all.subarray(7)];
    expect(decodeAll(undefined, ...pieces)).toBe('ä;€\n');
  });

  it('reads a file shorter than four bytes at its end', () => {
    expect(decodeAll(undefined, utf8('a;b'))).toBe('a;b');
    expect(decodeAll('windows-1252', bytes(0xe4))).toBe('ä');
    expect(decodeAll(undefined)).toBe('');
  });

  it('passes text through (a body already decoded in process)', () => {
    const d = new ImportDecoder(undefined);
    expect(d.decode('user;granted\n')).toBe('user;granted\n');
    expect(d.end()).toBe('');
  });

  it('reads windows-1252, latin1 and UTF-16 when asked, or when a mark names it', () => {
    const text = 'Müller;€;„x“\n';
    expect(decodeAll('windows-1252', new Uint8Array(Buffer.from(text, 'latin1')))).toContain('Müller');
    expect(decodeAll('windows-1252', bytes(0x4d, 0xfc, 0x6c, 0x80, 0x84))).toBe('Mül€„');
    // latin1 proper: 0x80 is a control character there, not €
    expect(decodeAll('latin1', bytes(0x4d, 0xfc, 0x6c, 0x80))).toBe('Mül\u0080');
    const utf16 = new Uint8Array(Buffer.from('\uFEFFMüller;ja\n', 'utf16le'));
    expect(decodeAll(undefined, utf16)).toBe('Müller;ja\n');
    expect(decodeAll('utf-16le', utf16)).toBe('Müller;ja\n');
    expect(decodeAll('utf-16le', new Uint8Array(Buffer.from('ab', 'utf16le')))).toBe('ab');
  });

  it('names the encoding in use once it has started', () => {
    const d = new ImportDecoder(undefined);
    d.decode(new Uint8Array(Buffer.from('\uFEFFuser;granted', 'utf16le')));
    expect(d.encoding).toBe('utf-16le');
    const w = new ImportDecoder('latin1');
    w.decode(utf8('user;granted'));
    expect(w.encoding).toBe('latin1');
  });

  it('refuses a file that is not UTF-8, naming the byte, its line, the likely encoding and how to import it', () => {
    const e = refusal(() => decodeAll(undefined, utf8('user;granted\nanna;ja\n'), bytes(0x4d, 0xe4, 0x72, 0x7a)));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'the file is not valid UTF-8 (byte 0xE4 on line 3); 0xE4 is "ä" in windows-1252: it is probably windows-1252; ' +
        'import it with --encoding windows-1252 (API: ?encoding=windows-1252); nothing was imported',
      [{ path: 'encoding', message: 'not valid UTF-8; probably windows-1252' }],
    ]);
    const second = refusal(() => decodeAll(undefined, bytes(0x61, 0x3b, 0x62, 0x0a, 0x63, 0x0a, 0x4d, 0x80)));
    expect(second.message).toMatch(/^the file is not valid UTF-8 \(byte 0x80 on line 3\); 0x80 is "€" in windows-1252/);
  });

  it('refuses UTF-16 without a mark read as UTF-8, saying which encoding to give', () => {
    const e = refusal(() => decodeAll(undefined, new Uint8Array(Buffer.from('user;granted\n', 'utf16le'))));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'the file looks like UTF-16 without a byte order mark (every other byte is zero): import it with ' +
        '--encoding utf-16le (API: ?encoding=utf-16le)',
      [{ path: 'encoding', message: 'probably utf-16le' }],
    ]);
  });

  it('refuses bytes that are not valid in UTF-16, naming the line', () => {
    const text = new Uint8Array(Buffer.from('\uFEFFa\nb\n', 'utf16le'));
    // a lone high surrogate, then an ordinary character, in the piece after two lines
    const e = refusal(() => decodeAll(undefined, text, bytes(0x00, 0xd8, 0x41, 0x00)));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'the file is not valid utf-16le near line 3',
      [{ path: 'encoding', message: 'not valid utf-16le' }],
    ]);
  });

  it.each([
    [[0x50, 0x4b, 0x03, 0x04, 0x14, 0x00], 'an Excel workbook (.xlsx, a zip archive)'],
    [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1], 'an Excel 97-2003 workbook (.xls)'],
  ])('names a workbook for what it is: %j', (signature, name) => {
    const e = refusal(() => decodeAll(undefined, bytes(...signature)));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      `the file is ${name}, not CSV or NDJSON: in Excel use File > Save As > "CSV UTF-8 (Comma delimited)" and ` +
        'import that file',
      [{ path: 'file', message: 'a spreadsheet workbook, not CSV' }],
    ]);
  });

  it('reads a file that only starts like a workbook signature', () => {
    expect(decodeAll(undefined, utf8('PK;granted\n'))).toBe('PK;granted\n');
  });

  it('refuses a byte order mark that contradicts the encoding given, and follows one that agrees', () => {
    const e = refusal(() => decodeAll('windows-1252', utf8('\uFEFFuser;granted\n')));
    expect([e.code, e.message, e.details]).toEqual([
      'bad_request',
      'the file starts with a utf-8 byte order mark but the encoding given is windows-1252: leave the encoding out ' +
        'to follow the mark',
      [{ path: 'encoding', message: 'the file says utf-8' }],
    ]);
    expect(decodeAll('utf-8', utf8('\uFEFFuser;granted\n'))).toBe('user;granted\n');
    expect(decodeAll(undefined, bytes(0xfe, 0xff, 0x00, 0x41))).toBe('A');
    expect(refusal(() => decodeAll('utf-16le', bytes(0xfe, 0xff, 0x00, 0x41))).message).toMatch(
      /^the file starts with a utf-16be byte order mark but the encoding given is utf-16le/,
    );
  });
});

describe('the names of the encodings', () => {
  it.each([
    ['utf-8', 'utf-8'],
    [' UTF8 ', 'utf-8'],
    ['cp1252', 'windows-1252'],
    ['CP-1252', 'windows-1252'],
    ['Windows_1252', 'windows-1252'],
    ['ANSI', 'windows-1252'],
    ['latin1', 'latin1'],
    ['Latin-1', 'latin1'],
    ['ISO-8859-1', 'latin1'],
    ['iso_8859-1', 'latin1'],
    ['ISO 8859-1', 'latin1'],
    ['l1', 'latin1'],
    ['UTF-16', 'utf-16le'],
    ['utf16le', 'utf-16le'],
    ['UCS-2', 'utf-16le'],
  ] as const)('reads %j as %s', (name, encoding) => {
    expect(encodingOf(name)).toBe(encoding);
  });

  it.each(['ebcdic', 'utf-32', 'iso-8859-15', 'windows-1250', ''])('knows no %j', (name) => {
    expect(encodingOf(name)).toBeUndefined();
  });
});

describe('text written in an import encoding', () => {
  it('gives bytes that decode to the same text, with ? for what the encoding lacks', () => {
    const text = 'Müller „Straße“ – 5 € … ☃';
    expect(new TextDecoder('utf-8').decode(encodeText(text, 'utf-8'))).toBe(text);
    expect(new TextDecoder('utf-16le').decode(encodeText(text, 'utf-16le'))).toBe(text);
    expect(new TextDecoder('utf-16be').decode(encodeText(text, 'utf-16be'))).toBe(text);
    // (Node 20's TextDecoder reads the bytes 0x80-0x9F of windows-1252 right only when streaming)
    const cp1252 = (b: Uint8Array) => new TextDecoder('windows-1252').decode(b, { stream: true });
    expect(cp1252(encodeText(text, 'windows-1252'))).toBe('Müller „Straße“ – 5 € … ?');
    expect(encodeText(text, 'latin1').toString('latin1')).toBe('Müller ?Straße? ? 5 ? ? ?');
    // every byte of windows-1252 comes back as it was read
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect([...encodeText(cp1252(all), 'windows-1252')]).toEqual([...all]);
  });
});
