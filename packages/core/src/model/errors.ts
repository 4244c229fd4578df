/**
 * Stable error codes. Test errors by code (`isZerdaError(e, 'ACCESS_DENIED')`), never by class
 * identity: class identity does not survive a worker hop or structured cloning.
 */
export type ZerdaErrorCode =
  | 'VALIDATION'
  | 'ACCESS_DENIED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'STORAGE'
  | 'QUOTA_EXCEEDED'
  | 'DECRYPTION'
  | 'EMBEDDING'
  | 'ABORTED'
  | 'CLOSED'
  | 'UNSUPPORTED'
  /** Memory formation failed (an LLM extractor's call or answer); the offline extractor took over. */
  | 'FORMATION'
  | 'INTERNAL';

/** The one error class Zerda throws at its public boundary. */
export class ZerdaError extends Error {
  /** Stable machine-readable code. */
  readonly code: ZerdaErrorCode;
  /** Optional structured details (e.g. the offending field). Plain data only. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ZerdaErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ZerdaError';
    this.code = code;
    this.details = options.details;
  }

  /** Plain, structured-clonable form (for worker hops and logs); see {@link serializeZerdaError}. */
  toJSON(): SerializedZerdaError {
    return serializeZerdaError(this);
  }

  /** Rebuild an error from {@link ZerdaError.toJSON} output; see {@link deserializeZerdaError}. */
  static fromJSON(data: SerializedZerdaError): ZerdaError {
    return deserializeZerdaError(data);
  }
}

/**
 * The one wire format of a `ZerdaError` (worker hops, tab-to-tab messages, logs): plain,
 * structured-clonable data. `details` that cannot be cloned are dropped; the code never is.
 */
export function serializeZerdaError(err: Pick<ZerdaError, 'code' | 'message' | 'details'>): SerializedZerdaError {
  let details: Record<string, unknown> | undefined;
  try {
    details = err.details ? structuredClone({ ...err.details }) : undefined;
  } catch {
    details = undefined;
  }
  return { name: 'ZerdaError', code: err.code, message: err.message, ...(details ? { details } : {}) };
}

/** True when `value` is the output of {@link serializeZerdaError}. */
export function isSerializedZerdaError(value: unknown): value is SerializedZerdaError {
  if (typeof value !== 'object' || value === null || value instanceof Error) return false;
  const v = value as Partial<SerializedZerdaError>;
  return v.name === 'ZerdaError' && typeof v.code === 'string' && typeof v.message === 'string';
}

/** Rebuild a `ZerdaError` from {@link serializeZerdaError} output. */
export function deserializeZerdaError(data: SerializedZerdaError): ZerdaError {
  return new ZerdaError(data.code, data.message, data.details ? { details: data.details } : {});
}

/** Structured-clonable form of a {@link ZerdaError}. */
export interface SerializedZerdaError {
  name: 'ZerdaError';
  code: ZerdaErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * True when `err` is a Zerda error (optionally with the given code). Works on errors that
 * crossed a worker boundary, since it checks the shape (`name` + `code`), not the class.
 */
export function isZerdaError(err: unknown, code?: ZerdaErrorCode): err is ZerdaError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; code?: unknown };
  if (e.name !== 'ZerdaError' || typeof e.code !== 'string') return false;
  return code === undefined || e.code === code;
}

/** Throw a `VALIDATION` error naming the field, what was received and what was expected. */
export function invalid(field: string, expected: string, received?: unknown): never {
  const got = received === undefined ? '' : ` (received ${describe(received)})`;
  throw new ZerdaError('VALIDATION', `Invalid ${field}: expected ${expected}${got}`, {
    details: { field, expected },
  });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  return typeof value;
}

/** Wrap an unknown failure from a lower layer into a ZerdaError, keeping Zerda errors as they are. */
export function wrapError(code: ZerdaErrorCode, message: string, cause: unknown): ZerdaError {
  if (isZerdaError(cause)) return cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return new ZerdaError(code, message + detail, { cause });
}
