import { zerdaMemory } from '@zerda/ai-sdk';
import { openBrowserMemory } from '@zerda/browser/vite';
import { type ModelMessage, streamText, wrapLanguageModel } from 'ai';
import { localModel } from './local-model.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('status');

// Offline after the first visit: the service worker the zerda() plugin emitted caches the build.
const offlineReady = navigator.serviceWorker
  ?.register(`${import.meta.env.BASE_URL}zerda-sw.js`)
  .then(() => navigator.serviceWorker.ready);

// The memory: SQLite in IndexedDB and the bundled embedding model in a worker, all in this page.
const { manager } = await openBrowserMemory({ name: 'ai-sdk-chat', owner: 'me' });

// The two lines: any AI SDK model, wrapped with Zerda's memory.
const model = wrapLanguageModel({ model: localModel, middleware: zerdaMemory({ memory: manager, userId: 'me' }) });

const messages: ModelMessage[] = [];

async function send(text: string): Promise<string> {
  messages.push({ role: 'user', content: text });
  const result = streamText({ model, system: 'You are a helpful assistant.', messages });
  let answer = '';
  for await (const delta of result.textStream) answer += delta;
  messages.push({ role: 'assistant', content: answer });
  await manager.flush(); // the turn is saved when the stream ends; flush also waits for its embedding
  return answer;
}

function show(who: string, text: string): void {
  $<HTMLOListElement>('log').append(Object.assign(document.createElement('li'), { textContent: `${who}: ${text}` }));
}

$<HTMLFormElement>('chat').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $<HTMLInputElement>('message');
  const text = input.value.trim();
  input.value = '';
  if (!text) return;
  show('you', text);
  show('assistant', await send(text));
});

// For the install test (test/e2e/install.spec.ts), which drives this page in Chromium.
Object.assign(globalThis, { zerdaChat: { send, offlineReady: () => offlineReady } });
status.textContent = 'ready';
