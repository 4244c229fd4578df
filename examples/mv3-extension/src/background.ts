// Background service worker: owns no memory itself. A service worker cannot start the Web Worker
// the embedding model runs in (openBrowserMemory from '@zerda/browser/vite' rejects there with
// UNSUPPORTED rather than quietly using another embedder), and it is stopped when idle. The
// memory lives in an offscreen document, a hidden extension page that can; this worker creates
// it on demand and forwards requests to it.
import type { Reply, ToBackground, ToOffscreen } from './messages.ts';

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
    await ensureOffscreen();
    const { target: _, ...request } = msg as ToBackground;
    return chrome.runtime.sendMessage<Reply>({ ...request, target: 'offscreen' } satisfies ToOffscreen);
  })().then(sendResponse, (e: unknown) => sendResponse({ ok: false, error: String(e) } satisfies Reply));
  return true; // answers asynchronously
});
