import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { runEmbedderConformance } from '@zerda/core/testing';
import { bundledModelDir, bundledModelPath } from './node.js';
import {
  createTransformersEmbedder,
  defaultWasmThreads,
  loadAttempts,
  setOrtWasmPaths,
  TransformersEmbedder,
} from './transformers-embedder.js';
import { rejectionOf as rejection } from '@zerda/core/testing';

const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: Float32Array): number => Math.sqrt(dot(a, a));

// One model load for the whole file: the real bundled model, on onnxruntime-node's CPU backend.
let embedder: TransformersEmbedder;
beforeAll(async () => {
  embedder = createTransformersEmbedder();
  await embedder.ready();
}, 60_000);
afterAll(async () => {
  await embedder?.close();
});

describe('TransformersEmbedder with the bundled model (Node, CPU)', () => {
  test('loads offline by default: 512-d, 128-token limit, CPU, a model id naming model/dtype/pooling', () => {
    expect(embedder.dim).toBe(512);
    expect(embedder.maxTokens).toBe(128);
    expect(embedder.device).toBe('cpu');
    expect(embedder.modelId).toBe('transformers:use-lite:q8:mean');
  });

  test('returns one finite unit vector per text', async () => {
    const texts = ['My birthday is July 4th', 'I like hiking in the mountains', '😀', 'x'.repeat(3000)];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(512);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 4);
    }
    // Each row owns its buffer (so rows can be transferred to another thread one by one).
    expect(new Set(vectors.map((v) => v.buffer)).size).toBe(vectors.length);
  });

  test('related sentences score higher than unrelated ones', async () => {
    const [fact, question, hiking] = await embedder.embed([
      'My birthday is July 4th',
      'When is my birthday?',
      'I like hiking in the mountains',
    ]);
    const related = dot(fact!, question!);
    const unrelated = dot(fact!, hiking!);
    expect(related).toBeGreaterThan(0.6);
    expect(unrelated).toBeLessThan(0.3);
    expect(related - unrelated).toBeGreaterThan(0.3);
  });

  test('the same text gives the same vector alone or in a padded batch', async () => {
    const [alone] = await embedder.embed(['hello world']);
    const [batched] = await embedder.embed([
      'hello world',
      'a much longer sentence that forces padding of the short one',
    ]);
    for (let i = 0; i < 512; i++) expect(batched![i]).toBeCloseTo(alone![i]!, 5);
  });

  test('empty and whitespace-only texts give zero vectors without reaching the model', async () => {
    // The raw model fails on zero tokens, so these never reaching it is what keeps the call alive.
    const vectors = await embedder.embed(['', '   ', 'real text', '\n\t']);
    for (const i of [0, 1, 3]) {
      expect(vectors[i]!.length).toBe(512);
      expect(vectors[i]!.every((x) => x === 0)).toBe(true);
    }
    expect(norm(vectors[2]!)).toBeCloseTo(1, 4);
    const progress: number[][] = [];
    const onlyEmpty = await embedder.embed([''], { onProgress: (d, t) => progress.push([d, t]) });
    expect(onlyEmpty[0]!.every((x) => x === 0)).toBe(true);
    expect(progress).toEqual([[1, 1]]);
    expect(await embedder.embed([])).toEqual([]);
  });

  test('batches keep input order and report progress per batch', async () => {
    const small = createTransformersEmbedder({ batchSize: 3 });
    try {
      const texts = Array.from(
        { length: 10 },
        (_, i) => `memory number ${i}: ${'lorem ipsum '.repeat(i % 4)}topic ${i * 7}`,
      );
      texts[4] = ' ';
      const progress: number[][] = [];
      const batched = await small.embed(texts, { onProgress: (d, t) => progress.push([d, t]) });
      // 9 real texts in batches of 3; the blank one counts as done from the start.
      expect(progress).toEqual([
        [4, 10],
        [7, 10],
        [10, 10],
      ]);
      for (let i = 0; i < texts.length; i++) {
        const [single] = await embedder.embed([texts[i]!]);
        expect(dot(batched[i]!, single!)).toBeCloseTo(i === 4 ? 0 : 1, 4);
      }
      expect(dot(batched[0]!, batched[1]!)).toBeLessThan(0.999);
    } finally {
      await small.close();
    }
  });

  test('an aborted signal rejects with ABORTED before any work', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await rejection(embedder.embed(['a'], { signal: controller.signal }));
    expect(isZerdaError(err, 'ABORTED')).toBe(true);
  });

  test('aborting mid-call stops before the next batch', async () => {
    const small = createTransformersEmbedder({ batchSize: 2 });
    try {
      const controller = new AbortController();
      const progress: number[] = [];
      const err = await rejection(
        small.embed(
          Array.from({ length: 12 }, (_, i) => `sentence ${i}`),
          {
            signal: controller.signal,
            onProgress: (done) => {
              progress.push(done);
              if (done >= 4) controller.abort();
            },
          },
        ),
      );
      expect(isZerdaError(err, 'ABORTED')).toBe(true);
      expect(progress).toEqual([2, 4]);
      // The embedder stays usable after an aborted call.
      expect((await small.embed(['still works']))[0]!.length).toBe(512);
    } finally {
      await small.close();
    }
  });

  test('model ids separate embedding spaces; a missing model fails with EMBEDDING offline', async () => {
    const explicit = createTransformersEmbedder({
      model: 'use-lite',
      localModelPath: bundledModelPath(),
      dtype: 'q8',
      foldWeights: true,
    });
    const cls = createTransformersEmbedder({ pooling: 'cls' });
    const missing = createTransformersEmbedder({
      model: 'no-such-org/no-such-model',
      localModelPath: bundledModelPath(),
    });
    try {
      expect(explicit.modelId).toBe(embedder.modelId);
      expect(cls.modelId).not.toBe(embedder.modelId);
      expect(missing.modelId).toBe('transformers:no-such-org/no-such-model:auto:mean');
      expect(createTransformersEmbedder({ modelId: 'my-space' }).modelId).toBe('my-space');
      // Loads run concurrently; each sees its own settings of transformers' global env.
      const [missingErr] = await Promise.all([rejection(missing.ready()), explicit.ready(), cls.ready()]);
      expect(isZerdaError(missingErr, 'EMBEDDING')).toBe(true);
      expect((missingErr as Error).message).toContain('no-such-org/no-such-model');
      expect(missing.dim).toBe(0);
      const [a] = await explicit.embed(['same text']);
      const [b] = await embedder.embed(['same text']);
      expect(dot(a!, b!)).toBeCloseTo(1, 5);
    } finally {
      await Promise.all([explicit.close(), cls.close(), missing.close()]);
    }
  });

  test('a model folder given by path loads like a model id', async () => {
    const byPath = createTransformersEmbedder({
      model: bundledModelDir(),
      dtype: 'q8',
      modelId: 'use-lite-by-path',
      foldWeights: true,
    });
    try {
      await byPath.ready();
      expect(byPath.dim).toBe(512);
      const [a] = await byPath.embed(['a memory about the garden']);
      const [b] = await embedder.embed(['a memory about the garden']);
      expect(dot(a!, b!)).toBeCloseTo(1, 5);
    } finally {
      await byPath.close();
    }
  });

  test("foldWeights: on by default for the bundled model only; on, the model's exact float result, not ORT's int8 kernel", async () => {
    const texts = ['My birthday is July 4th', 'We hiked up to the lake on Sunday and it rained the whole way back'];
    const fused = createTransformersEmbedder({ model: 'use-lite', localModelPath: bundledModelPath(), dtype: 'q8' });
    const folded = createTransformersEmbedder({
      model: 'use-lite',
      localModelPath: bundledModelPath(),
      dtype: 'q8',
      foldWeights: true,
    });
    try {
      const [bundledRows, fusedRows, foldedRows] = await Promise.all([
        embedder.embed(texts),
        fused.embed(texts),
        folded.embed(texts),
      ]);
      const maxDiff = (a: Float32Array[], b: Float32Array[]): number =>
        Math.max(...a.flatMap((row, i) => Array.from(row, (x, k) => Math.abs(x - b[i]![k]!))));
      // Folded weights: the same float graph, to float rounding.
      expect(maxDiff(bundledRows, foldedRows)).toBeLessThan(1e-5);
      // ORT's fused kernel on onnxruntime-node quantises activations: measurably off (3e-3 here), same direction.
      const off = maxDiff(bundledRows, fusedRows);
      expect(off).toBeGreaterThan(1e-5);
      expect(off).toBeLessThan(1e-2);
      for (let i = 0; i < texts.length; i++) expect(dot(bundledRows[i]!, fusedRows[i]!)).toBeGreaterThan(0.999);
    } finally {
      await Promise.all([fused.close(), folded.close()]);
    }
  });

  test('quantizeActivations: the integer-product graph, within cosine 0.999 of the float path, in the same space', async () => {
    const texts = [
      'My birthday is July 4th',
      'When is my birthday?',
      'We hiked up to the lake on Sunday and it rained the whole way back',
      'I like hiking in the mountains',
    ];
    const int8 = createTransformersEmbedder({ quantizeActivations: true });
    try {
      const [floatRows, int8Rows] = await Promise.all([embedder.embed(texts), int8.embed(texts)]);
      expect(embedder.int8Activations).toBe(false);
      expect(int8.int8Activations).toBe(true);
      expect(int8.modelId).toBe(embedder.modelId);
      // Another graph really ran (the products are rounded to 8 bits), yet the vectors barely move.
      const maxDiff = Math.max(
        ...floatRows.flatMap((row, i) => Array.from(row, (x, k) => Math.abs(x - int8Rows[i]![k]!))),
      );
      expect(maxDiff).toBeGreaterThan(1e-4);
      for (let i = 0; i < texts.length; i++) {
        expect(norm(int8Rows[i]!)).toBeCloseTo(1, 4);
        expect(dot(floatRows[i]!, int8Rows[i]!)).toBeGreaterThan(0.999);
      }
      expect(dot(int8Rows[0]!, int8Rows[1]!)).toBeGreaterThan(0.6);
      expect(dot(int8Rows[0]!, int8Rows[3]!)).toBeLessThan(0.3);
      // A batch shares one activation scale per product, so a text's vector moves a little with its companions.
      const [alone] = await int8.embed([texts[2]!]);
      expect(dot(alone!, int8Rows[2]!)).toBeGreaterThan(0.999);
    } finally {
      await int8.close();
    }
  });

  test('bad arguments throw VALIDATION naming the field', async () => {
    for (const [options, field] of [
      [{ batchSize: 0 }, 'batchSize'],
      [{ device: 'tpu' }, 'device'],
      [{ dtype: 'fp64' }, 'dtype'],
      [{ model: '' }, 'model'],
      [{ wasmPaths: 3 }, 'wasmPaths'],
      [{ modelFiles: { 'tokenizer.json': 'x' } }, 'modelFiles'],
      [{ foldWeights: 'yes' }, 'foldWeights'],
      [{ quantizeActivations: 1 }, 'quantizeActivations'],
      [{ model: 'Xenova/all-MiniLM-L6-v2', quantizeActivations: true }, 'quantizeActivations'],
    ] as const) {
      let err: unknown;
      try {
        createTransformersEmbedder(options as never);
      } catch (e) {
        err = e;
      }
      expect(isZerdaError(err, 'VALIDATION')).toBe(true);
      expect((err as { details: { field: string } }).details.field).toBe(field);
    }
    expect(isZerdaError(await rejection(embedder.embed('text' as never)), 'VALIDATION')).toBe(true);
    expect(isZerdaError(await rejection(embedder.embed(['ok', 3 as never])), 'VALIDATION')).toBe(true);
  });

  test('close releases the model and later calls reject with CLOSED', async () => {
    const own = createTransformersEmbedder();
    await own.ready();
    await own.close();
    await own.close();
    expect(isZerdaError(await rejection(own.embed(['x'])), 'CLOSED')).toBe(true);
    expect(isZerdaError(await rejection(own.ready()), 'CLOSED')).toBe(true);
  });
});

