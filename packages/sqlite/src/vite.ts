/// <reference types="vite/client" />
/**
 * Vite-only entry: the URL of sql.js' browser WASM, emitted with the app (served from its own
 * origin, no CDN). Pass it as `locateFile: () => sqlWasmUrl` to SqliteStorage.open.
 * @module @zerda/sqlite/vite
 */
import url from 'sql.js/dist/sql-wasm-browser.wasm?url';

/** URL of `sql.js/dist/sql-wasm-browser.wasm` in a Vite build. */
export const sqlWasmUrl: string = url;
