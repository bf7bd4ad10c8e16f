import { DomainError } from '../errors.js';

/** The character encodings an import reads (`--encoding`, query parameter `encoding`). */
export const IMPORT_ENCODINGS = ['utf-8', 'windows-1252', 'latin1', 'utf-16le'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

/**
 * Other names people and programs give the import encodings (any case; spaces, `_` and `-` alike): what `iconv -l`,
 * Python, Java and Windows call them.
 */
export const ENCODING_ALIASES: Record<string, ImportEncoding> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  windows1252: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'cp-1252': 'windows-1252',
  win1252: 'windows-1252',
  'win-1252': 'windows-1252',
  'x-cp1252': 'windows-1252',
  ansi: 'windows-1252',
  latin1: 'latin1',
  'latin-1': 'latin1',
  l1: 'latin1',
  'iso-8859-1': 'latin1',
  'iso8859-1': 'latin1',
  iso88591: 'latin1',
  '8859-1': 'latin1',
  'iso-latin-1': 'latin1',
  'utf-16le': 'utf-16le',
  utf16le: 'utf-16le',
  'utf-16': 'utf-16le',
  utf16: 'utf-16le',
  'ucs-2': 'utf-16le',
  ucs2: 'utf-16le',
  unicode: 'utf-16le',
};

/** The import encoding a name means, or undefined; `ISO_8859-1`, `CP1252`, ` UTF8 ` all count. */
export const encodingOf = (name: string): ImportEncoding | undefined =>
  ENCODING_ALIASES[
    name
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '-')
  ];

const BOMS: Array<{ bytes: number[]; encoding: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** Files that are not text at all, recognised by their first bytes, with how to get a CSV out of them. */
const WORKBOOKS: Array<{ bytes: number[]; name: string }> = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], name: 'an Excel workbook (.xlsx, a zip archive)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], name: 'an Excel 97-2003 workbook (.xls)' },
];

