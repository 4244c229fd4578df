import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The client runs in a page, a worker, an extension and Node: no DOM or Node globals, and of the
// other packages only @zerda/core (the server, in server/, is Node-only).
const FILES = ['client.ts', 'protocol.ts', 'index.ts'];
const FORBIDDEN: [RegExp, string][] = [
  [/\bfrom\s+['"]@zerda\/(?!core)/, 'import of another @zerda package'],
  [/\bfrom\s+['"](node:|fs|path|os|crypto|http|child_process)['"/]/, 'Node built-in import'],
  [/\bfrom\s+['"]\.\/server/, 'import of the server'],
  [/\b(document|window|localStorage|indexedDB|navigator)\s*[.[]/, 'DOM global'],
  [/\b(process|Buffer|__dirname|require)\s*[.(]/, 'Node global'],
];

describe('@zerda/sync client boundaries', () => {
  it.each(FILES)('%s uses no DOM/Node globals and no package but core', (name) => {
    const code = readFileSync(join(import.meta.dirname, name), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const [re, what] of FORBIDDEN) expect(re.test(code), `${what} in ${name}`).toBe(false);
  });
});
