// Copies @huggingface/transformers' browser build into dist/vendor/, where the package's
// `#transformers` import resolves in browsers. Browser installs then need neither
// `@huggingface/transformers` nor its Node-only dependencies (onnxruntime-node, whose install
// script downloads native binaries from outside the npm registry, and sharp). Node resolves
// `#transformers` to the real package (an optional peer dependency), so Node apps install it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const here = dirname(new URL(import.meta.url).pathname);
const require = createRequire(import.meta.url);
// The package exports no ./package.json; its Node entry lives in <pkg>/dist/.
const pkgDir = dirname(dirname(require.resolve('@huggingface/transformers')));
const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
const source = await readFile(join(pkgDir, 'dist/transformers.web.js'), 'utf8');
const imports = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*["']([^"'.][^"']*)["']/gm)].map((m) => m[1]);
const allowed = new Set(['onnxruntime-common', 'onnxruntime-web/webgpu', 'onnxruntime-web']);
const unexpected = imports.filter((s) => !allowed.has(s));
if (unexpected.length)
  throw new Error(`transformers.web.js imports ${unexpected.join(', ')}: add them to @zerda/embeddings' dependencies`);
const banner = `// @huggingface/transformers ${pkg.version} (${pkg.license}), dist/transformers.web.js, vendored by @zerda/embeddings.\n`;
const out = join(here, '../dist/vendor');
await mkdir(out, { recursive: true });
const license = await readFile(join(pkgDir, 'LICENSE'), 'utf8').catch(() => null);
if (license !== null) await writeFile(join(out, 'LICENSE.transformers'), license);
await writeFile(join(out, 'transformers.web.js'), banner + source.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n'));
