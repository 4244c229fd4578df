// Public surface of @zerda/browser: one call that wires core + sqlite/IndexedDB + worker embeddings.
// Vite apps: `@zerda/browser/vite` adds the bundled model worker and sql.js WASM as defaults.
export {
  openBrowserMemory,
  type BrowserMemory,
  type OpenBrowserMemoryOptions,
  type OpenProgress,
  type WorkerModelOptions,
} from './open-browser-memory.js';
export type { ImportOptions, ImportProgress, MemoryImportReport, BulkStorage } from './import.js';
export type { ChangeListener, MemoryChange } from './change-feed.js';
