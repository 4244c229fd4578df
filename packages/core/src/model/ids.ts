import { invalid } from './errors.js';
import { checkWellFormed } from './limits.js';

/** Longest id (tenant, user, memory) in UTF-16 code units. */
export const MAX_ID_LENGTH = 256;

/**
 * The id rule, one place: an id (tenant, user, memory, owner) is a string of 1 to
 * {@link MAX_ID_LENGTH} characters with at least one non-space character, well-formed (no lone
 * surrogate: storage would turn it into U+FFFD and the id could never be addressed again). It is
 * used as given (never trimmed): `' a'` and `'a'` are different ids. Throws `VALIDATION` naming
 * `field`.
 */
export function checkId(field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || !value.trim() || value.length > MAX_ID_LENGTH)
    invalid(field, `a non-empty string of at most ${MAX_ID_LENGTH} characters`, value);
  checkWellFormed(field, value);
}

/** {@link checkId}, returning the id. */
export function validId(field: string, value: unknown): string {
  checkId(field, value);
  return value;
}
