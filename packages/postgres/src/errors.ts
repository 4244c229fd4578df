import { ZerdaError, isZerdaError } from '@zerda/core';
import type { ZerdaErrorCode } from '@zerda/core';

/**
 * The Zerda code for a PostgreSQL SQLSTATE:
 * - `CONFLICT`: another transaction got in the way (serialization failure `40001`, deadlock `40P01`,
 *   unique violation `23505`, lock not available `55P03`): nothing was written, retrying may succeed.
 * - `QUOTA_EXCEEDED`: the server ran out of something (class `53`: disk full, out of memory, too many
 *   connections; `54000` program limit, e.g. a row too large).
 * - `ACCESS_DENIED`: the role may not do this (`42501`), including a row-level-security violation.
 * - `VALIDATION`: a value PostgreSQL cannot hold (NUL characters `22021`/`22P05`, out-of-range numbers `22003`).
 * - `STORAGE`: everything else, including connection failures.
 */
export function codeForSqlState(sqlState: string | undefined): ZerdaErrorCode {
  if (!sqlState) return 'STORAGE';
  if (sqlState === '40001' || sqlState === '40P01' || sqlState === '23505' || sqlState === '55P03') return 'CONFLICT';
  if (sqlState.startsWith('53') || sqlState === '54000') return 'QUOTA_EXCEEDED';
  if (sqlState === '42501') return 'ACCESS_DENIED';
  if (sqlState === '22021' || sqlState === '22P05' || sqlState === '22003') return 'VALIDATION';
  return 'STORAGE';
}

/** Wrap a driver error as a `ZerdaError` (Zerda errors pass through unchanged). */
export function pgError(what: string, e: unknown): ZerdaError {
  if (isZerdaError(e)) return e;
  const sqlState = typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : undefined;
  // Node's socket errors (ECONNREFUSED, …) also sit in `code`; they are not SQLSTATEs.
  const isSqlState = sqlState !== undefined && /^[0-9A-Z]{5}$/.test(sqlState);
  const code = codeForSqlState(isSqlState ? sqlState : undefined);
  const reason = e instanceof Error ? e.message : String(e);
  const state = isSqlState ? ` [SQLSTATE ${sqlState}]` : sqlState ? ` [${sqlState}]` : '';
  const hint = code === 'CONFLICT' ? ' Nothing was written; the call can be retried.' : '';
  return new ZerdaError(code, `PostgreSQL failed to ${what}: ${reason}${state}.${hint}`, {
    cause: e,
    ...(isSqlState ? { details: { sqlState } } : {}),
  });
}

/** True for failures where a rolled-back transaction may simply be retried. */
export function isRetryable(e: unknown): boolean {
  const state = (e as { code?: unknown })?.code;
  return state === '40001' || state === '40P01';
}
