import type { DemoApp } from './app.js';
import type { DemoClock } from './demo-clock.js';
import { h } from './dom.js';
import { helpFor } from './help.js';

/** The jumps the header offers: label, days, test id. A month is 30 days, a year 365. */
export const CLOCK_JUMPS = [
  ['+1 day', 1, 'clock-plus-day'],
  ['+1 month', 30, 'clock-plus-month'],
  ['+1 year', 365, 'clock-plus-year'],
] as const;

/** "+1 year 2 months 3 days" for an offset in days (years of 365, months of 30), "real time" for 0. */
export function describeOffset(days: number): string {
  if (days === 0) return 'real time';
  const sign = days < 0 ? '−' : '+';
  let rest = Math.abs(days);
  const years = Math.floor(rest / 365);
  rest -= years * 365;
  const months = Math.floor(rest / 30);
  rest -= months * 30;
  const parts = [
    years ? `${years} year${years > 1 ? 's' : ''}` : '',
    months ? `${months} month${months > 1 ? 's' : ''}` : '',
    rest ? `${rest} day${rest > 1 ? 's' : ''}` : '',
  ].filter(Boolean);
  return `${sign}${parts.join(' ')}`;
}

/**
 * The demo clock in the header: the simulated date, its offset from real time, jump buttons and
 * "Reset to now". Every change is announced to the panels (`clock`, and `memories`, whose
 * importance depends on the time) and read out politely to screen readers.
 */
export function createClockBar(app: DemoApp, clock: DemoClock): HTMLElement {
  const date = h('time', { class: 'clock-date', testid: 'clock-date' });
  const offset = h('span', { class: 'clock-offset', testid: 'clock-offset' });
  const reset = h('button', {
    testid: 'clock-reset',
    text: 'Reset to now',
    attrs: { type: 'button' },
    on: { click: () => change(() => clock.reset()) },
  });
  const render = () => {
    const now = clock.now();
    date.dateTime = new Date(now).toISOString();
    date.textContent = new Date(now).toLocaleDateString(undefined, { dateStyle: 'medium' });
    offset.textContent = describeOffset(clock.offsetDays());
    bar.dataset.offsetDays = String(clock.offsetDays());
    reset.disabled = clock.offsetDays() === 0;
  };
  const change = (action: () => void) => {
    action();
    render();
    app.changed('clock');
    app.changed('memories');
  };
  const bar = h(
    'div',
    { class: 'clock-bar', testid: 'clock-bar', attrs: { role: 'group', 'aria-label': 'Demo clock' } },
    h('span', { class: 'clock-title' }, 'Demo clock ', helpFor('clock')),
    h('span', { class: 'clock-now', attrs: { 'aria-live': 'polite', 'aria-atomic': 'true' } }, date, ' ', offset),
    ...CLOCK_JUMPS.map(([label, days, testid]) =>
      h('button', {
        testid,
        text: label,
        title: `Move the demo clock ${days} day${days > 1 ? 's' : ''} forward`,
        attrs: { type: 'button' },
        on: { click: () => change(() => clock.advance(days)) },
      }),
    ),
    reset,
  );
  render();
  return bar;
}
