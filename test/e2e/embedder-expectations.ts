import { expect } from 'vitest';

// What the worker embedder page (pages/embeddings) must report on every engine: checked in depth on
// Chromium by embeddings.spec.ts and on Firefox and WebKit by engines/engines.spec.ts.

/** `embeddingsPage.init()`: the bundled use-lite model, loaded in an isolated worker with WASM, its integer-product graph. */
export function expectBundledModelInfo(info: unknown): void {
  expect(info).toMatchObject({
    dim: 512,
    maxTokens: 128,
    modelId: 'transformers:use-lite:q8:mean',
    device: 'wasm',
    int8Activations: true,
    isolated: true,
  });
}

/**
 * `embeddingsPage.basics()`: 512-d unit vectors in separate buffers, related sentences closer than
 * unrelated ones, and no model fetch on the main thread.
 */
export function expectEmbeddingBasics(r: Record<string, unknown>): void {
  expect(r.lengths).toEqual([512, 512, 512, 512]);
  expect(r.finite).toBe(true);
  expect(r.separateBuffers).toBe(true);
  for (const norm of (r.norms as number[]).slice(0, 3)) expect(norm).toBeCloseTo(1, 4);
  expect(r.blankIsZero).toBe(true);
  expect(r.related as number).toBeGreaterThan(0.6);
  expect(r.unrelated as number).toBeLessThan(0.3);
  expect(r.mainThreadModelFetches).toEqual([]);
}
