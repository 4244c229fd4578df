import { h } from './dom.js';

/** A labelled progress bar. `set(null)` shows an indeterminate bar; `done()` hides it. */
export interface ProgressBar {
  readonly element: HTMLElement;
  set(fraction: number | null, label?: string): void;
  done(label?: string): void;
}

/**
 * Create a progress bar with a stable test id (`<testid>` on the wrapper, `<testid>-label` on the
 * text). `done()` leaves the finished bar up for `lingerMs` (default 4 s, so a visitor can read
 * "312 of 312 re-embedded"); 0 hides it at once (the start-up bar: the app itself says it is ready).
 */
export function createProgressBar(testid: string, title: string, options: { lingerMs?: number } = {}): ProgressBar {
  const lingerMs = options.lingerMs ?? 4000;
  const bar = h('progress', { attrs: { max: 1, 'aria-label': title } });
  const label = h('span', { class: 'progress-label', testid: `${testid}-label` });
  const element = h(
    'div',
    { class: 'progress', testid, attrs: { hidden: true } },
    h('strong', { text: title }),
    bar,
    label,
  );
  return {
    element,
    set(fraction, text) {
      element.hidden = false;
      element.dataset.state = 'running';
      if (fraction === null) bar.removeAttribute('value');
      else bar.value = Math.min(1, Math.max(0, fraction));
      label.textContent = text ?? (fraction === null ? '' : `${Math.round(fraction * 100)}%`);
    },
    done(text) {
      bar.value = 1;
      element.dataset.state = 'done';
      label.textContent = text ?? 'done';
      if (lingerMs <= 0) element.hidden = true;
      else
        setTimeout(() => {
          if (element.dataset.state === 'done') element.hidden = true;
        }, lingerMs);
    },
  };
}
