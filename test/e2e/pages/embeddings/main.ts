// Test page: the embedder runs in a dedicated worker (the package's ready-made entry) with the
// bundled model; the spec and the benchmark drive it through `window.embeddingsPage`.
import EmbedWorker from '@zerda/embeddings/worker-entry?worker';
import { createWorkerEmbedder, type WorkerEmbedder } from '@zerda/embeddings/worker';
import { isZerdaError, ZerdaError } from '@zerda/core';
import { memorySentences } from './sentences.js';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
let embedder: WorkerEmbedder | undefined;

async function init(batchSize = 32): Promise<Record<string, unknown>> {
  const statuses = new Set<string>();
  const t0 = performance.now();
  embedder = createWorkerEmbedder({ worker: new EmbedWorker(), batchSize, onProgress: (p) => statuses.add(p.status) });
  await embedder.ready();
  return {
    loadMs: Math.round(performance.now() - t0),
    dim: embedder.dim,
    modelId: embedder.modelId,
    device: embedder.device,
    maxTokens: embedder.maxTokens,
    int8Activations: embedder.int8Activations,
    isolated: globalThis.crossOriginIsolated,
    loadStatuses: [...statuses],
  };
}

async function basics(): Promise<Record<string, unknown>> {
  const rows = await embedder!.embed([
    'My birthday is July 4th',
    'When is my birthday?',
    'I like hiking in the mountains',
    '  ',
  ]);
  return {
    count: rows.length,
    lengths: rows.map((r) => r.length),
    norms: rows.map((r) => Math.sqrt(dot(r, r))),
    finite: rows.every((r) => r.every(Number.isFinite)),
    separateBuffers: new Set(rows.map((r) => r.buffer)).size === rows.length,
    related: dot(rows[0]!, rows[1]!),
    unrelated: dot(rows[0]!, rows[2]!),
    blankIsZero: rows[3]!.every((x) => x === 0),
    // Resource timing of the page itself: the model and ORT files must have been fetched by the worker only.
    mainThreadModelFetches: performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => /\.onnx|ort-wasm|tokenizer/.test(n)),
  };
}

async function failure(embedder: WorkerEmbedder): Promise<Record<string, unknown>> {
  try {
    await embedder.ready();
    return { rejected: false };
  } catch (e) {
    return {
      rejected: true,
      isEmbedding: isZerdaError(e, 'EMBEDDING'),
      instance: e instanceof ZerdaError,
      message: (e as Error).message,
    };
  } finally {
    await embedder.close();
  }
}

/** A model that fails to load inside the worker, and a worker script that fails to load at all. */
async function errorHop(): Promise<Record<string, Record<string, unknown>>> {
  return {
    missingModel: await failure(createWorkerEmbedder({ worker: new EmbedWorker(), model: 'no-such-model' })),
    brokenWorker: await failure(createWorkerEmbedder({ workerUrl: new URL('./no-such-worker.js', location.href) })),
  };
}

async function abortHop(): Promise<Record<string, unknown>> {
  const controller = new AbortController();
  const progress: number[] = [];
  const t0 = performance.now();
  let code: string | undefined;
  try {
    await embedder!.embed(memorySentences(300), {
      signal: controller.signal,
      onProgress: (done) => {
        progress.push(done);
        controller.abort();
      },
    });
  } catch (e) {
    code = isZerdaError(e) ? e.code : String(e);
  }
  const rejectMs = Math.round(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 300));
  const after = await embedder!.embed(['the worker still answers']);
  return { code, rejectMs, progress, afterLength: after[0]?.length };
}

/** Embed `n` sentences while watching the main thread: long tasks and timer gaps. */
async function responsiveness(n: number): Promise<Record<string, unknown>> {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(Math.round(e.duration));
  });
  observer.observe({ type: 'longtask', buffered: false });
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 10);
  const texts = memorySentences(n);
  const t0 = performance.now();
  const rows = await embedder!.embed(texts);
  const ms = performance.now() - t0;
  // Long-task entries are delivered asynchronously; let the observer flush.
  await new Promise((r) => setTimeout(r, 100));
  clearInterval(timer);
  observer.disconnect();
  return {
    n,
    ms: Math.round(ms),
    sentencesPerSec: Math.round((n / ms) * 1000),
    allUnit: rows.every((r) => Math.abs(Math.sqrt(dot(r, r)) - 1) < 1e-3),
    longTasks,
    longestTask: longTasks.length ? Math.max(...longTasks) : 0,
    maxTimerGapMs: Math.round(maxGap),
  };
}

