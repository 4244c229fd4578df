// TEMPORARY until @zerda/core's index exports everything (the lead completes it).
export * from '@zerda/core';
export { MemoryManager } from '../../core/src/memory-manager.js';
export { InMemoryStorage } from '../../core/src/in-memory-storage.js';
export { HashEmbedder } from '../../core/src/hash-embedder.js';
export { effectiveImportance, isProtected } from '../../core/src/decay.js';
export type { Clock } from '../../core/src/clock.js';
export type { RecallHit, RecallMode } from '../../core/src/semantic-memory.js';
