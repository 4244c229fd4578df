/**
 * @zerda/core — storage-agnostic memory for AI chat apps: tiers, policies, retrieval, context,
 * privacy and the `MemoryManager` orchestrator. Runs in browsers, workers and Node.
 * @packageDocumentation
 */
export * from './errors.js';
export * from './types.js';
export * from './config.js';
export type * from './storage.js';
export type * from './embedder.js';
export * from './clock.js';
export * from './entry.js';
export * from './tokens.js';
export * from './decay.js';
export * from './forgetting.js';
export * from './short-term-memory.js';
export * from './working-memory.js';
export * from './long-term-memory.js';
export * from './in-memory-storage.js';
export * from './storage-checks.js';
export * from './compressor.js';
export * from './profile-manager.js';
export * from './text.js';
export * from './lexical-index.js';
export * from './lru-cache.js';
export * from './vector-index.js';
export { simdDotSupported, type WebAssemblyApi } from './simd-dot.js';
export * from './hash-embedder.js';
export * from './fusion.js';
export * from './semantic-memory.js';
export * from './time-expressions.js';
export * from './selector.js';
export * from './pii-masker.js';
export * from './cipher.js';
export * from './access-controller.js';
export * from './context-builder.js';
export * from './memory-manager.js';
export { KeyedMutex } from './manager/keyed-mutex.js';
