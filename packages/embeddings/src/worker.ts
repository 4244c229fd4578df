/**
 * The model in a Web Worker: `exposeEmbedder` inside the worker, `createWorkerEmbedder` outside
 * (the same `Embedder` interface on both sides, over Comlink).
 * @module @zerda/embeddings/worker
 */
import * as Comlink from 'comlink';
import { ZerdaError } from '@zerda/core';
import {
  resolveOptions,
  stripUndefined,
  type SerializableEmbedderOptions,
  type TransformersEmbedderOptions,
} from './options.js';
import type { TransformersEmbedder } from './transformers-embedder.js';
import { registerZerdaErrorTransfer, type EmbedderHost, type MessageEndpoint } from './worker-client.js';

export * from './worker-client.js';

/**
 * Host a {@link TransformersEmbedder} in this dedicated worker, exposed with Comlink for
 * {@link createWorkerEmbedder}. `defaults` are worker-side options (typically `wasmPaths` and
 * `modelFiles` that only the worker's bundle knows); options sent by the main thread win.
 *
 * ```ts
 * // embed-worker.ts
 * import { exposeEmbedder } from '@zerda/embeddings/worker';
 * exposeEmbedder();
 * ```
 */
export function exposeEmbedder(defaults: TransformersEmbedderOptions = {}, endpoint?: MessageEndpoint): void {
  registerZerdaErrorTransfer();
  const { onProgress: defaultProgress, ...defaultOptions } = defaults;
  resolveOptions(defaultOptions);
  let embedder: TransformersEmbedder | undefined;
  let initKey: string | undefined;
  const calls = new Map<number, AbortController>();

  const host: EmbedderHost = {
    async init(options, onProgress) {
      const merged: SerializableEmbedderOptions = { ...defaultOptions, ...stripUndefined(options) };
      const key = JSON.stringify(merged);
      if (embedder && initKey !== key) {
        throw new ZerdaError(
          'VALIDATION',
          'This worker already hosts an embedder with other options; use one worker per embedder',
        );
      }
      if (!embedder) {
        const { createTransformersEmbedder } = await import('./transformers-embedder.js');
        embedder ??= createTransformersEmbedder({
          ...merged,
          onProgress: (p) => {
            defaultProgress?.(p);
            if (onProgress) Promise.resolve(onProgress(p)).catch(() => undefined);
          },
        });
        initKey = key;
      }
      try {
        await embedder.ready();
      } catch (e) {
        embedder = undefined;
        initKey = undefined;
        throw e;
      } finally {
        // Loading reports progress only once; free the main thread's end of the callback.
        (onProgress as Partial<Comlink.Remote<() => void>> | undefined)?.[Comlink.releaseProxy]?.();
      }
      return {
        modelId: embedder.modelId,
        dim: embedder.dim,
        maxTokens: embedder.maxTokens,
        device: embedder.device,
        int8Activations: embedder.int8Activations,
      };
    },

    async embed(callId, texts, onProgress) {
      if (!embedder) throw new ZerdaError('EMBEDDING', 'Worker embedder is not initialised');
      const controller = new AbortController();
      calls.set(callId, controller);
      // Progress calls travel on their own port; awaiting the last one before returning keeps
      // every progress report ahead of the result on the main thread.
      let lastProgress: unknown;
      try {
        const rows = await embedder.embed(texts, {
          signal: controller.signal,
          ...(onProgress
            ? {
                onProgress: (done: number, total: number) => {
                  lastProgress = onProgress(done, total);
                },
              }
            : {}),
        });
        await lastProgress;
        // Each row owns its buffer; transferring views of one buffer twice would fail to clone.
        return Comlink.transfer(
          rows,
          rows.map((r) => r.buffer as ArrayBuffer),
        );
      } finally {
        calls.delete(callId);
        (onProgress as Partial<Comlink.Remote<() => void>> | undefined)?.[Comlink.releaseProxy]?.();
      }
    },

    abort(callId) {
      calls.get(callId)?.abort();
    },

    async close() {
      for (const c of calls.values()) c.abort();
      const e = embedder;
      embedder = undefined;
      await e?.close();
    },
  };
  Comlink.expose(host, endpoint);
}
