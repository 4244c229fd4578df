/** Tiny DOM helpers: the demo needs no framework. */

type Child = Node | string | number | null | undefined | false;

/** Element properties understood by {@link h}. */
export interface Props {
  class?: string;
  /** Becomes `data-testid`: the stable hook the Playwright specs use. */
  testid?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

/** Create an element: `h('button', { testid: 'send', on: { click } }, 'Send')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.testid) el.dataset.testid = props.testid;
  if (props.title) el.title = props.title;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) el.addEventListener(type, listener as EventListener);
  append(el, ...children);
  return el;
}

/** Append children, skipping empty ones. */
export function append(parent: Element, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(typeof c === 'number' ? String(c) : c);
  }
}

/** Replace all children. */
export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** A labelled form control. */
export function field(label: string, control: HTMLElement): HTMLLabelElement {
  return h('label', { class: 'field' }, h('span', { text: label }), control);
}

/** `<select>` from value/label pairs. */
export function select(testid: string, options: [value: string, label: string][], value?: string): HTMLSelectElement {
  const el = h('select', { testid }, ...options.map(([v, l]) => h('option', { attrs: { value: v }, text: l })));
  if (value !== undefined) el.value = value;
  return el;
}

/** Number with fixed decimals, for scores. */
export function fmt(n: number | undefined, digits = 3): string {
  return n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits);
}

/** Short local date-time. */
export function fmtDate(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/** Let the browser paint and handle input before continuing a long job. */
export function yieldToUi(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Offer text or bytes as a file download. */
export function download(filename: string, data: string | Blob, type = 'application/json'): void {
  const url = URL.createObjectURL(typeof data === 'string' ? new Blob([data], { type }) : data);
  const a = h('a', { attrs: { href: url, download: filename } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Wrap a panel's refresh so it only runs while the panel is shown: a hidden panel is marked
 * stale and refreshes when it becomes visible again. Keeps a bulk change from re-rendering every
 * panel in one long task.
 */
export function whenVisible(panel: HTMLElement, refresh: () => void): () => void {
  let stale = false;
  new MutationObserver(() => {
    if (!panel.hidden && stale) {
      stale = false;
      refresh();
    }
  }).observe(panel, { attributes: true, attributeFilter: ['hidden'] });
  return () => {
    if (panel.hidden) stale = true;
    else refresh();
  };
}
