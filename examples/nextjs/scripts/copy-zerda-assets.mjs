// Copy the WASM files Zerda loads at run time into a folder your server serves (default
// public/zerda): ONNX Runtime's plain WASM build (ort/) and sql.js' WASM. The model itself needs no
// copy: bundlers emit it through `new URL(…, import.meta.url)`. Resolved from @zerda/browser down,
// so it works under pnpm, where onnxruntime-web and sql.js are indirect dependencies.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const out = process.argv[2] ?? 'public/zerda';
const from = (require, name) => createRequire(require.resolve(name));
const app = createRequire(join(process.cwd(), 'package.json'));
const browser = from(app, '@zerda/browser');
const embeddings = from(browser, '@zerda/embeddings');
const sqlite = from(browser, '@zerda/sqlite');

const files = [
  [embeddings.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'), 'ort/ort-wasm-simd-threaded.wasm'],
  [embeddings.resolve('onnxruntime-web/ort-wasm-simd-threaded.mjs'), 'ort/ort-wasm-simd-threaded.mjs'],
  [join(dirname(sqlite.resolve('sql.js')), 'sql-wasm-browser.wasm'), 'sql-wasm-browser.wasm'],
];
for (const [src, dest] of files) {
  mkdirSync(dirname(join(out, dest)), { recursive: true });
  copyFileSync(src, join(out, dest));
}
console.log(`zerda: copied ${files.length} files to ${out}/`);
