// Background service worker. A service worker cannot start the Web Worker the embedding model runs
// in (openBrowserMemory from '@zerda/browser/vite' rejects there with UNSUPPORTED rather than
// quietly using another embedder), and it is stopped when idle. So the memory with the model lives
// in an offscreen document, a hidden extension page that can; this worker creates it on demand and
// forwards requests to it. Requests marked `where: 'service-worker'` are answered here instead, from
// a memory opened in the service worker itself without a model (`embedder: 'hash'`: SQLite in
// IndexedDB, recall by keywords and feature hashing).
import { openBrowserMemory, type BrowserMemory } from '@zerda/browser/vite';
import type { Reply, Request, ToBackground, ToOffscreen } from './messages.ts';
import { answer } from './notes.ts';

let local: Promise<BrowserMemory> | undefined;

function handleHere(request: Request): Promise<Reply> {
  local ??= openBrowserMemory({ name: 'service-worker-notes', owner: 'me', embedder: 'hash' });
  return answer(local, request);
}

let creating: Promise<void> | undefined;

async function ensureOffscreen(): Promise<void> {
  const url = chrome.runtime.getURL('offscreen.html');
  const existing = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] });
  if (existing.length > 0) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: 'offscreen.html',
      reasons: ['WORKERS'],
      justification: 'Hosts the memory and its embedding model worker',
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  const msg = message as Partial<ToBackground>;
  if (msg.target !== 'background') return;
  (async (): Promise<Reply> => {
    const { target: _, ...request } = msg as ToBackground;
    if (request.where === 'service-worker') return handleHere(request);
    await ensureOffscreen();
    return chrome.runtime.sendMessage<Reply>({ ...request, target: 'offscreen' } satisfies ToOffscreen);
  })().then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: String(e) } satisfies Reply));
  return true; // answers asynchronously
});

// For the install test (test/e2e/install.spec.ts), which also opens memories in this worker itself.
Object.assign(globalThis, { zerdaBackground: { openBrowserMemory } });