runEmbedderConformance('TransformersEmbedder (bundled model)', () => new TransformersEmbedder());

describe('loadAttempts (which graph of the bundled model each device loads)', () => {
  const bundled = { bundled: true, dtype: 'q8', quantizeActivations: undefined } as const;
  test('by default WASM takes the integer-product graph, then the float one; WebGPU and CPU the float one', () => {
    expect(loadAttempts(bundled, ['webgpu', 'wasm'])).toEqual([
      { device: 'webgpu', dtype: 'q8' },
      { device: 'wasm', dtype: 'int8' },
      { device: 'wasm', dtype: 'q8' },
    ]);
    expect(loadAttempts(bundled, ['cpu'])).toEqual([{ device: 'cpu', dtype: 'q8' }]);
  });
  test('an explicit choice is the only attempt; other models load their own dtype', () => {
    expect(loadAttempts({ ...bundled, quantizeActivations: true }, ['cpu'])).toEqual([
      { device: 'cpu', dtype: 'int8' },
    ]);
    expect(loadAttempts({ ...bundled, quantizeActivations: false }, ['wasm'])).toEqual([
      { device: 'wasm', dtype: 'q8' },
    ]);
    expect(loadAttempts({ bundled: false, dtype: 'auto', quantizeActivations: undefined }, ['wasm'])).toEqual([
      { device: 'wasm', dtype: 'auto' },
    ]);
  });
});

