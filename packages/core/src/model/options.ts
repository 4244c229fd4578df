import { invalid } from './errors.js';

/**
 * The unknown-option-key check, one place: `options` must be a plain object (not null, not an
 * array) whose keys are all in `allowed`. A typo such as `storge` would otherwise be ignored
 * silently and the call would run with a default. Throws `INVALID_ARGUMENT` naming `what.key`.
 */
export function checkOptionKeys(options: unknown, allowed: readonly string[], what: string): asserts options is object {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) invalid(what, 'an object', options);
  for (const key of Object.keys(options))
    if (!allowed.includes(key)) invalid(`${what}.${key}`, `one of ${allowed.join(', ')}`, key);
}
