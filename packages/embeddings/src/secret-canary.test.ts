import { afterAll, expect, test } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { InMemoryStorage, MemoryManager } from '@zerda/core';
import { canariesIn, SECRET_CANARIES, SECRET_CANARY_TEXT } from '@zerda/core/testing';
import { createWorkerEmbedder, exposeEmbedder } from './worker.js';

// The real worker embedder (host and client over a real MessageChannel, the bundled model): every
// message that reaches the worker side is recorded, and no canary secret may be in any of them.
type Port = NonNullable<Parameters<typeof exposeEmbedder>[1]>;
const { port1, port2 } = new MessageChannel();
const received: unknown[] = [];
port1.addEventListener('message', (e) => received.push((e as MessageEvent).data));
exposeEmbedder({ batchSize: 8 }, port1 as unknown as Port);
const embedder = createWorkerEmbedder({ worker: port2 as unknown as Port });

afterAll(async () => {
  await embedder.close();
  port1.close();
  port2.close();
});

test('the worker never receives a raw secret: not when indexing, not in a query', async () => {
  const mgr = await MemoryManager.create({ storage: new InMemoryStorage(), embedder, owner: 'me' });
  await mgr.saveInteraction('me', 't', SECRET_CANARY_TEXT, 'Noted.', { importance: 0.9 });
  await mgr.remember('me', 't', { title: 'router', text: `The router password is ${SECRET_CANARIES.credential}` });
  await mgr.flush();
  const hits = await mgr.recall('me', 't', `is my password still ${SECRET_CANARIES.credential}?`);
  expect(hits.length).toBeGreaterThan(0);
  await mgr.buildContext('me', 't', SECRET_CANARY_TEXT);
  await mgr.flush();
  const wire = received.map((m) => JSON.stringify(m)).join('\n');
  // The masked turn did reach the worker (so a raw secret would have been seen) …
  expect(wire).toContain('zebrafinch');
  expect(wire).toContain('[CREDENTIAL_1]');
  // … and no secret did.
  expect(canariesIn(wire)).toEqual([]);
}, 120_000);