describe("setOrtWasmPaths (where the browser loads ONNX Runtime's WASM from)", () => {
  // What transformers.js sets when it is imported in a browser (backends/onnx.js).
  const cdn = () => ({
    wasmPaths: {
      mjs: 'https://cdn.jsdelivr.net/npm/onnxruntime-web@1.31.0/dist/ort-wasm-simd-threaded.asyncify.mjs',
      wasm: 'https://cdn.jsdelivr.net/npm/onnxruntime-web@1.31.0/dist/ort-wasm-simd-threaded.asyncify.wasm',
    },
  });
  test("none given: transformers.js' CDN default is cleared (ONNX Runtime loads the copy the bundler emitted)", () => {
    const wasm: { wasmPaths?: unknown } = cdn();
    setOrtWasmPaths(wasm, undefined);
    expect(wasm.wasmPaths).toBeUndefined();
  });
  test('a folder or the two URLs replace it (copied, so a later change by the app does not leak in)', () => {
    const wasm: { wasmPaths?: unknown } = cdn();
    setOrtWasmPaths(wasm, '/zerda/ort/');
    expect(wasm.wasmPaths).toBe('/zerda/ort/');
    const paths = { wasm: '/a.wasm', mjs: '/a.mjs' };
    setOrtWasmPaths(wasm, paths);
    expect(wasm.wasmPaths).toEqual(paths);
    expect(wasm.wasmPaths).not.toBe(paths);
  });
});

