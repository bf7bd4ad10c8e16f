import type { BatchResult } from '../../store/consent-import-rows.js';
import type { RawRow } from './import-readers.js';

/**
 * A refused row of an import: the line where it starts, why, and the row itself as read (the cells of a CSV row, or
 * the text of an NDJSON line; neither for the further lines of a malformed row that spans several).
 */
export interface Rejection {
  line: number;
  reason: string;
  cells?: string[];
  text?: string;
}

/** A refusal with the row as read attached, in the shape the summary lists it. */
export const rejection = (line: number, reason: string, raw: RawRow | undefined): Rejection =>
  raw === undefined
    ? { line, reason }
    : typeof raw === 'string'
      ? { line, reason, text: raw }
      : { line, reason, cells: raw };

/** A piece handed to the writer: the lines of its rows and the rows as read, in order. */
interface Piece {
  lines: number[];
  raws: RawRow[];
}

/**
 * Keeps the refusals of an import in line order. The reader refuses rows as it reads them; the writer refuses others
 * against the store a batch or two later. Each piece of rows handed to the writer is noted with the lines of its rows,
 * so a writer's refusal (a position in its batch) finds its line; refusals are passed on once every row before them
 * has been decided, sorted by line.
 */
export class RejectionLedger {
  /** In the order they happened: the reader's refusals, and the pieces handed to the writer. */
  private queue: Array<Rejection | Piece> = [];

  constructor(private readonly emit: (r: Rejection) => void) {}

  /** A row the reader refused. */
  reject(r: Rejection): void {
    this.queue.push(r);
  }

  /** A piece of rows about to be handed to the writer: the lines of its rows and the rows as read, in order. */
  piece(lines: number[], raws: RawRow[]): void {
    this.queue.push({ lines, raws });
  }

  /** A transaction of the writer committed (or, in a dry run, was decided): passes on what is now complete. */
  batch(r: Pick<BatchResult, 'pieces' | 'refused'>): void {
    let end = 0;
    for (let pieces = 0; pieces < r.pieces && end < this.queue.length; end++) if ('raws' in this.queue[end]!) pieces++;
    const released: Rejection[] = [];
    const taken: Piece[] = [];
    for (const e of this.queue.splice(0, end))
      if ('raws' in e) taken.push(e);
      else released.push(e);
    if (r.refused.length) {
      const lines = taken.flatMap((p) => p.lines);
      const raws = taken.flatMap((p) => p.raws);
      for (const f of r.refused) released.push(rejection(lines[f.n]!, f.reason, raws[f.n]));
    }
    this.release(released);
  }

  /** The end of the import: every refusal left. */
  flush(): void {
    this.release(this.queue.filter((e): e is Rejection => !('raws' in e)));
    this.queue = [];
  }

  private release(rs: Rejection[]): void {
    rs.sort((a, b) => a.line - b.line);
    for (const r of rs) this.emit(r);
  }
}
