// Copy sql.js' WASM into a folder your server serves (default public/zerda). The model and ONNX
// Runtime's WASM need no copy: Turbopack emits both through `new URL(…, import.meta.url)` (a copy of
// ONNX Runtime's here would be a second 13.6 MB file). Resolved from @zerda/browser down, so it
// works under pnpm, where sql.js is an indirect dependency.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const out = process.argv[2] ?? 'public/zerda';
const from = (require, name) => createRequire(require.resolve(name));
const app = createRequire(join(process.cwd(), 'package.json'));
const browser = from(app, '@zerda/browser');
const sqlite = from(browser, '@zerda/sqlite');

const files = [[join(dirname(sqlite.resolve('sql.js')), 'sql-wasm-browser.wasm'), 'sql-wasm-browser.wasm']];
for (const [src, dest] of files) {
  mkdirSync(dirname(join(out, dest)), { recursive: true });
  copyFileSync(src, join(out, dest));
}
console.log(`zerda: copied ${files.length} files to ${out}/`);
