import { type FactContent, openBrowserMemory } from '@zerda/browser/vite';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

// Workbox's service worker (sw.js, written by vite-plugin-pwa at build time) caches the app and
// Zerda's files on this first visit; `ready` resolves once it is active, i.e. everything is cached.
const offline = import.meta.env.PROD
  ? navigator.serviceWorker.register(`${import.meta.env.BASE_URL}sw.js`).then(() => navigator.serviceWorker.ready)
  : Promise.resolve(undefined);
offline.then(
  () => {
    $('offline').textContent = 'works offline';
  },
  (err: unknown) => {
    $('offline').textContent = `not available offline: ${String(err)}`;
  },
);

const memory = await openBrowserMemory({ name: 'offline-notes', owner: 'me' });
const { manager } = memory;

async function remember(text: string): Promise<void> {
  await manager.remember('me', 'notes', { title: text.slice(0, 60), text });
  await manager.flush();
}

async function recall(query: string): Promise<string[]> {
  const hits = await manager.recall('me', 'notes', query, { topK: 3 });
  return hits.map((h) => (h.entry.content as FactContent).text);
}

$<HTMLFormElement>('form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $<HTMLInputElement>('text');
  const action = (e.submitter as HTMLButtonElement | null)?.name;
  if (!input.value.trim()) return;
  if (action === 'recall') {
    const hits = await recall(input.value);
    $('hits').replaceChildren(...hits.map((t) => Object.assign(document.createElement('li'), { textContent: t })));
  } else {
    await remember(input.value);
    input.value = '';
  }
});

// For the install test (test/e2e/install.spec.ts), which drives this page in Chromium.
Object.assign(globalThis, { zerdaApp: { remember, recall, offlineReady: () => offline } });
$('status').textContent = 'ready';
