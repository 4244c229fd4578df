import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { isZerdaError, ZerdaError } from '@zerda/core';
import { createWorkerEmbedder, exposeEmbedder, registerZerdaErrorTransfer, type WorkerEmbedder } from './worker.js';
import { rejectionOf as rejection } from '@zerda/core/testing';

// The host and the client talk over a real MessageChannel (structured cloning, transfers, Comlink
// proxies) with the real bundled model; the Chromium spec covers a real Worker.
type Port = NonNullable<Parameters<typeof exposeEmbedder>[1]>;
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

function channel(): { host: Port; client: Port; close(): void } {
  const { port1, port2 } = new MessageChannel();
  return {
    host: port1 as unknown as Port,
    client: port2 as unknown as Port,
    close() {
      port1.close();
      port2.close();
    },
  };
}

let ports: ReturnType<typeof channel>;
let embedder: WorkerEmbedder;
const loadEvents: string[] = [];
beforeAll(async () => {
  ports = channel();
  exposeEmbedder({ batchSize: 8 }, ports.host);
  embedder = createWorkerEmbedder({ worker: ports.client, onProgress: (p) => loadEvents.push(p.status) });
  await embedder.ready();
}, 60_000);
afterAll(async () => {
  await embedder?.close();
  ports?.close();
});

describe('worker embedder over a message channel', () => {
  test('loads the bundled model with the worker-side defaults and reports load progress', () => {
    expect(embedder.dim).toBe(512);
    expect(embedder.maxTokens).toBe(128);
    expect(embedder.modelId).toBe('transformers:use-lite:q8:mean');
    expect(loadEvents).toContain('done');
  });

  test('returns unit vectors in order, as separately transferred buffers', async () => {
    const progress: number[] = [];
    const texts = Array.from({ length: 20 }, (_, i) => `note ${i} about topic ${i * 13}`);
    texts[5] = '';
    const rows = await embedder.embed(texts, { onProgress: (done) => progress.push(done) });
    expect(rows).toHaveLength(20);
    expect(rows[5]!.every((x) => x === 0)).toBe(true);
    for (const [i, r] of rows.entries()) {
      expect(r).toBeInstanceOf(Float32Array);
      expect(r.byteLength).toBe(512 * 4);
      if (i !== 5) expect(Math.sqrt(dot(r, r))).toBeCloseTo(1, 4);
    }
    // Batches of 8 over 19 real texts; every report arrived before the result.
    expect(progress).toEqual([9, 17, 20]);
    const [again] = await embedder.embed([texts[7]!]);
    expect(dot(again!, rows[7]!)).toBeCloseTo(1, 5);
    const [fact, question, hiking] = await embedder.embed([
      'My birthday is July 4th',
      'When is my birthday?',
      'I like hiking in the mountains',
    ]);
    expect(dot(fact!, question!)).toBeGreaterThan(dot(fact!, hiking!) + 0.3);
  });

  test("once loaded, a call posts its request in the caller's task, before any await", async () => {
    const client = ports.client as unknown as { postMessage: (...a: unknown[]) => void };
    const post = vi.spyOn(client, 'postMessage');
    try {
      const pending = embedder.embed(['a short question?']);
      expect(post).toHaveBeenCalledTimes(1);
      const [row] = await pending;
      expect(Math.sqrt(dot(row!, row!))).toBeCloseTo(1, 4);
    } finally {
      post.mockRestore();
    }
  });

  test('a failure in the worker keeps its ZerdaError code on this side', async () => {
    const other = channel();
    exposeEmbedder({}, other.host);
    const broken = createWorkerEmbedder({ worker: other.client, model: 'no-such-model' });
    try {
      const err = await rejection(broken.ready());
      expect(err).toBeInstanceOf(ZerdaError);
      expect(isZerdaError(err, 'EMBEDDING')).toBe(true);
      expect((err as Error).message).toContain('no-such-model');
    } finally {
      await broken.close();
      other.close();
    }
  });

  test('the error transfer handler carries code and details; other errors keep Comlink behaviour', async () => {
    registerZerdaErrorTransfer();
    registerZerdaErrorTransfer();
    const c = channel();
    Comlink.expose(
      {
        zerda(): never {
          throw new ZerdaError('QUOTA_EXCEEDED', 'full', { details: { used: 3 } });
        },
        plain(): never {
          throw new TypeError('plain failure');
        },
      },
      c.host,
    );
    const remote = Comlink.wrap<{ zerda(): never; plain(): never }>(c.client);
    try {
      const z = await rejection(remote.zerda());
      expect(isZerdaError(z, 'QUOTA_EXCEEDED')).toBe(true);
      expect((z as ZerdaError).details).toEqual({ used: 3 });
      const p = await rejection(remote.plain());
      expect(isZerdaError(p)).toBe(false);
      expect((p as Error).message).toBe('plain failure');
    } finally {
      remote[Comlink.releaseProxy]();
      c.close();
    }
  });

  test('aborting on this side cancels the worker between batches and rejects with ABORTED', async () => {
    const controller = new AbortController();
    const progress: number[] = [];
    const texts = Array.from({ length: 400 }, (_, i) => `sentence number ${i} with a few more words in it`);
    const err = await rejection(
      embedder.embed(texts, {
        signal: controller.signal,
        onProgress: (done) => {
          progress.push(done);
          controller.abort();
        },
      }),
    );
    expect(isZerdaError(err, 'ABORTED')).toBe(true);
    // The worker stopped well before the end (one progress round-trip may be in flight).
    await new Promise((r) => setTimeout(r, 200));
    expect(progress.length).toBeLessThanOrEqual(3);
    expect(progress.at(-1)).toBeLessThan(400);
    const pre = new AbortController();
    pre.abort();
    expect(isZerdaError(await rejection(embedder.embed(['x'], { signal: pre.signal })), 'ABORTED')).toBe(true);
    expect((await embedder.embed(['still usable']))[0]!.length).toBe(512);
  });

  test('validates on this side and rejects calls after close with CLOSED', async () => {
    expect(() => createWorkerEmbedder({} as never)).toThrow(/worker/);
    expect(isZerdaError(await rejection(embedder.embed([1 as never])), 'VALIDATION')).toBe(true);
    const c = channel();
    exposeEmbedder({}, c.host);
    const e = createWorkerEmbedder({ worker: c.client });
    await e.ready();
    // A call in flight when the embedder closes rejects with CLOSED rather than hanging.
    const pending = rejection(e.embed(Array.from({ length: 200 }, (_, i) => `pending text ${i}`)));
    await e.close();
    expect(isZerdaError(await pending, 'CLOSED')).toBe(true);
    expect(isZerdaError(await rejection(e.embed(['x'])), 'CLOSED')).toBe(true);
    expect(isZerdaError(await rejection(e.ready()), 'CLOSED')).toBe(true);
    c.close();
  });
});
