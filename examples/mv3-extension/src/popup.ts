// The popup talks only to the background service worker.
import type { Reply, Request, ToBackground } from './messages.ts';

async function ask(request: Request): Promise<string[]> {
  const reply = await chrome.runtime.sendMessage<Reply>({ ...request, target: 'background' } satisfies ToBackground);
  if (!reply.ok) throw new Error(reply.error);
  return reply.texts;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('status');

$<HTMLFormElement>('remember').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $<HTMLInputElement>('note');
  status.textContent = 'saving…';
  await ask({ type: 'remember', text: input.value }).catch((err: unknown) => {
    status.textContent = String(err);
  });
  input.value = '';
  status.textContent = 'saved';
});
$<HTMLFormElement>('recall').addEventListener('submit', async (e) => {
  e.preventDefault();
  const texts = await ask({ type: 'recall', query: $<HTMLInputElement>('query').value });
  $<HTMLOListElement>('hits').replaceChildren(
    ...texts.map((t) => Object.assign(document.createElement('li'), { textContent: t })),
  );
});

// For the install test (test/e2e/install.spec.ts).
Object.assign(globalThis, { zerdaPopup: { ask } });
