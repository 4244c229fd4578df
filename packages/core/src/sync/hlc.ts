/**
 * Hybrid logical clock timestamps: wall-clock milliseconds plus a counter, written as one
 * fixed-width string (`"0001764582000000.000000"`) so that plain string comparison orders them.
 * A clock never goes backwards: a timestamp is later than every one this clock issued or observed,
 * even when the wall clock steps back or two writes share a millisecond.
 */

const WALL_DIGITS = 16;
const COUNTER_DIGITS = 6;
const MAX_COUNTER = 10 ** COUNTER_DIGITS - 1;
const HLC_PATTERN = /^\d{16}\.\d{6}$/;

/** The timestamp of `wall` milliseconds and `counter`. */
export function formatHlc(wall: number, counter: number): string {
  return `${String(Math.max(0, Math.floor(wall))).padStart(WALL_DIGITS, '0')}.${String(counter).padStart(COUNTER_DIGITS, '0')}`;
}

/** True when `value` is a timestamp made by {@link formatHlc}. */
export function isHlc(value: unknown): value is string {
  return typeof value === 'string' && HLC_PATTERN.test(value);
}

/** The wall-clock milliseconds of a timestamp. */
export function hlcWall(hlc: string): number {
  return Number(hlc.slice(0, WALL_DIGITS));
}

/** The smallest timestamp that is not earlier than `wall` and later than `after` (when given). */
export function nextHlc(wall: number, after?: string): string {
  if (after === undefined || hlcWall(after) < Math.floor(wall)) return formatHlc(wall, 0);
  const w = hlcWall(after);
  const c = Number(after.slice(WALL_DIGITS + 1));
  return c >= MAX_COUNTER ? formatHlc(w + 1, 0) : formatHlc(w, c + 1);
}

/** Issues increasing timestamps from a wall clock, observing the ones it receives. */
export class HybridClock {
  readonly #wall: () => number;
  #last: string | undefined;

  /** `last`: the latest timestamp issued or seen before (e.g. read back from storage). */
  constructor(wall: () => number, last?: string) {
    this.#wall = wall;
    this.#last = last;
  }

  /** A timestamp later than every one issued or observed so far. */
  now(): string {
    this.#last = nextHlc(this.#wall(), this.#last);
    return this.#last;
  }

  /** Note a timestamp from elsewhere, so later ones issued here sort after it. */
  observe(hlc: string): void {
    if (this.#last === undefined || hlc > this.#last) this.#last = hlc;
  }
}
