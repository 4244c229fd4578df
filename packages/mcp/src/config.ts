import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { invalid } from '@zerda/core/adapter';

/** Which embedder the server uses for semantic recall. */
export type EmbedderKind = 'model' | 'hash';

/** Server configuration, resolved from the environment by {@link resolveServerConfig}. */
export interface ServerConfig {
  /** Root of everything the server writes: `memory_db/` and `memory_backups/`. */
  dataDir: string;
  /**
   * `sqlite` (durable, the default), `memory` (nothing written to disk except backups) or
   * `postgres` (a shared PostgreSQL database: the default when `ZERDA_DATABASE_URL` is set).
   */
  storage: 'sqlite' | 'memory' | 'postgres';
  /** `ZERDA_DATABASE_URL`: the PostgreSQL database for `storage: 'postgres'`. */
  databaseUrl: string | undefined;
  /**
   * `ZERDA_DATABASE_OWNER_URL`: the role that owns and migrates Zerda's schema (the app role of
   * `ZERDA_DATABASE_URL` then only gets DML). Unset: the schema must already be migrated.
   */
  databaseOwnerUrl: string | undefined;
  /** The single tenant this server keeps its memories in. */
  tenantId: string;
  /** `model` (the bundled offline model) or `hash` (deterministic feature hashing, no model). */
  embedder: EmbedderKind;
  /** Explicit model for `embedder: 'model'` (a folder with a transformers.js model, or a hub id). */
  model: string | undefined;
  /** Weight variant of `model` (`fp32`, `q8`, …). Default: the model's own default. */
  modelDtype: string | undefined;
  /** Hours between automatic backups. `0` disables time-based backups. */
  backupIntervalHours: number;
  /** New memories that trigger an automatic backup. `0` disables count-based backups. */
  backupEvery: number;
  /** Backups kept by rotation (the newest ones). */
  backupKeep: number;
  /** Mask PII (emails, phone numbers, card numbers, keys…) before storing. Default false: it is the user's own memory. */
  maskPii: boolean;
  /** Testing hook: a file holding the current time (ISO date-time or epoch ms), read on every clock call. */
  clockFile: string | undefined;
  /** Testing hook: milliseconds added to the system time. */
  nowOffsetMs: number;
  /**
   * Shape of tool results: `original` (the default), the `{ success, reason?, data: [...] }` of
   * the server this one replaces, or `zerda`, Zerda's detailed shape.
   */
  resultFormat: 'original' | 'zerda';
  /** Bearer token HTTP clients must send (`ZERDA_HTTP_TOKEN`); required when HTTP is bound beyond localhost. */
  httpToken: string | undefined;
  /**
   * Browser origins allowed to call the HTTP endpoint besides loopback ones
   * (`ZERDA_HTTP_ALLOWED_ORIGINS`, comma-separated, e.g. `https://app.example.com`; `*` allows any).
   */
  httpAllowedOrigins: string[];
  /** An HTTP session unused this long is closed (`ZERDA_HTTP_SESSION_IDLE_SECONDS`, default 1800). */
  httpSessionIdleSeconds: number;
}

/** Default data directory name under the user's home. */
export const DEFAULT_DATA_DIR_NAME = '.zerda-memory';

/**
 * Read the configuration from environment variables (see the README for the list). Throws a
 * `VALIDATION` error naming the variable when one is malformed, so a misconfigured server stops
 * at startup with a clear message instead of misbehaving later.
 */
