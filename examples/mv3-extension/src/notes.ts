import type { BrowserMemory } from '@zerda/browser/vite';
import type { Reply, Request } from './messages.ts';

/** Answer one request from a memory (the offscreen document's, or the service worker's own). */
export async function answer(memory: Promise<BrowserMemory>, request: Request): Promise<Reply> {
  const { manager } = await memory;
  if (request.type === 'remember') {
    await manager.remember('me', 'notes', { title: request.text.slice(0, 60), text: request.text });
    await manager.flush();
    return { ok: true, texts: [] };
  }
  const hits = await manager.recall('me', 'notes', request.query, { topK: 3 });
  return { ok: true, texts: hits.map((h) => (h.entry.content as { text: string }).text) };
}
