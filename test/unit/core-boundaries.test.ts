import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The design's one-way arrows: core imports nothing from the other packages and uses no DOM or
// Node globals (only what both runtimes share). This scans core's non-test sources.
const CORE = join(import.meta.dirname, '../../packages/core/src');
const FORBIDDEN: [RegExp, string][] = [
  [/\bfrom\s+['"]@zerda\/(?!core)/, 'import of another @zerda package'],
  [/\bfrom\s+['"](node:|fs|path|os|crypto|child_process)['"/]/, 'Node built-in import'],
  [/\b(document|window|localStorage|indexedDB|navigator)\s*[.[]/, 'DOM global'],
  [/\b(process|Buffer|__dirname|require)\s*[.(]/, 'Node global'],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'testing' ? [] : sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('core boundaries', () => {
  const files = sources(CORE);
  it('finds the core sources', () => {
    expect(files.length).toBeGreaterThan(10);
  });
  it.each(files.map((f) => [relative(CORE, f), f]))(
    '%s uses no DOM/Node globals and no other package',
    (_name, file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      for (const [re, what] of FORBIDDEN) expect(re.test(code), `${what} in ${file}`).toBe(false);
    },
  );
});