/**
 * Baseline for the benchmark: the same embedding on the page's own thread (loaded lazily so the
 * spec's page never pulls the model into the main thread).
 */
async function inThread(n: number): Promise<Record<string, unknown>> {
  const [{ createTransformersEmbedder }, { ortWasmPaths }] = await Promise.all([
    import('@zerda/embeddings'),
    import('@zerda/embeddings/vite'),
  ]);
  const local = createTransformersEmbedder({ wasmPaths: ortWasmPaths });
  await local.ready();
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(Math.round(e.duration));
  });
  observer.observe({ type: 'longtask', buffered: false });
  const t0 = performance.now();
  await local.embed(memorySentences(n));
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 100));
  observer.disconnect();
  await local.close();
  return {
    n,
    ms: Math.round(ms),
    sentencesPerSec: Math.round((n / ms) * 1000),
    longTasks: longTasks.length,
    longestTask: longTasks.length ? Math.max(...longTasks) : 0,
  };
}

/**
 * In-run A/B for the benchmark, on the page's thread: the bundled model as the library loads it
 * (QDQ fusion off) against the same files loaded as an app's own model (ORT's defaults), the
 * same `texts` in alternating order, `rounds` times; median ms per call, and how far apart the
 * vectors are.
 */
async function fusionAb(texts: string[], rounds: number, numThreads?: number): Promise<Record<string, unknown>> {
  const [{ createTransformersEmbedder, useLiteModelFiles }, { ortWasmPaths }] = await Promise.all([
    import('@zerda/embeddings'),
    import('@zerda/embeddings/vite'),
  ]);
  const threads = numThreads === undefined ? {} : { numThreads };
  const bundled = createTransformersEmbedder({ wasmPaths: ortWasmPaths, ...threads });
  const asApp = createTransformersEmbedder({
    wasmPaths: ortWasmPaths,
    model: 'use-lite',
    modelFiles: useLiteModelFiles(),
    dtype: 'q8',
    ...threads,
  });
  await bundled.ready();
  await asApp.ready();
  await bundled.embed(texts.slice(0, 8));
  await asApp.embed(texts.slice(0, 8));
  const times: Record<'bundled' | 'asApp', number[]> = { bundled: [], asApp: [] };
  let maxAbsDiff = 0;
  let minCos = 1;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? (['bundled', 'asApp'] as const) : (['asApp', 'bundled'] as const);
    const rows: Partial<Record<'bundled' | 'asApp', Float32Array[]>> = {};
    for (const k of order) {
      const t0 = performance.now();
      rows[k] = await (k === 'bundled' ? bundled : asApp).embed(texts);
      times[k].push(performance.now() - t0);
    }
    rows.bundled!.forEach((a, i) => {
      const b = rows.asApp![i]!;
      minCos = Math.min(minCos, dot(a, b));
      for (let k = 0; k < a.length; k++) maxAbsDiff = Math.max(maxAbsDiff, Math.abs(a[k]! - b[k]!));
    });
  }
  await bundled.close();
  await asApp.close();
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return {
    n: texts.length,
    bundledMs: Math.round(median(times.bundled)),
    asAppMs: Math.round(median(times.asApp)),
    maxAbsDiff,
    minCos,
  };
}

/** In-run A/B of `batchSize` on the page's thread: median ms to embed `texts` per size, sizes in rotating order. */
async function batchAb(texts: string[], sizes: number[], rounds: number): Promise<Record<string, number>> {
  const [{ createTransformersEmbedder }, { ortWasmPaths }] = await Promise.all([
    import('@zerda/embeddings'),
    import('@zerda/embeddings/vite'),
  ]);
  const embedders = sizes.map((batchSize) => createTransformersEmbedder({ wasmPaths: ortWasmPaths, batchSize }));
  for (const e of embedders) await e.embed(texts.slice(0, 4));
  const times = sizes.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < sizes.length; j++) {
      const k = (j + r) % sizes.length;
      const t0 = performance.now();
      await embedders[k]!.embed(texts);
      times[k]!.push(performance.now() - t0);
    }
  }
  await Promise.all(embedders.map((e) => e.close()));
  return Object.fromEntries(
    sizes.map((size, k) => [`batch ${size}`, Math.round([...times[k]!].sort((a, b) => a - b)[times[k]!.length >> 1]!)]),
  );
}

async function close(): Promise<void> {
  await embedder?.close();
}

const api = { init, basics, errorHop, abortHop, responsiveness, inThread, fusionAb, batchAb, close };
declare global {
  interface Window {
    embeddingsPage: typeof api;
  }
}
window.embeddingsPage = api;
document.getElementById('out')!.textContent = 'ready';
