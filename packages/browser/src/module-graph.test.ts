// `@zerda/browser`'s main entry runs in pages that a server renders first (Next.js, Remix, …): the
// server pass bundles it under the `node` condition, where `#transformers` means the Node-only
// `@huggingface/transformers` (absent from a browser install). So no module reachable from the
// entry, statically or through `import()`, may import the model runtime: only the worker does.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const PACKAGES = resolve(import.meta.dirname, '../..');

/** `@zerda/<pkg>/<sub>` → its source file (through the package's `@zerda/source` export). */
function sourceOf(specifier: string): string | undefined {
  const m = /^@zerda\/([^/]+)(\/.+)?$/.exec(specifier);
  if (!m) return undefined;
  const pkg = JSON.parse(readFileSync(join(PACKAGES, m[1]!, 'package.json'), 'utf8')) as {
    exports: Record<string, { '@zerda/source'?: string | Record<string, string> } | string>;
  };
  const entry = pkg.exports[`.${m[2] ?? ''}`];
  const source = typeof entry === 'object' ? entry['@zerda/source'] : undefined;
  const path = typeof source === 'object' ? source.default : source;
  return path ? join(PACKAGES, m[1]!, path) : undefined;
}

/** Every specifier a module imports (static, re-export, dynamic), type-only imports left out. */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+'([^']+)'/gm)) specs.push(m[1]!);
  for (const m of code.matchAll(/^\s*import\s+'([^']+)'/gm)) specs.push(m[1]!);
  for (const m of code.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specs.push(m[1]!);
  return specs;
}

function reachable(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const visit = (file: string, chain: string[]): void => {
    if (seen.has(file)) return;
    seen.set(file, chain);
    for (const spec of importsOf(file)) {
      const next = spec.startsWith('.') ? resolve(dirname(file), spec.replace(/\.js$/, '.ts')) : sourceOf(spec);
      if (next) visit(next, [...chain, spec]);
      else seen.set(spec, [...chain, spec]);
    }
  };
  visit(entry, []);
  return seen;
}

test('nothing reachable from @zerda/browser imports the model runtime (#transformers, @huggingface/transformers)', () => {
  const graph = reachable(join(PACKAGES, 'browser/src/index.ts'));
  const runtime = [...graph].filter(([spec]) => spec === '#transformers' || spec.startsWith('@huggingface/'));
  expect(runtime.map(([, chain]) => chain.join(' → '))).toEqual([]);
  // The check sees through packages: the worker client and sqlite are in the graph.
  expect([...graph.keys()].some((f) => f.endsWith('embeddings/src/worker-client.ts'))).toBe(true);
  // …and it would see the runtime: the worker side does import it.
  const worker = reachable(join(PACKAGES, 'embeddings/src/worker.ts'));
  expect(worker.has('#transformers')).toBe(true);
});
