/**
 * Test utilities for adapter authors: `@zerda/core/testing`. Imports `vitest`, so only load it
 * from test files.
 * @module @zerda/core/testing
 */
export { runStorageConformance } from './conformance.js';
export type { StorageConformanceOptions, StorageFactory } from './conformance.js';
export { runEmbedderConformance } from './embedder-conformance.js';
export { codeOf, errorOf, expectZerdaError, rejectionOf, thrownBy, thrownCode } from './rejections.js';
export type { Call } from './rejections.js';
export type { EmbedderFactory } from './embedder-conformance.js';
export { seededRandom } from './random.js';
export { testProfile } from './profiles.js';
export { recordingStorage } from './recording-storage.js';
export { canariesIn, RecordingEmbedder, SECRET_CANARIES, SECRET_CANARY_TEXT } from './secret-canary.js';
