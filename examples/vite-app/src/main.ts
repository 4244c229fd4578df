import { type FactContent, openBrowserMemory, type RecallHit } from '@zerda/browser/vite';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('status');

// The bundled model runs in a worker; memories persist in IndexedDB (SQLite on WASM).
const memory = await openBrowserMemory({
  name: 'notes',
  owner: 'me',
  onProgress: ({ phase, progress }) => {
    status.textContent =
      phase === 'ready' ? '' : `loading ${phase}${progress === undefined ? '' : ` ${Math.round(progress * 100)}%`}`;
  },
});
const { manager } = memory;

async function remember(text: string): Promise<void> {
  await manager.remember('me', 'notes', { title: text.slice(0, 60), text });
  await manager.flush(); // embedded and stored
}

async function recall(query: string): Promise<string[]> {
  // The core types come re-exported from @zerda/browser (an app need not install @zerda/core).
  const hits: RecallHit[] = await manager.recall('me', 'notes', query, { topK: 3 });
  return hits.map((h) => (h.entry.content as FactContent).text);
}

$<HTMLFormElement>('remember').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $<HTMLInputElement>('note');
  if (input.value.trim()) await remember(input.value);
  input.value = '';
});
$<HTMLFormElement>('recall').addEventListener('submit', async (e) => {
  e.preventDefault();
  const list = $<HTMLOListElement>('hits');
  list.replaceChildren(
    ...(await recall($<HTMLInputElement>('query').value)).map((t) =>
      Object.assign(document.createElement('li'), { textContent: t }),
    ),
  );
});

// For the install test (test/e2e/install.spec.ts), which drives this page in Chromium.
Object.assign(globalThis, { zerdaApp: { remember, recall, modelId: memory.embedder?.modelId } });
status.textContent = 'ready';
