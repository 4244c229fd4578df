import { expect } from 'vitest';
import { isZerdaError, type ZerdaError, type ZerdaErrorCode } from '../model/errors.js';

/**
 * The expect-a-rejection helpers, written once for every test in the repository. A call is a
 * promise or a function (called here; it may throw synchronously or return a promise).
 */
export type Call = Promise<unknown> | (() => unknown);

/** What `call` threw or rejected with, or `undefined` when it succeeded. */
export async function errorOf(call: Call): Promise<unknown> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (e) {
    return e ?? new Error('rejected with undefined');
  }
  return undefined;
}

/** {@link errorOf} for synchronous calls. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e ?? new Error('threw undefined');
  }
  return undefined;
}

/** The `ZerdaError` code `call` failed with; `NOT_ZERDA: …` for another error; `undefined` when it succeeded. */
export async function codeOf(call: Call): Promise<string | undefined> {
  return codeFrom(await errorOf(call));
}

/** {@link codeOf} for synchronous calls. */
export function thrownCode(fn: () => unknown): string | undefined {
  return codeFrom(thrownBy(fn));
}

/** Expect `call` to fail with a `ZerdaError` of `code` (the test fails otherwise); resolves to it. */
export async function expectZerdaError(call: Call, code: ZerdaErrorCode | string, label = ''): Promise<ZerdaError> {
  const error = await errorOf(call);
  const got = error === undefined ? 'resolved' : codeFrom(error);
  expect(got, `${label ? `${label}: ` : ''}expected a ${code} rejection (${String(error)})`).toBe(code);
  return error as ZerdaError;
}

/** The error `call` rejected with; the test fails when it succeeded. */
export async function rejectionOf(call: Call): Promise<unknown> {
  const error = await errorOf(call);
  expect(error, 'expected a rejection').not.toBeUndefined();
  return error;
}

function codeFrom(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  return isZerdaError(error) ? error.code : `NOT_ZERDA: ${String(error)}`;
}
