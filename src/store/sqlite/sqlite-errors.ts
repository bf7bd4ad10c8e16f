import { DomainError } from '../../domain/errors.js';

/** Translates SQLite's failures into messages a person can act on. */
export function storageError(file: string, e: unknown): DomainError {
  const code = (e as { code?: string }).code ?? '';
  const msg = (e as Error).message ?? String(e);
  if (code === 'SQLITE_NOTADB' || /not a database/i.test(msg))
    return new DomainError(
      'storage',
      `${file} is not an SQLite database (choose another file with --db or COMPLIANCE_DB)`,
    );
  if (code.startsWith('SQLITE_READONLY') || /readonly/i.test(msg))
    return new DomainError('storage', `${file} is read-only: the store needs write access to the file and its folder`);
  if (code === 'ENOENT') return new DomainError('storage', `cannot create the folder of database ${file} (${msg})`);
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'ENOTDIR' || code === 'EROFS')
    return new DomainError('storage', `cannot open database ${file}: ${msg}`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new DomainError('storage', `database ${file} is busy (another process holds a write lock); try again`);
  if (code.startsWith('SQLITE_CORRUPT')) return new DomainError('storage', `database ${file} is damaged: ${msg}`);
  if (code === 'SQLITE_FULL') return new DomainError('storage', `disk full while writing ${file}`);
  return new DomainError('storage', `database error on ${file}: ${msg}`);
}

export const isSqliteError = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
};
