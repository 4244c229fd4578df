import { isZerdaError } from '@zerda/core';
import { expect, test } from 'vitest';
import { openBrowserMemory, zerda } from './vite.js';

test('without Worker (an extension service worker) the default model is refused with UNSUPPORTED, never swapped for hashing', async () => {
  expect(typeof (globalThis as { Worker?: unknown }).Worker).toBe('undefined');
  const err = await openBrowserMemory({ storage: 'memory' }).catch((e: unknown) => e);
  expect(isZerdaError(err, 'UNSUPPORTED')).toBe(true);
  expect((err as Error).message).toMatch(/offscreen document/);
  // Bare model options need the worker too.
  const err2 = await openBrowserMemory({ storage: 'memory', embedder: { model: 'other' } }).catch((e: unknown) => e);
  expect(isZerdaError(err2, 'UNSUPPORTED')).toBe(true);
});

test('zerda() configures workers, the optimiser and ONNX Runtime; COOP/COEP only when asked', () => {
  const config = (p: ReturnType<typeof zerda>) =>
    // biome-ignore lint/suspicious/noExplicitAny: a Vite config, read field by field in the assertions below
    (p.config as (c: object) => Record<string, any>)({ root: process.cwd() });
  const plain = config(zerda());
  expect(plain.worker).toEqual({ format: 'es' });
  expect(plain.optimizeDeps.exclude).toEqual(
    expect.arrayContaining(['@zerda/browser', '@zerda/embeddings', '@zerda/sqlite', '@zerda/core']),
  );
  expect(plain.optimizeDeps.include).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/@zerda\/sqlite > sql\.js$/),
      expect.stringMatching(/> onnxruntime-web\/wasm$/),
    ]),
  );
  expect(plain.resolve.alias[0].replacement).toBe('onnxruntime-web/wasm');
  expect(plain.server).toBeUndefined();
  const isolated = config(zerda({ crossOriginIsolation: true, webgpu: true }));
  expect(isolated.server.headers['Cross-Origin-Embedder-Policy']).toBe('require-corp');
  expect(isolated.preview.headers['Cross-Origin-Opener-Policy']).toBe('same-origin');
  expect(isolated.resolve).toBeUndefined();
  expect(isolated.optimizeDeps.include).toEqual(
    expect.arrayContaining([expect.stringMatching(/> onnxruntime-web\/webgpu$/)]),
  );
});

test('every build emits zerda-precache.json (all files, Zerda’s own marked); serviceWorker: true adds zerda-sw.js', () => {
  const emitted: { fileName: string; source: string }[] = [];
  const bundle = {
    'index.html': { originalFileNames: ['index.html'] },
    'assets/index-abc123.js': { originalFileNames: [] },
    'assets/index-abc123.js.map': { originalFileNames: [] },
    'assets/worker-entry-def456.js': { originalFileNames: [] },
    'assets/model-x1.onnx': { originalFileNames: ['node_modules/@zerda/embeddings/model/use-lite/model.onnx'] },
    'assets/ort-wasm-simd-threaded-y2.wasm': { originalFileNames: ['node_modules/onnxruntime-web/dist/x.wasm'] },
    'assets/sql-wasm-browser-z3.wasm': { originalFileNames: ['node_modules/sql.js/dist/sql-wasm-browser.wasm'] },
    'assets/logo-q9.svg': { originalFileNames: ['src/logo.svg'] },
  };
  const run = (plugin: ReturnType<typeof zerda>) => {
    emitted.length = 0;
    const hook = (plugin.generateBundle as { handler: (this: unknown, o: unknown, b: unknown) => void }).handler;
    hook.call(
      {
        emitFile: (f: { fileName: string; source: string }) => emitted.push(f),
        error: (m: string) => {
          throw new Error(m);
        },
      },
      {},
      bundle,
    );
    return emitted;
  };
  const [manifest, ...rest] = run(zerda());
  expect(rest).toEqual([]);
  expect(manifest?.fileName).toBe('zerda-precache.json');
  const list = JSON.parse(manifest!.source) as { version: string; files: string[]; zerda: string[] };
  expect(list.files).toEqual([
    'assets/index-abc123.js',
    'assets/logo-q9.svg',
    'assets/model-x1.onnx',
    'assets/ort-wasm-simd-threaded-y2.wasm',
    'assets/sql-wasm-browser-z3.wasm',
    'assets/worker-entry-def456.js',
    './',
  ]);
  expect(list.zerda).toEqual([
    'assets/model-x1.onnx',
    'assets/ort-wasm-simd-threaded-y2.wasm',
    'assets/sql-wasm-browser-z3.wasm',
    'assets/worker-entry-def456.js',
  ]);
  expect(list.version).toMatch(/^[0-9a-f]{14}$/);
  const withWorker = run(zerda({ serviceWorker: true }));
  expect(withWorker.map((f) => f.fileName)).toEqual(['zerda-precache.json', 'zerda-sw.js']);
  expect(withWorker[1]?.source).toContain("new URL('zerda-precache.json', self.location.href)");
  // Same names, same version: a cache survives a rebuild that changed nothing.
  expect(JSON.parse(withWorker[0]!.source).version).toBe(list.version);
});

test("the model worker's own files are Zerda's even with no source path: found through the scripts that name them", () => {
  // What Vite 8 hands over for the model worker's bundle: plain assets, no originalFileNames.
  const bundle: Record<string, unknown> = {
    'index.html': { originalFileNames: ['index.html'] },
    'assets/index-a1.js': { type: 'chunk', code: 'new Worker(new URL("./worker-entry-w1.js", import.meta.url))' },
    'assets/worker-entry-w1.js': { originalFileNames: [], source: 'import("./transformers-embedder-t1.js")' },
    'assets/transformers-embedder-t1.js': {
      originalFileNames: [],
      source: new TextEncoder().encode('fetch("./model_quantized-m1.onnx"); fetch("./tokenizer-k1.json")'),
    },
    'assets/model_quantized-m1.onnx': { originalFileNames: [], source: new Uint8Array(8) },
    'assets/tokenizer-k1.json': { originalFileNames: [], source: '{}' },
    'assets/app-photo-p1.png': { originalFileNames: [], source: new Uint8Array(4) },
  };
  const emitted: { fileName: string; source: string }[] = [];
  const hook = (zerda().generateBundle as { handler: (this: unknown, o: unknown, b: unknown) => void }).handler;
  hook.call({ emitFile: (f: { fileName: string; source: string }) => emitted.push(f) }, {}, bundle);
  const list = JSON.parse(emitted[0]!.source) as { zerda: string[] };
  expect(list.zerda).toEqual([
    'assets/model_quantized-m1.onnx',
    'assets/tokenizer-k1.json',
    'assets/transformers-embedder-t1.js',
    'assets/worker-entry-w1.js',
  ]);
});
