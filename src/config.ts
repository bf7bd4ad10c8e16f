import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { REPORT_LANGUAGES } from './domain/report-locale.js';
import { TENANT_PATTERN, TENANT_RULE } from './domain/tenant.js';
import { DomainError } from './domain/errors.js';
import { parseOrThrow } from './domain/validation.js';
import { parseMediaUrl, type MediaLocation } from './domain/training/media-url.js';

/** Global flags as commander hands them over. */
export interface GlobalFlags {
  db?: string;
  remote?: string;
  apiKey?: string;
  tenant?: string;
  user?: string;
  json?: boolean;
  media?: string;
}

/** The configuration's schema: built only to word what is wrong with a configuration that fails `isValid`. */
export const configSchema = () =>
  z.object({
    db: z.string().min(1),
    /** No --db and no COMPLIANCE_DB: the default file, which a first run's reads find missing without a typo. */
    dbIsDefault: z.boolean(),
    remote: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    tenant: z.string().regex(TENANT_PATTERN, TENANT_RULE),
    /** Whether --tenant or COMPLIANCE_TENANT named the tenant (commands over every tenant then take only this one). */
    tenantGiven: z.boolean(),
    user: z.string().min(1),
    json: z.boolean(),
    /** COMPLIANCE_LANG: the language of texts the tool writes for people (screening, certificates) unless --lang says. */
    lang: z.enum(REPORT_LANGUAGES).optional(),
    /** --media or COMPLIANCE_MEDIA_URL, parsed: the object store of the local store's media. */
    media: z.custom<MediaLocation>((v) => typeof v === 'object' && v !== null).optional(),
  });
export type Config = z.infer<ReturnType<typeof configSchema>>;

const text = (v: unknown, optional = false) => (optional && v === undefined) || (typeof v === 'string' && v !== '');

/**
 * The schema's rules for a configuration, checked without building the schema: every command resolves its
 * configuration at start, and a valid one (the usual case) needs no schema. A test holds the two to the same verdict.
 */
export function isValid(c: Partial<Record<keyof Config, unknown>>): c is Config {
  return (
    text(c.db) &&
    typeof c.dbIsDefault === 'boolean' &&
    text(c.remote, true) &&
    text(c.apiKey, true) &&
    typeof c.tenant === 'string' &&
    TENANT_PATTERN.test(c.tenant) &&
    typeof c.tenantGiven === 'boolean' &&
    text(c.user) &&
    typeof c.json === 'boolean' &&
    (c.lang === undefined || (REPORT_LANGUAGES as readonly unknown[]).includes(c.lang)) &&
    (c.media === undefined || (typeof c.media === 'object' && c.media !== null))
  );
}

/** A configuration as the schema parses it: the same when it is valid, or the error that names each problem. */
export const parseConfig = (c: Partial<Record<keyof Config, unknown>>): Config =>
  isValid(c) ? c : parseOrThrow(configSchema(), c, { what: 'configuration', code: 'bad_request' });

/** `$XDG_DATA_HOME/compliance/compliance.db`, else `~/.local/share/compliance/compliance.db`. */
export function defaultDbFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'compliance', 'compliance.db');
}

function osUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER || env.USERNAME || 'system';
  }
}

/** Flags win over the environment, the environment over defaults. Parsed once, at the start of a command. */
export function resolveConfig(flags: GlobalFlags, env: NodeJS.ProcessEnv): Config {
  const empty = (v: string | undefined) => (v === '' ? undefined : v);
  const db = flags.db ?? empty(env.COMPLIANCE_DB);
  const lang = empty(env.COMPLIANCE_LANG);
  if (lang !== undefined && !(REPORT_LANGUAGES as readonly string[]).includes(lang))
    throw new DomainError('bad_request', `COMPLIANCE_LANG=${lang}: allowed values are ${REPORT_LANGUAGES.join(', ')}`, [
      { path: 'COMPLIANCE_LANG', message: `allowed values: ${REPORT_LANGUAGES.join(', ')}` },
    ]);
  const mediaUrl = flags.media ?? empty(env.COMPLIANCE_MEDIA_URL);
  const mediaField = flags.media !== undefined ? '--media' : 'COMPLIANCE_MEDIA_URL';
  const media = mediaUrl === undefined ? undefined : parseMediaUrl(mediaUrl, mediaField);
  // with --remote the server keeps media where it is told; sync still reads this store's own through --media
  const remote = flags.remote ?? empty(env.COMPLIANCE_REMOTE);
  return parseConfig({
    db: db ?? defaultDbFile(env),
    dbIsDefault: db === undefined,
    remote,
    apiKey: flags.apiKey ?? empty(env.COMPLIANCE_API_KEY),
    tenant: flags.tenant ?? (empty(env.COMPLIANCE_TENANT) || 'default'),
    tenantGiven: flags.tenant !== undefined || Boolean(empty(env.COMPLIANCE_TENANT)),
    user: flags.user ?? (empty(env.COMPLIANCE_USER) || osUser(env)),
    json: flags.json ?? false,
    lang,
    media,
  });
}
