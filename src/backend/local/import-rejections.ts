import type { BatchResult } from '../../store/consent-import-rows.js';

/** A refused row of an import: the line where it starts and why. */
export interface Rejection {
  line: number;
  reason: string;
}

/**
 * Keeps the refusals of an import in line order. The reader refuses rows as it reads them; the writer refuses others
 * against the store a batch or two later. Each piece of rows handed to the writer is noted with the lines of its rows,
 * so a writer's refusal (a position in its batch) finds its line; refusals are passed on once every row before them
 * has been decided, sorted by line.
 */
export class RejectionLedger {
  /** In the order they happened: the reader's refusals, and the pieces handed to the writer (the lines of their rows). */
  private queue: Array<Rejection | number[]> = [];

  constructor(private readonly emit: (r: Rejection) => void) {}

  /** A row the reader refused. */
  reject(r: Rejection): void {
    this.queue.push(r);
  }

  /** A piece of rows about to be handed to the writer, by the lines of its rows in order. */
  piece(lines: number[]): void {
    this.queue.push(lines);
  }

  /** A transaction of the writer committed (or, in a dry run, was decided): passes on what is now complete. */
  batch(r: Pick<BatchResult, 'pieces' | 'refused'>): void {
    let end = 0;
    for (let pieces = 0; pieces < r.pieces && end < this.queue.length; end++)
      if (Array.isArray(this.queue[end])) pieces++;
    const released: Rejection[] = [];
    const lines: number[] = [];
    for (const e of this.queue.splice(0, end))
      if (Array.isArray(e)) for (const l of e) lines.push(l);
      else released.push(e);
    for (const f of r.refused) released.push({ line: lines[f.n]!, reason: f.reason });
    this.release(released);
  }

  /** The end of the import: every refusal left. */
  flush(): void {
    this.release(this.queue.filter((e): e is Rejection => !Array.isArray(e)));
    this.queue = [];
  }

  private release(rs: Rejection[]): void {
    rs.sort((a, b) => a.line - b.line);
    for (const r of rs) this.emit(r);
  }
}
