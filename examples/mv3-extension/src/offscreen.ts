// The offscreen document hosts the memory: SQLite in IndexedDB (the extension's origin, so it
// survives browser restarts) and the bundled model in a Web Worker, both served from the extension.
import { openBrowserMemory } from '@zerda/browser/vite';
import type { Reply, ToOffscreen } from './messages.ts';

const opening = openBrowserMemory({ name: 'extension-notes', owner: 'me' });

async function handle(request: ToOffscreen): Promise<Reply> {
  const { manager } = await opening;
  if (request.type === 'remember') {
    await manager.remember('me', 'notes', { title: request.text.slice(0, 60), text: request.text });
    await manager.flush();
    return { ok: true, texts: [] };
  }
  const hits = await manager.recall('me', 'notes', request.query, { topK: 3 });
  return { ok: true, texts: hits.map((h) => (h.entry.content as { text: string }).text) };
}

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  const msg = message as Partial<ToOffscreen>;
  if (msg.target !== 'offscreen') return;
  handle(msg as ToOffscreen).then(sendResponse, (e: unknown) =>
    sendResponse({ ok: false, error: String(e) } satisfies Reply),
  );
  return true;
});
