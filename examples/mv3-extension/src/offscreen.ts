// The offscreen document hosts the memory: SQLite in IndexedDB (the extension's origin, so it
// survives browser restarts) and the bundled model in a Web Worker, both served from the extension.
import { openBrowserMemory } from '@zerda/browser/vite';
import type { Reply, ToOffscreen } from './messages.ts';
import { answer } from './notes.ts';

const opening = openBrowserMemory({ name: 'extension-notes', owner: 'me' });

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  const msg = message as Partial<ToOffscreen>;
  if (msg.target !== 'offscreen') return;
  answer(opening, msg as ToOffscreen).then(sendResponse, (e: unknown) =>
    sendResponse({ ok: false, error: String(e) } satisfies Reply),
  );
  return true;
});
