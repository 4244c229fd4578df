'use client';
// Importing @zerda/browser here is safe during server rendering: its graph never reaches the
// model runtime (that is only in the worker), and nothing runs until the effect does, in the browser.
import { type FactContent, openBrowserMemory, type BrowserMemory, type RecallHit } from '@zerda/browser';
import { type FormEvent, useEffect, useRef, useState } from 'react';

async function remember(memory: BrowserMemory, text: string): Promise<void> {
  await memory.manager.remember('me', 'notes', { title: text.slice(0, 60), text });
  await memory.manager.flush(); // embedded and stored
}

async function recall(memory: BrowserMemory, query: string): Promise<string[]> {
  const found: RecallHit[] = await memory.manager.recall('me', 'notes', query, { topK: 3 });
  return found.map((h) => (h.entry.content as FactContent).text);
}

export function Notes() {
  const memory = useRef<BrowserMemory | undefined>(undefined);
  const [status, setStatus] = useState('loading');
  const [hits, setHits] = useState<string[]>([]);

  useEffect(() => {
    let closed = false;
    const opening = openBrowserMemory({
      name: 'next-notes',
      owner: 'me',
      sqlWasmUrl: '/zerda/sql-wasm-browser.wasm',
      embedder: { worker: new Worker(new URL('./embed-worker.ts', import.meta.url), { type: 'module' }) },
      onProgress: ({ phase, progress }) => {
        if (phase !== 'ready') setStatus(`loading ${phase} ${Math.round((progress ?? 0) * 100)}%`);
      },
    });
    opening.then(
      (m) => {
        if (closed) return void m.close();
        memory.current = m;
        // For the test (test/e2e/nextjs.spec.ts), which drives this page in Chromium.
        Object.assign(globalThis, {
          zerdaApp: {
            remember: (text: string) => remember(m, text),
            recall: (query: string) => recall(m, query),
            modelId: m.embedder?.modelId,
          },
        });
        setStatus('ready');
      },
      (e: unknown) => setStatus(`error: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      closed = true;
      void memory.current?.close();
      memory.current = undefined;
    };
  }, []);

  async function onRemember(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const input = e.currentTarget.elements.namedItem('note') as HTMLInputElement;
    if (memory.current && input.value.trim()) await remember(memory.current, input.value);
    input.value = '';
  }

  async function onRecall(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const query = (e.currentTarget.elements.namedItem('query') as HTMLInputElement).value;
    if (memory.current) setHits(await recall(memory.current, query));
  }

  return (
    <>
      <p id="status">{status}</p>
      <form onSubmit={onRemember}>
        <input name="note" aria-label="Note" placeholder="Something to remember" />
        <button type="submit">Remember</button>
      </form>
      <form onSubmit={onRecall}>
        <input name="query" aria-label="Question" placeholder="Ask about it" />
        <button type="submit">Recall</button>
      </form>
      <ol>
        {hits.map((h) => (
          <li key={h}>{h}</li>
        ))}
      </ol>
    </>
  );
}
