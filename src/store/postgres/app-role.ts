import { sql, type Kysely } from 'kysely';
import { APP_ROLE } from '../../../migrations/dialect.js';
import { DomainError } from '../../domain/errors.js';
import type { DB } from '../db-types.js';

/** What the connecting role may do about the application role, as PostgreSQL answers it. */
interface RoleState {
  owner: string;
  superuser: boolean;
  createrole: boolean;
  exists: boolean;
  /** A member that may `SET ROLE` to it. */
  member: boolean;
  /** May grant it (PostgreSQL 16 and later ask for ADMIN OPTION even with CREATEROLE). */
  admin: boolean;
  version: number;
}

async function roleState(db: Kysely<DB>): Promise<RoleState> {
  const { rows } = await sql<Omit<RoleState, 'member' | 'admin'>>`select quote_ident(current_user) as owner,
      r.rolsuper as superuser, r.rolcreaterole as createrole,
      exists (select 1 from pg_roles where rolname = ${APP_ROLE}) as exists,
      current_setting('server_version_num')::int as version
    from pg_roles r where r.rolname = current_user`.execute(db);
  const state = rows[0]!;
  if (!state.exists) return { ...state, member: false, admin: false };
  // 'SET' and 'WITH ADMIN OPTION' on 'SET' exist from PostgreSQL 16 on; before, a member may always SET ROLE
  const set = state.version >= 160000 ? 'SET' : 'MEMBER';
  const has = await sql<{ member: boolean; admin: boolean }>`select
      pg_has_role(current_user, ${APP_ROLE}, ${set}) as member,
      pg_has_role(current_user, ${APP_ROLE}, 'MEMBER WITH ADMIN OPTION') as admin`.execute(db);
  return { ...state, ...has.rows[0]! };
}

/**
 * Checks, before the migration that sets up the application role (0008) runs on a new database, that the connecting
 * role can do what it does, and otherwise says exactly what an administrator has to run. That migration runs
 * `CREATE ROLE compliance_app` even when the role exists, and PostgreSQL checks CREATEROLE before it looks whether
 * the role exists: an owner without CREATEROLE fails even after an administrator made the role and granted it
 * (issue 35: the advice the migration itself gives, CREATE ROLE and GRANT, is not enough). The migration cannot be
 * changed (it has landed), so the advice gives the owner CREATEROLE for the set-up, to be taken back after it.
 */
export async function checkAppRole(db: Kysely<DB>): Promise<void> {
  const s = await roleState(db);
  if (s.superuser) return;
  // PostgreSQL 14 and 15 let CREATEROLE grant any role that is not a superuser; 16 and later need ADMIN OPTION
  const canGrant = s.createrole && (s.version < 160000 || s.admin);
  const sqlToRun: string[] = [];
  if (!s.exists && !s.createrole) sqlToRun.push(`CREATE ROLE ${APP_ROLE} NOLOGIN;`);
  if (s.exists ? !s.member && !canGrant : !s.createrole) sqlToRun.push(`GRANT ${APP_ROLE} TO ${s.owner};`);
  if (!s.createrole) sqlToRun.push(`ALTER ROLE ${s.owner} CREATEROLE;`);
  if (!sqlToRun.length) return;
  const why = !s.exists
    ? `the role ${APP_ROLE} does not exist and ${s.owner} may not create roles`
    : !s.member && !canGrant
      ? `${s.owner} is not a member of the role ${APP_ROLE} and may not grant it to itself`
      : `${s.owner} lacks CREATEROLE, which setting up a database checks even when ${APP_ROLE} exists`;
  const after = s.createrole ? '' : `; afterwards ALTER ROLE ${s.owner} NOCREATEROLE; takes the right back`;
  throw new DomainError(
    'storage',
    `cannot set up the database: ${why}. Run as a superuser: ${sqlToRun.join(' ')} Then run compliance db init again${after}.`,
    [
      { path: 'sql', message: sqlToRun.join(' ') },
      ...(after ? [{ path: 'afterwards', message: `ALTER ROLE ${s.owner} NOCREATEROLE;` }] : []),
    ],
  );
}