describe('defaultWasmThreads (browser WASM threads when numThreads is not given)', () => {
  const SAB = SharedArrayBuffer;
  const chromium =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
  test('uses up to 4 threads where threads can run', () => {
    const nav = { hardwareConcurrency: 8, userAgent: chromium };
    expect(defaultWasmThreads({ crossOriginIsolated: true, SharedArrayBuffer: SAB, navigator: nav })).toBe(4);
    expect(
      defaultWasmThreads({
        crossOriginIsolated: true,
        SharedArrayBuffer: SAB,
        navigator: { ...nav, hardwareConcurrency: 2 },
      }),
    ).toBe(2);
  });
  test('one thread without isolation or without SharedArrayBuffer (WebKitGTK is isolated without it)', () => {
    const nav = { hardwareConcurrency: 8, userAgent: chromium };
    expect(defaultWasmThreads({ crossOriginIsolated: false, SharedArrayBuffer: SAB, navigator: nav })).toBe(1);
    expect(defaultWasmThreads({ crossOriginIsolated: true, navigator: nav })).toBe(1);
  });
  test('one thread on Firefox, whose threaded ORT start-up hangs intermittently', () => {
    const nav = { hardwareConcurrency: 8, userAgent: firefox };
    expect(defaultWasmThreads({ crossOriginIsolated: true, SharedArrayBuffer: SAB, navigator: nav })).toBe(1);
  });
});
