import { isZerdaError } from '@zerda/core';
import type { BrowserMemory } from '@zerda/browser';
import { DemoApp, describeError, TENANT } from './app.js';
import { createClockBar } from './clock-bar.js';
import { createDemoClock } from './demo-clock.js';
import { confirmAction } from './dialogs.js';
import { createGuide } from './guide.js';
import { h, replace } from './dom.js';
import { DATABASE, isMarkedEncrypted, markEncrypted, openDemoMemory } from './open-memory.js';
import { registerOffline } from './offline.js';
import { createChatPanel } from './panels/chat-panel.js';
import { createDataPanel } from './panels/data-panel.js';
import { createImportancePanel } from './panels/importance-panel.js';
import { createInspectorPanel } from './panels/inspector-panel.js';
import { createPrivacyPanel } from './panels/privacy-panel.js';
import { createProfilePanel } from './panels/profile-panel.js';
import { createRecallPanel } from './panels/recall-panel.js';
import { createSyncPanel } from './panels/sync-panel.js';
import { createProgressBar } from './progress.js';
import './styles.css';

const root = document.getElementById('app')!;
const clock = createDemoClock();
const errorText = h('span', { testid: 'error-text' });
const errorBanner = h(
  'div',
  { class: 'error-banner', testid: 'error-banner', attrs: { role: 'alert', hidden: true } },
  errorText,
  h('button', {
    class: 'dismiss',
    testid: 'error-dismiss',
    title: 'Dismiss',
    attrs: { type: 'button', 'aria-label': 'Dismiss' },
    text: '×',
    on: { click: () => showError('') },
  }),
);
function showError(message: string): void {
  errorText.textContent = message;
  errorBanner.hidden = !message;
}
// Hidden the moment it is done: the app appearing is the "ready" signal.
const modelProgress = createProgressBar('model-progress', 'Loading', { lingerMs: 0 });
const offlineStatus = h('span', { class: 'badge', testid: 'offline-status', text: 'offline: …' });
const storageStatus = h('span', { class: 'badge', testid: 'storage-status' });

// Registered once the app has loaded (see start()): the service worker then precaches files the
// HTTP cache already holds (304s) instead of downloading the model and WASM a second time.
function enableOffline(): void {
  void registerOffline((state, detail) => {
    offlineStatus.textContent = state === 'ready' ? 'offline-ready' : `offline: ${state}`;
    offlineStatus.dataset.state = state;
    offlineStatus.title = detail ?? '';
  });
}

async function open(passphrase?: string): Promise<BrowserMemory> {
  return openDemoMemory({
    clock: () => clock.now(),
    ...(passphrase ? { passphrase } : {}),
    onProgress: (p) => {
      if (p.phase === 'ready') modelProgress.done('ready');
      else
        modelProgress.set(
          p.progress ?? null,
          `${p.phase === 'model' ? 'embedding model' : 'database'}${p.detail ? `: ${p.detail}` : ''}`,
        );
    },
  });
}

/** Ask for the passphrase until the encrypted database opens (or the visitor starts over). */
function unlock(firstError?: string): Promise<BrowserMemory> {
  return new Promise((resolve) => {
    const input = h('input', {
      testid: 'unlock-passphrase',
      attrs: { type: 'password', placeholder: 'passphrase', autocomplete: 'current-password', id: 'unlock-passphrase' },
    });
    const error = h('p', { class: 'error', testid: 'unlock-error', text: firstError ?? '', attrs: { role: 'alert' } });
    const submit = h('button', { class: 'primary', testid: 'unlock-submit', text: 'Unlock' });
    const reset = h('button', {
      class: 'danger',
      testid: 'unlock-reset',
      text: 'Forgot it? Delete this memory and start over',
      attrs: { type: 'button' },
      on: { click: () => void startOver() },
    });
    const form = h(
      'form',
      { class: 'unlock', testid: 'unlock-form' },
      h('h1', { text: 'This memory is encrypted' }),
      h('p', { text: 'Enter the passphrase to decrypt it. The key is derived in this tab and never stored.' }),
      h('label', { attrs: { for: 'unlock-passphrase' }, text: 'Passphrase' }),
      input,
      submit,
      error,
      reset,
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      submit.disabled = true;
      error.textContent = '';
      try {
        const memory = await open(input.value);
        form.remove();
        resolve(memory);
      } catch (err) {
        error.textContent = isZerdaError(err, 'DECRYPTION') ? `Wrong passphrase (${err.code})` : describeError(err);
        submit.disabled = false;
        input.select();
      }
    });
    replace(root, h('main', { class: 'solo' }, form));
    input.focus();
  });
}

/** Without the passphrase the data is unreadable by design: the only way on is a fresh database. */
async function startOver(): Promise<void> {
  const ok = await confirmAction({
    title: 'Start over?',
    message:
      'The encrypted memory in this browser is deleted. Without the passphrase it cannot be read, and this cannot be undone.',
    confirmLabel: 'Delete and start over',
  });
  if (!ok) return;
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(DATABASE);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('Close the other tabs of this demo first.'));
  });
  markEncrypted(false);
  location.reload();
}

