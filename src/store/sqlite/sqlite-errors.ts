import { DomainError } from '../../domain/errors.js';

/**
 * Translates SQLite's failures into messages a person can act on, by their extended result codes (and Node's for the
 * file), never by words in a message, which quote table, column and constraint names. A unique or foreign-key
 * violation is a `conflict` (409), a value a column refuses is `validation` (422), as on PostgreSQL.
 */
export function storageError(file: string, e: unknown): DomainError {
  const code = (e as { code?: string }).code ?? '';
  const msg = (e as Error).message ?? String(e);
  if (code === 'SQLITE_NOTADB')
    return new DomainError(
      'storage',
      `${file} is not an SQLite database (choose another file with --db or COMPLIANCE_DB)`,
    );
  if (code.startsWith('SQLITE_READONLY'))
    return new DomainError('storage', `${file} is read-only: the store needs write access to the file and its folder`);
  if (code === 'ENOENT') return new DomainError('storage', `cannot create the folder of database ${file} (${msg})`);
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'ENOTDIR' || code === 'EROFS')
    return new DomainError('storage', `cannot open database ${file}: ${msg}`);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
    return new DomainError('storage', `database ${file} is busy (another process holds a write lock); try again`);
  if (code.startsWith('SQLITE_CORRUPT')) return new DomainError('storage', `database ${file} is damaged: ${msg}`);
  if (code === 'SQLITE_FULL') return new DomainError('storage', `disk full while writing ${file}`);
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE')
    return new DomainError('conflict', `a record with the same key already exists (${msg})`);
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    return new DomainError('conflict', 'the change refers to a record that does not exist, or one still referred to');
  if (code === 'SQLITE_CONSTRAINT_NOTNULL' || code === 'SQLITE_CONSTRAINT_CHECK' || code === 'SQLITE_TOOBIG')
    return new DomainError('validation', `a value the database refuses: ${msg}`, [{ path: 'body', message: msg }]);
  if (code.startsWith('SQLITE_CONSTRAINT')) return new DomainError('conflict', `the store refused the change (${msg})`);
  return new DomainError('storage', `database error on ${file}: ${msg}`);
}

export const isSqliteError = (e: unknown): boolean => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_');
};
