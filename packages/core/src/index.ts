// Public surface of @zerda/core. (Filled in as modules land.)
export * from './errors.js';
export * from './types.js';
export * from './config.js';
export type * from './storage.js';
export type * from './embedder.js';
