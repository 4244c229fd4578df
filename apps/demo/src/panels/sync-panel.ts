import { openBrowserMemory, type BrowserMemory } from '@zerda/browser/vite';
import type { ZerdaExport } from '@zerda/sqlite';
import { startSync, type SyncHandle, type SyncStatus } from '@zerda/sync';
import { TENANT, type DemoApp } from '../app.js';
import { fmtDate, h, replace } from '../dom.js';

/** Where `bash scripts/demo.sh` serves its local sync server (apps/demo/sync-plugin.ts), and its token. */
const SYNC_URL = `${location.origin}${new URL('./sync', document.baseURI).pathname}`;
const SYNC_TOKEN = 'zerda-demo-sync';

/** One "device": a memory, its sync, and a switch that cuts its network (a fetch that fails). */
interface Device {
  label: string;
  memory: BrowserMemory;
  sync: SyncHandle;
  offline: boolean;
}

/**
 * Sync: two devices in this browser — this demo's memory and a second store (SQLite in memory,
 * lexical recall) — exchange memories through the local sync server, end-to-end encrypted with a
 * passphrase typed here. Either can go offline, be edited, and come back; both then converge.
 */
export function createSyncPanel(app: DemoApp): HTMLElement {
  const passphrase = h('input', {
    testid: 'sync-passphrase',
    attrs: { id: 'sync-passphrase', type: 'password', autocomplete: 'new-password', placeholder: 'sync passphrase' },
  });
  const start = h('button', { class: 'primary', testid: 'sync-start', text: 'Start syncing both devices' });
  const setup = h(
    'form',
    { class: 'row', testid: 'sync-setup' },
    h('label', { attrs: { for: 'sync-passphrase' }, text: 'Sync passphrase' }),
    passphrase,
    start,
  );
  const devicesView = h('div', { class: 'sync-devices', testid: 'sync-devices' });
  const converged = h('p', { testid: 'sync-converged', attrs: { role: 'status', 'aria-live': 'polite' } });
  let devices: Device[] = [];

  const statusText = (s: SyncStatus, offline: boolean) =>
    `${offline ? 'offline (network cut)' : s.state} · ${s.pending} waiting to push · last synced ${
      s.lastSyncedAt ? fmtDate(s.lastSyncedAt) : 'never'
    }${s.lastError && s.state !== 'idle' ? ` · ${s.lastError.code}: ${s.lastError.message}` : ''}`;

  const compare = async () => {
    if (devices.length < 2) return;
    const [a, b] = await Promise.all(devices.map((d) => d.memory.exportJson({ tenantId: TENANT })));
    const strip = ({ exportedAt: _at, ...doc }: ZerdaExport) => JSON.stringify(doc);
    const same = strip(a!) === strip(b!);
    converged.dataset.converged = String(same);
    converged.textContent = same
      ? `✓ Both devices hold the same ${a!.entries.length} memories (identical exports, vectors aside).`
      : `Not in sync yet: this device holds ${a!.entries.length} memories, the second device ${b!.entries.length}.`;
  };

  const secondList = h('ul', { class: 'sync-list', testid: 'sync-second-list' });
  let shown = '';
  const renderSecond = async (second: Device) => {
    const entries = (await second.memory.storage.query({ tenantId: TENANT, tiers: ['long_term'] })).slice(0, 20);
    // Re-rendered only when what it shows changed, and never under the visitor's typing.
    const key = JSON.stringify(entries.map((e) => [e.id, (e.content as { text?: string }).text]));
    if (key === shown || secondList.contains(document.activeElement)) return;
    shown = key;
    replace(
      secondList,
      ...entries.map((e) => {
        const text = (e.content as { text?: string }).text ?? '';
        const input = h('input', {
          testid: 'sync-second-text',
          attrs: { value: text, 'aria-label': `Text of “${text.slice(0, 40)}” on the second device` },
        });
        const save = h('button', {
          testid: 'sync-second-save',
          text: 'Save',
          attrs: { type: 'button', 'aria-label': `Save “${text.slice(0, 40)}” on the second device` },
        });
        save.addEventListener('click', () =>
          app.guard(
            async () => {
              await second.memory.manager.updateMemory('alice', TENANT, e.id, { text: input.value });
              await refresh();
            },
            { near: save },
          ),
        );
        return h('li', { testid: 'sync-second-item' }, input, save);
      }),
    );
    if (!entries.length) secondList.append(h('li', { class: 'muted', text: 'No memories on this device yet.' }));
  };

  const statusLines = new Map<Device, HTMLElement>();
  const refresh = async () => {
    for (const [d, line] of statusLines) line.textContent = statusText(d.sync.status, d.offline);
    const second = devices[1];
    if (second) await renderSecond(second);
    await compare();
  };

  const deviceCard = (d: Device, testid: string, extra: HTMLElement | null) => {
    const status = h('p', { class: 'muted', testid: `${testid}-status` });
    statusLines.set(d, status);
    const offline = h('input', { testid: `${testid}-offline`, attrs: { type: 'checkbox', id: `${testid}-offline` } });
    offline.addEventListener('change', () => {
      d.offline = offline.checked;
      // Back online: sync at once, as the runtime's `online` event would on a real device.
      if (!d.offline) void d.sync.syncNow().catch(() => undefined);
      void refresh();
    });
    const now = h('button', { testid: `${testid}-sync-now`, text: 'Sync now', attrs: { type: 'button' } });
    now.addEventListener('click', () => void d.sync.syncNow().catch(() => undefined));
    return h(
      'section',
      { class: 'sync-device', testid },
      h('h4', { text: d.label }),
      status,
      h('div', { class: 'row' }, h('label', { attrs: { for: `${testid}-offline` } }, offline, ' Offline'), now),
      extra,
    );
  };

  const connect = async (label: string, memory: BrowserMemory): Promise<Device> => {
    const device = { label, memory, offline: false } as Device;
    device.sync = startSync({
      // With the demo open in several tabs only the tab that owns the database syncs (startSync's default).
      manager: memory.manager,
      url: SYNC_URL,
      tenantId: TENANT,
      token: SYNC_TOKEN,
      passphrase: passphrase.value,
      intervalMs: 5000,
      fetch: (input, init) =>
        device.offline ? Promise.reject(new TypeError('the network of this device is cut (demo)')) : fetch(input, init),
    });
    device.sync.on((e) => {
      if (e.type === 'applied' && device.memory === app.memory) app.changed('memories');
      if (e.type === 'status' || e.type === 'applied') void refresh();
    });
    return device;
  };

  setup.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!passphrase.value) return;
    void app
      .guard(
        async () => {
          start.disabled = true;
          const mine = app.memory;
          const second = await openBrowserMemory({
            storage: 'memory',
            embedder: 'none',
            owner: 'alice',
            clock: () => Date.now(),
          });
          devices = [
            await connect('This device (the demo’s memory)', mine),
            await connect('Second device (another store, in memory)', second),
          ];
          const text = h('input', {
            testid: 'sync-second-new',
            attrs: { id: 'sync-second-new', placeholder: 'e.g. I drink my coffee black' },
          });
          const add = h('button', { testid: 'sync-second-add', text: 'Remember on the second device' });
          const form = h(
            'form',
            { class: 'row' },
            h('label', { attrs: { for: 'sync-second-new' }, text: 'New memory' }),
            text,
            add,
          );
          form.addEventListener('submit', (ev) => {
            ev.preventDefault();
            if (!text.value.trim()) return;
            void app.guard(
              async () => {
                await second.manager.remember('alice', TENANT, {
                  title: 'note',
                  text: text.value.trim(),
                  kind: 'fact',
                });
                text.value = '';
                await refresh();
              },
              { near: add },
            );
          });
          replace(
            devicesView,
            deviceCard(devices[0]!, 'sync-device-a', null),
            deviceCard(devices[1]!, 'sync-device-b', h('div', {}, form, secondList)),
          );
          setup.hidden = true;
          await refresh();
        },
        { near: start },
      )
      .finally(() => {
        start.disabled = false;
      });
  });

  app.on('memories', () => void refresh());
  return h(
    'section',
    { class: 'panel', testid: 'sync-panel' },
    h('h3', { text: 'Sync between two devices' }),
    h('p', {
      class: 'muted',
      text: 'Two devices in this browser: this demo’s memory and a second store. Both sync through the local sync server that scripts/demo.sh runs, end-to-end encrypted: the server only ever holds ciphertext. Cut a device’s network, edit on both, reconnect, and watch them converge.',
    }),
    setup,
    devicesView,
    converged,
  );
}
