/** A source of the current time in epoch milliseconds. Injected everywhere time matters, so tests can control it. */
export type Clock = () => number;

/** The real clock (`Date.now`). */
export const systemClock: Clock = () => Date.now();

/** Milliseconds in one day. */
export const DAY_MS = 86_400_000;