const startsWith = (b: Uint8Array, prefix: number[]) => prefix.every((x, i) => b[i] === x);
const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(2, '0')}`;

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length;) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2 : c >= 0xf0 && c < 0xf5 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) {
      if (i + k >= b.length) return -1; // a sequence cut by the end of this piece: the next piece decides
      if ((b[i + k]! & 0xc0) !== 0x80) return i;
    }
    i += n + 1;
  }
  return -1;
}

/**
 * Names the encoding a file that is not UTF-8 most likely has: zero bytes mean UTF-16; bytes 0x80-0x9F are printable
 * only in windows-1252 (€, „, “, –); other high bytes are letters such as ä ö ü ß in both windows-1252 and latin1.
 */
export function guessEncoding(b: Uint8Array): ImportEncoding {
  let zeros = 0;
  for (let i = 1; i < b.length; i += 2) if (b[i] === 0) zeros++;
  if (zeros > b.length / 8) return 'utf-16le';
  return 'windows-1252';
}

/**
 * Text of windows-1252 bytes. Node 20's TextDecoder drops the bytes 0x80-0x9F (€, „, “, –) when it decodes without
 * `stream`, so the one byte a message shows is decoded as part of a stream.
 */
const windows1252 = (b: Uint8Array): string => new TextDecoder('windows-1252').decode(b, { stream: true });

function notUtf8(b: Uint8Array, at: number, line: number): DomainError {
  const guess = guessEncoding(b);
  const byte = b[at] ?? 0;
  const shown =
    guess === 'windows-1252' ? `; ${hex(byte)} is "${windows1252(b.subarray(at, at + 1))}" in windows-1252` : '';
  return new DomainError(
    'bad_request',
    `the file is not valid UTF-8 (byte ${hex(byte)} on line ${line})${shown}: it is probably ${guess}; import it with --encoding ${guess} (API: ?encoding=${guess}); nothing was imported`,
    [{ path: 'encoding', message: `not valid UTF-8; probably ${guess}` }],
  );
}

/**
 * Turns the bytes of an import into text, piece by piece, in the encoding given or the one its byte order mark names.
 * Bytes that are not valid in that encoding stop the import with an error naming the line and the likely encoding;
 * a spreadsheet workbook is named as such.
 */
export class ImportDecoder {
  private decoder?: InstanceType<typeof TextDecoder>;
  private latin1 = false;
  private head: Uint8Array = new Uint8Array(0);
  private lines = 1;
  /** The encoding in use once the first bytes have been seen, and whether a byte order mark named it. */
  encoding?: string;
  bom = false;

  constructor(private readonly requested: ImportEncoding | undefined) {}

  decode(chunk: Uint8Array | string): string {
    if (typeof chunk === 'string') return chunk;
    if (!this.encoding) {
      // a byte order mark or a file signature may be cut by the first piece: wait for four bytes
      const joined = new Uint8Array(this.head.length + chunk.length);
      joined.set(this.head);
      joined.set(chunk, this.head.length);
      if (joined.length < 4) {
        this.head = joined;
        return '';
      }
      this.head = new Uint8Array(0);
      return this.start(joined);
    }
    return this.text(chunk, true);
  }

  end(): string {
    if (this.encoding) return this.text(new Uint8Array(0), false);
    // a body of text (in process) or shorter than four bytes
    return this.head.length ? this.start(this.head) + this.text(new Uint8Array(0), false) : '';
  }

  private start(first: Uint8Array): string {
    const workbook = WORKBOOKS.find((w) => startsWith(first, w.bytes));
    if (workbook)
      throw new DomainError(
        'bad_request',
        `the file is ${workbook.name}, not CSV or NDJSON: in Excel use File > Save As > "CSV UTF-8 (Comma delimited)" and import that file`,
        [{ path: 'file', message: 'a spreadsheet workbook, not CSV' }],
      );
    const bom = BOMS.find((b) => startsWith(first, b.bytes));
    if (bom && this.requested && bom.encoding !== this.requested)
      throw new DomainError(
        'bad_request',
        `the file starts with a ${bom.encoding} byte order mark but the encoding given is ${this.requested}: leave the encoding out to follow the mark`,
        [{ path: 'encoding', message: `the file says ${bom.encoding}` }],
      );
    this.encoding = bom?.encoding ?? this.requested ?? 'utf-8';
    this.bom = bom !== undefined;
    if (!bom && this.encoding === 'utf-8' && guessEncoding(first.subarray(0, 4096)) === 'utf-16le')
      throw new DomainError(
        'bad_request',
        'the file looks like UTF-16 without a byte order mark (every other byte is zero): import it with --encoding utf-16le (API: ?encoding=utf-16le)',
        [{ path: 'encoding', message: 'probably utf-16le' }],
      );
    // latin1 is ISO-8859-1 proper (bytes 0x80-0x9F are control characters); TextDecoder would read it as windows-1252
    if (this.encoding === 'latin1') this.latin1 = true;
    else this.decoder = new TextDecoder(this.encoding, { fatal: this.encoding.startsWith('utf'), ignoreBOM: false });
    return this.text(first, true);
  }

  private text(b: Uint8Array, stream: boolean): string {
    if (this.latin1) return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
    let out: string;
    try {
      out = this.decoder!.decode(b, { stream });
    } catch {
      if (this.encoding !== 'utf-8')
        throw new DomainError('bad_request', `the file is not valid ${this.encoding} near line ${this.lines}`, [
          { path: 'encoding', message: `not valid ${this.encoding}` },
        ]);
      const at = Math.max(0, firstInvalidUtf8(b));
      let line = this.lines;
      for (let i = b.indexOf(10); i !== -1 && i < at; i = b.indexOf(10, i + 1)) line++;
      throw notUtf8(b, at, line);
    }
    for (let i = out.indexOf('\n'); i !== -1; i = out.indexOf('\n', i + 1)) this.lines++;
    return out;
  }
}

/** The bytes 0x80-0x9F of windows-1252 that are not the code points of the same number (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ). */
const WINDOWS_1252_HIGH = new Map<number, number>(
  [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'].map((c, i) => [c.codePointAt(0)!, 0x80 + i]),
);

/**
 * Text in one of the import encodings, as bytes, so a file written for a person to fix (the rejects of an import)
 * imports again with the same options. A character the encoding has no byte for becomes `?` (only messages can hold
 * one: the rows came from a file in that encoding).
 */
export function encodeText(text: string, encoding: ImportEncoding | 'utf-16be'): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  if (encoding === 'utf-16le') return Buffer.from(text, 'utf16le');
  if (encoding === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  const bytes: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const high = encoding === 'windows-1252' ? WINDOWS_1252_HIGH.get(c) : undefined;
    bytes.push(high ?? (c < 0x80 || (c >= 0xa0 && c < 0x100) || (encoding === 'latin1' && c < 0x100) ? c : 0x3f));
  }
  return Buffer.from(bytes);
}
