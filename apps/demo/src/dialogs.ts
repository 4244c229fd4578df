/**
 * In-page dialogs (memtab): a modal `<dialog>` for confirmations and for viewing long text, and an
 * "undo" bar. Unlike `window.confirm`, these are part of the page: keyboard users get focus moved
 * into the dialog and back afterwards, Escape cancels, screen readers hear the title and the
 * message, and the specs can drive them.
 */
import { h, replace } from './dom.js';

/** Open `content` in a modal dialog titled `title`; resolves when it closes. */
function modal(
  testid: string,
  title: string,
  content: Node[],
  buttons: HTMLButtonElement[],
  focus: HTMLElement,
): HTMLDialogElement {
  const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const id = `dialog-title-${Math.random().toString(36).slice(2)}`;
  const dialog = h(
    'dialog',
    { class: 'demo-dialog', testid, attrs: { 'aria-labelledby': id } },
    h('h2', { text: title, attrs: { id } }),
    ...content,
    h('div', { class: 'dialog-buttons' }, ...buttons),
  );
  dialog.addEventListener('close', () => {
    dialog.remove();
    returnTo?.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  focus.focus();
  return dialog;
}

/**
 * Ask before something destructive. Resolves true when the visitor confirms; false on Cancel,
 * Escape or closing. Focus starts on Cancel, so a stray Enter changes nothing.
 */
export function confirmAction(options: {
  title: string;
  message: string | Node;
  details?: Node | null;
  confirmLabel: string;
}): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = false;
    const yes = h('button', {
      class: 'danger',
      testid: 'confirm-yes',
      text: options.confirmLabel,
      attrs: { type: 'button' },
    });
    const no = h('button', { testid: 'confirm-no', text: 'Cancel', attrs: { type: 'button' } });
    const message =
      typeof options.message === 'string'
        ? h('p', { testid: 'confirm-message', text: options.message })
        : h('div', { testid: 'confirm-message' }, options.message);
    const dialog = modal(
      'confirm-dialog',
      options.title,
      [message, ...(options.details ? [options.details] : [])],
      [yes, no],
      no,
    );
    dialog.setAttribute('role', 'alertdialog');
    yes.addEventListener('click', () => {
      answer = true;
      dialog.close();
    });
    no.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => resolve(answer));
  });
}

/** Show long read-only text (an exact prompt) in a modal dialog with a Close button. */
export function showText(title: string, text: string, testid = 'text-view'): HTMLDialogElement {
  const close = h('button', { testid: `${testid}-close`, text: 'Close', attrs: { type: 'button' } });
  // Focusable, so the keyboard can scroll a long prompt.
  const body = h('pre', { class: 'dialog-text', testid, text, attrs: { tabindex: 0, 'aria-label': title } });
  const dialog = modal(`${testid}-dialog`, title, [body], [close], close);
  close.addEventListener('click', () => dialog.close());
  return dialog;
}

/** The "… Undo" bar a panel shows after a destructive action it can take back. */
export interface UndoBar {
  element: HTMLElement;
  /** Show `message` with an Undo button running `undo` (once); replaces an earlier offer. */
  offer(message: string, undo: () => Promise<string | undefined>): void;
  /** Take the offer away (the state it would restore is gone). */
  clear(): void;
}

export function createUndoBar(testid: string): UndoBar {
  const element = h('div', { class: 'undo-bar', testid, attrs: { role: 'status', 'aria-live': 'polite' } });
  const clear = () => {
    replace(element);
    element.hidden = true;
  };
  clear();
  return {
    element,
    clear,
    offer(message, undo) {
      const button = h('button', {
        class: 'primary',
        testid: `${testid}-undo`,
        text: 'Undo',
        attrs: { type: 'button' },
      });
      const dismiss = h('button', {
        class: 'dismiss',
        testid: `${testid}-dismiss`,
        text: '×',
        attrs: { type: 'button', 'aria-label': 'Dismiss' },
        on: { click: clear },
      });
      const text = h('span', { testid: `${testid}-text`, text: message });
      button.addEventListener('click', async () => {
        button.disabled = true;
        const done = await undo();
        if (done === undefined) {
          button.disabled = false;
          return;
        }
        replace(element, h('span', { testid: `${testid}-text`, text: done }), dismiss);
      });
      replace(element, text, button, dismiss);
      element.hidden = false;
    },
  };
}