export function resolveServerConfig(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): ServerConfig {
  const rawDir = expandHome(
    nonEmpty(env.ZERDA_DATA_DIR) ?? nonEmpty(env.AI_COMPANION_DATA_DIR) ?? join(home, DEFAULT_DATA_DIR_NAME),
    home,
  );
  const dataDir = isAbsolute(rawDir) ? rawDir : resolve(rawDir);
  const tenantId = nonEmpty(env.ZERDA_TENANT) ?? 'default';
  if (tenantId.length > 256) invalid('ZERDA_TENANT', 'at most 256 characters', tenantId);
  const embedderRaw = (nonEmpty(env.ZERDA_EMBEDDER) ?? 'model').toLowerCase();
  if (embedderRaw !== 'model' && embedderRaw !== 'hash') invalid('ZERDA_EMBEDDER', '"model" or "hash"', embedderRaw);
  const databaseUrl = nonEmpty(env.ZERDA_DATABASE_URL);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    invalid('ZERDA_DATABASE_URL', 'a postgresql:// URL', databaseUrl.replace(/:[^:@/]*@/, ':***@'));
  const storage = (nonEmpty(env.ZERDA_STORAGE) ?? (databaseUrl ? 'postgres' : 'sqlite')).toLowerCase();
  if (storage !== 'sqlite' && storage !== 'memory' && storage !== 'postgres')
    invalid('ZERDA_STORAGE', '"sqlite", "memory" or "postgres"', storage);
  if (storage === 'postgres' && !databaseUrl)
    invalid('ZERDA_DATABASE_URL', 'a postgresql:// URL (ZERDA_STORAGE is "postgres")', '');
  if (storage !== 'postgres' && databaseUrl)
    invalid('ZERDA_STORAGE', '"postgres" or unset (ZERDA_DATABASE_URL is set)', storage);
  const databaseOwnerUrl = nonEmpty(env.ZERDA_DATABASE_OWNER_URL);
  if (databaseOwnerUrl !== undefined && (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseOwnerUrl)))
    invalid(
      'ZERDA_DATABASE_OWNER_URL',
      'a postgresql:// URL, with ZERDA_DATABASE_URL set',
      databaseOwnerUrl.replace(/:[^:@/]*@/, ':***@'),
    );
  return {
    dataDir,
    storage,
    databaseUrl,
    databaseOwnerUrl,
    tenantId,
    embedder: embedderRaw,
    model: nonEmpty(env.ZERDA_MODEL),
    modelDtype: nonEmpty(env.ZERDA_MODEL_DTYPE),
    backupIntervalHours: numberVar(env, 'ZERDA_BACKUP_INTERVAL_HOURS', 24, { min: 0 }),
    backupEvery: numberVar(env, 'ZERDA_BACKUP_EVERY', 100, { min: 0, integer: true }),
    backupKeep: numberVar(env, 'ZERDA_BACKUP_KEEP', 10, { min: 1, integer: true }),
    maskPii: booleanVar(env, 'ZERDA_MASK_PII', false),
    clockFile: nonEmpty(env.ZERDA_CLOCK_FILE),
    nowOffsetMs: numberVar(env, 'ZERDA_NOW_OFFSET_MS', 0, {}),
    resultFormat: choiceVar(env, 'ZERDA_RESULT_FORMAT', ['original', 'zerda'], 'original'),
    httpToken: nonEmpty(env.ZERDA_HTTP_TOKEN),
    httpAllowedOrigins: originsVar(env, 'ZERDA_HTTP_ALLOWED_ORIGINS'),
    httpSessionIdleSeconds: numberVar(env, 'ZERDA_HTTP_SESSION_IDLE_SECONDS', 1800, { min: 1 }),
  };
}

// No shell expands `~` in a desktop app's JSON configuration, and a literal `~` folder under
// whatever working directory the app happens to use would silently split the user's memory.
function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return /^~[/\\]/.test(path) ? join(home, path.slice(2)) : path;
}

function nonEmpty(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

function choiceVar<T extends string>(env: NodeJS.ProcessEnv, name: string, choices: readonly T[], fallback: T): T {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw)) invalid(name, choices.map((c) => `"${c}"`).join(' or '), raw);
  return raw as T;
}

function booleanVar(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  return invalid(name, '1/true/yes/on or 0/false/no/off', raw);
}

/** A comma-separated list of origins (`scheme://host[:port]`), or `*`. */
function originsVar(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
    .map((o) => {
      if (o === '*') return o;
      const origin = parsedOrigin(o);
      if (origin === undefined || origin !== o.replace(/\/$/, '').toLowerCase())
        invalid(name, 'origins such as https://app.example.com (scheme, host and optional port; no path), or *', o);
      return origin;
    });
}

/** The origin of `value` (`scheme://host[:port]`, lower case) when it parses as an http(s) URL. */
export function parsedOrigin(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

function numberVar(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  rule: { min?: number; integer?: boolean },
): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  const ok = Number.isFinite(n) && (rule.min === undefined || n >= rule.min) && (!rule.integer || Number.isInteger(n));
  if (!ok) {
    const what = `${rule.integer ? 'an integer' : 'a number'}${rule.min === undefined ? '' : ` >= ${rule.min}`}`;
    invalid(name, what, raw);
  }
  return n;
}
