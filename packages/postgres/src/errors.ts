import { ZerdaError, isZerdaError } from '@zerda/core';
import type { ZerdaErrorCode } from '@zerda/core';
import pg from 'pg';

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

/**
 * The SQLSTATE of an error the server sent (`pg.DatabaseError`), else `undefined`: Node's socket
 * errors (`EPIPE`, `ECONNREFUSED`, …) also sit in `code` but are not SQLSTATEs.
 */
export function sqlStateOf(e: unknown): string | undefined {
  return e instanceof pg.DatabaseError && typeof e.code === 'string' ? e.code : undefined;
}

/** Wrap a driver error as a `ZerdaError` (Zerda errors pass through unchanged). */
export function pgError(what: string, e: unknown, details?: Record<string, unknown>): ZerdaError {
  if (isZerdaError(e)) return e;
  const sqlState = sqlStateOf(e);
  const nodeCode = sqlState === undefined ? (e as { code?: unknown })?.code : undefined;
  const code = codeForSqlState(sqlState);
  const reason = e instanceof Error ? e.message : String(e);
  const state = sqlState ? ` [SQLSTATE ${sqlState}]` : typeof nodeCode === 'string' ? ` [${nodeCode}]` : '';
  const hint = code === 'CONFLICT' ? ' Nothing was written; the call can be retried.' : '';
  const extra = { ...(sqlState ? { sqlState } : {}), ...details };
  return new ZerdaError(code, `PostgreSQL failed to ${what}: ${reason}${state}.${hint}`, {
    cause: e,
    ...(Object.keys(extra).length ? { details: extra } : {}),
  });
}

/** True for failures where a rolled-back transaction may simply be retried (deadlock, serialization). */
export function isRetryable(e: unknown): boolean {
  const state = sqlStateOf(e);
  return state === '40001' || state === '40P01';
}

const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004']);
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ENOTCONN',
  'ETIMEDOUT',
  'ENOENT',
  'EHOSTUNREACH',
]);

/**
 * libpq's words for a connection that failed under a query, as Citus quotes them when the
 * coordinator loses a worker: `08006` "connection to the remote node … failed", `XX000` with the
 * bare libpq message ("SSL SYSCALL error: EOF detected", "server closed the connection
 * unexpectedly"), `58030` "failed to COPY to shard … on host:port".
 */
const REMOTE_LOSS =
  /connection to the remote node|remote node .* failed|server closed the connection|SSL SYSCALL error|SSL error|EOF detected|could not (receive|send) data (from|to) server|no connection to the server|connection not open|failed to COPY to shard|failed to complete COPY on/i;

/**
 * True when a Citus coordinator reports that its connection to a worker was lost (a worker
 * restarted, stopped or failed over). The coordinator is alive and aborted the statement, so the
 * transaction did not commit even when the message held COMMIT (Citus turns a failed remote COMMIT
 * into a warning, never an error): retrying is safe.
 */
export function isRemoteLoss(e: unknown): boolean {
  const state = sqlStateOf(e);
  return (
    (state === '08006' || state === 'XX000' || state === '58030') &&
    REMOTE_LOSS.test(e instanceof Error ? e.message : '')
  );
}

/**
 * True when the connection (or, on Citus, the coordinator's connection to a worker) was lost: the
 * server restarted or stopped, an admin terminated the backend, the network dropped. The
 * transaction did not commit unless the loss came while COMMIT was in flight.
 */
export function isConnectionLoss(e: unknown): boolean {
  const state = sqlStateOf(e);
  const message = e instanceof Error ? e.message : '';
  if (state !== undefined) return CONNECTION_STATES.has(state) || isRemoteLoss(e);
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  return /Connection terminated|connection (is )?(closed|ended)|Client has encountered a connection error|not queryable/i.test(
    message,
  );
}
