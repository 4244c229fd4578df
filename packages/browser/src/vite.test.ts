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