async function start(): Promise<void> {
  replace(
    root,
    h(
      'main',
      { class: 'solo' },
      h('div', { class: 'loading', testid: 'loading' }, h('h1', { text: 'Zerda' }), modelProgress.element),
    ),
  );
  modelProgress.set(null, 'starting');
  let memory: BrowserMemory;
  if (isMarkedEncrypted()) {
    memory = await unlock();
  } else {
    try {
      memory = await open();
    } catch (err) {
      if (!isZerdaError(err, 'DECRYPTION')) throw err;
      markEncrypted(true);
      memory = await unlock();
    }
  }
  mount(new DemoApp(memory, showError));
}

function mount(app: DemoApp): void {
  const userSelect = app.userPicker('user-select');
  const updateStorage = () => {
    storageStatus.textContent = `${app.memory.name ? `IndexedDB “${app.memory.name}”` : 'in memory'}${app.memory.encrypted ? ' · encrypted' : ''} · ${app.memory.embedder?.modelId ?? 'no embedder'}`;
    storageStatus.dataset.encrypted = String(app.memory.encrypted);
  };
  app.on('encryption', updateStorage);
  updateStorage();

  const setPassphrase = async (passphrase: string | null) => {
    try {
      await app.memory.setPassphrase(passphrase);
    } catch (err) {
      // The library's message names its API (isOwner); a visitor needs to know what to do instead.
      if (isZerdaError(err, 'UNSUPPORTED')) {
        throw new Error(
          'UNSUPPORTED: encryption can only be changed in the tab that opened this demo first. Change it there, or close the other tabs and reload this one.',
        );
      }
      throw err;
    }
    markEncrypted(passphrase !== null);
    app.changed('encryption');
  };

  const tabs: [id: string, label: string, panel: HTMLElement][] = [
    ['memory', 'Memory', createInspectorPanel(app)],
    ['recall', 'Recall', createRecallPanel(app)],
    ['importance', 'Importance', createImportancePanel(app)],
    ['profile', 'Profile', createProfilePanel(app)],
    ['privacy', 'Privacy', createPrivacyPanel(app, setPassphrase)],
    ['sync', 'Sync', createSyncPanel(app)],
    ['data', 'Data', createDataPanel(app)],
  ];
  // The WAI-ARIA tabs pattern: one tab in the tab order (roving tabindex), Left/Right/Home/End
  // move between tabs and select them, each panel is labelled by its tab.
  const nav = h('div', {
    class: 'tabs',
    testid: 'tab-list',
    attrs: { role: 'tablist', 'aria-label': 'Inspect the memory' },
  });
  const body = h('div', { class: 'tab-body' });
  const buttons: HTMLButtonElement[] = [];
  const show = (id: string) => {
    for (const [tid, , panel] of tabs) panel.hidden = tid !== id;
    for (const b of buttons) {
      const selected = b.dataset.tab === id;
      b.setAttribute('aria-selected', String(selected));
      b.tabIndex = selected ? 0 : -1;
    }
  };
  for (const [id, label, panel] of tabs) {
    const button = h('button', {
      testid: `tab-${id}`,
      attrs: { type: 'button', role: 'tab', id: `tab-${id}`, 'aria-controls': `panel-${id}`, 'data-tab': id },
      text: label,
      on: { click: () => show(id) },
    });
    buttons.push(button);
    nav.append(button);
    panel.id = `panel-${id}`;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', `tab-${id}`);
    panel.tabIndex = 0;
    body.append(panel);
  }
  nav.addEventListener('keydown', (e) => {
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % buttons.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + buttons.length) % buttons.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? buttons.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    buttons[to]!.focus();
    buttons[to]!.click();
  });
  show('memory');

  const chat = createChatPanel(app);
  const clockBar = createClockBar(app, clock);
  const guide = createGuide(app, {
    say: (text) => chat.say(text),
    showTab: show,
    jumpYear: () => clockBar.querySelector<HTMLButtonElement>('[data-testid="clock-plus-year"]')!.click(),
  });
  const skip = h('a', {
    class: 'skip-link',
    testid: 'skip-to-chat',
    attrs: { href: '#chat-input' },
    text: 'Skip to the chat',
    on: {
      click: (e) => {
        e.preventDefault();
        chat.element.querySelector<HTMLElement>('#chat-input')?.focus();
      },
    },
  });
  replace(
    root,
    skip,
    h(
      'header',
      {},
      h('h1', {}, 'Zerda ', h('small', { text: 'browser-first memory for AI chat' })),
      clockBar,
      h('div', { class: 'status' }, storageStatus, offlineStatus, h('label', {}, 'User ', userSelect), guide.button),
    ),
    modelProgress.element,
    errorBanner,
    guide.card,
    h('main', {}, chat.element, h('aside', { class: 'inspector', attrs: { 'aria-label': 'Inspector' } }, nav, body)),
  );
  document.body.dataset.ready = 'true';
  document.body.dataset.tenant = TENANT;
  enableOffline();
}

start().catch((err) => {
  replace(
    root,
    h(
      'main',
      { class: 'solo' },
      h(
        'div',
        { class: 'fatal', testid: 'fatal-error' },
        h('h1', { text: 'Zerda could not start' }),
        h('pre', { text: describeError(err) }),
      ),
    ),
  );
});
