const KEY = 'zerda-demo:clock-offset-days';
const DAY = 86_400_000;

/** A clock the visitor can move forward to watch decay and forgetting happen. */
export interface DemoClock {
  now(): number;
  offsetDays(): number;
  advance(days: number): void;
  reset(): void;
}

/** The demo clock: real time plus an offset in days kept in localStorage. */
export function createDemoClock(): DemoClock {
  let offset = Number(localStorage.getItem(KEY) ?? 0) || 0;
  const save = () => localStorage.setItem(KEY, String(offset));
  return {
    now: () => Date.now() + offset * DAY,
    offsetDays: () => offset,
    advance(days) {
      offset += days;
      save();
    },
    reset() {
      offset = 0;
      save();
    },
  };
}
