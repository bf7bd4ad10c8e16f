import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, extname, join } from 'node:path';
import { DomainError } from '../domain/errors.js';
import { makeFolder } from '../store/make-folder.js';
import { drainedOrClosed } from './output.js';

const REASONS: Record<string, string> = {
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOSPC: 'no space left on the device',
  ENOENT: 'the folder cannot be created there',
};

/** Standard output that cannot be written (a full disk, a reader that closed the pipe), as one line (exit 1). */
export function stdoutError(e: unknown): DomainError {
  const code = (e as NodeJS.ErrnoException)?.code ?? '';
  const why = code === 'EPIPE' ? 'the reader closed the pipe' : (REASONS[code] ?? (e as Error)?.message ?? String(e));
  return new DomainError('storage', `cannot write to stdout: ${why}`, [{ path: 'stdout', message: why }]);
}

/** A file the CLI cannot write, as one line (exit 1) instead of an unexpected error. */
export function outputFileError(path: string, e: unknown): DomainError {
  const code = (e as NodeJS.ErrnoException)?.code ?? '';
  return new DomainError('storage', `cannot write ${path}: ${REASONS[code] ?? (e as Error)?.message ?? String(e)}`, [
    { path: 'output', message: REASONS[code] ?? code },
  ]);
}

const parent = (path: string) => {
  try {
    makeFolder(dirname(path));
  } catch (e) {
    throw outputFileError(path, e);
  }
};

/** Writes an output file whole, creating its folder first. */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  parent(path);
  try {
    await writeFile(path, data);
  } catch (e) {
    throw outputFileError(path, e);
  }
}

/** Opens an output file for streaming, creating its folder first; resolves once the file is open. */
export async function openOutputFile(path: string, options?: { encoding?: BufferEncoding }): Promise<WriteStream> {
  parent(path);
  const out = createWriteStream(path, options);
  try {
    await once(out, 'open');
  } catch (e) {
    throw outputFileError(path, e);
  }
  return out;
}

/**
 * Streams an output file that must never be left half-written (a bundle): the bytes go to a hidden file beside it,
 * renamed over `path` once every chunk is written and removed when anything fails. A failure to write names `path`
 * (exit 1); one of the source comes as the source threw it.
 */
export async function writeOutputFileWhole(path: string, chunks: AsyncIterable<Uint8Array | string>): Promise<void> {
  parent(path);
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
  const out = createWriteStream(partial);
  const written = async (step: Promise<unknown>) => {
    try {
      await step;
    } catch (e) {
      throw outputFileError(path, e);
    }
  };
  try {
    await written(once(out, 'open'));
    for await (const chunk of chunks) {
      if (out.write(chunk)) continue;
      await written(drainedOrClosed(out));
      if (out.destroyed) throw outputFileError(path, out.errored ?? new Error('the file was closed'));
    }
    out.end();
    await written(once(out, 'finish'));
    await written(rename(partial, path));
  } catch (e) {
    out.destroy();
    await rm(partial, { force: true });
    throw e;
  }
}

/**
 * File types people name output files after: an extension here that a command does not write is a mistake. `.txt`
 * is not one of them, as any text format may go into it.
 */
const FILE_TYPES: Record<string, string> = {
  md: 'a Markdown file',
  markdown: 'a Markdown file',
  pdf: 'a PDF file',
  docx: 'a Word file',
  doc: 'a Word file',
  odt: 'an OpenDocument file',
  rtf: 'an RTF file',
  html: 'an HTML file',
  htm: 'an HTML file',
  csv: 'a CSV file',
  json: 'a JSON file',
  ndjson: 'an NDJSON file',
  jsonl: 'an NDJSON file',
  xml: 'an XML file',
  xlsx: 'an Excel file',
  xls: 'an Excel file',
  ods: 'an OpenDocument spreadsheet file',
  png: 'a PNG file',
  jpg: 'a JPEG file',
  jpeg: 'a JPEG file',
  svg: 'an SVG file',
  zip: 'a ZIP file',
  m4a: 'an audio file',
  mp3: 'an audio file',
  wav: 'an audio file',
  mp4: 'a video file',
};

/**
 * The format a command writes, each with the extensions that name it: `--format` when given, else the format the
 * extension of `-o` names, else `fallback`. An extension that names another file type (`--format md -o x.pdf`,
 * `-o report.html` for a command without HTML) is a usage error naming both, so no file ends up with contents its
 * name denies; an extension nobody knows (or none) leaves the choice to `--format` or the default.
 *
 * @example outputFormat('dsfa report', { md: ['md'], pdf: ['pdf'] }, { output: 'r.pdf' }, 'md') // 'pdf'
 */
export function outputFormat<F extends string>(
  command: string,
  formats: Record<F, readonly string[]>,
  given: { format?: F; output?: string },
  fallback: F,
): F {
  const { format, output } = given;
  const ext = output ? extname(output).slice(1).toLowerCase() : '';
  const named = (Object.keys(formats) as F[]).find((f) => formats[f].includes(ext));
  if (named === undefined && !Object.hasOwn(FILE_TYPES, ext)) return format ?? fallback;
  if (named !== undefined && (format === undefined || format === named)) return named;
  const type = FILE_TYPES[ext]!;
  const writes = (Object.keys(formats) as F[])
    .map((f) => (formats[f].length ? `${f} (${formats[f].map((e) => `.${e}`).join(', ')})` : f))
    .join(', ');
  // the extension names a format of this command, but --format says another
  if (named !== undefined)
    throw new DomainError(
      'bad_request',
      `--format ${format} contradicts -o ${output}, which names ${type}: drop --format to write ${named}, or name the file for ${format}`,
      [{ path: '--format', message: `${format}, but -o ${output} names ${type} (${named})` }],
    );
  throw new DomainError(
    'bad_request',
    `-o ${output} names ${type}, but ${command} writes ${writes}: choose a file name for one of them`,
    [{ path: '--output', message: `${type}; ${command} writes ${writes}` }],
  );
}
