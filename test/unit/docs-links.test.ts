/**
 * Every relative link in the project's Markdown (README, docs/, package and example READMEs)
 * points at a file that exists, and every `#anchor` at a heading of its target, as GitHub
 * renders it. External links (http, mailto) are not fetched: CI has no network beyond npm.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.artifacts']);

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

const FILES = [
  join(ROOT, 'README.md'),
  ...['docs', 'packages', 'examples', 'apps', 'test'].flatMap((d) =>
    existsSync(join(ROOT, d)) ? markdownFiles(join(ROOT, d)) : [],
  ),
];

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const noCode = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of noCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1] ?? '');
  return anchors;
}

/** Relative link targets: `[text](target)`, `[text]: target` and `src="target"`. */
function linkTargets(text: string): string[] {
  const body = prose(text);
  const targets = [
    ...[...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ''),
    ...[...body.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? ''),
    ...[...body.matchAll(/\bsrc="([^"]+)"/g)].map((m) => m[1] ?? ''),
  ];
  return targets.filter((t) => t !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    const [pathPart = '', anchor] = target.split('#', 2);
    const path = pathPart === '' ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    if (!existsSync(path)) {
      broken.push(`${target} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!path.endsWith('.md')) continue;
    if (!headingAnchors(readFileSync(path, 'utf8')).has(anchor.toLowerCase())) {
      broken.push(`${target} (no heading #${anchor} in ${relative(ROOT, path)})`);
    }
  }
  return broken;
}

describe('documentation links', () => {
  test('the docs a stranger starts from exist', () => {
    for (const guide of ['concepts', 'browser', 'extensions', 'security', 'configuration', 'mcp', 'postgres']) {
      expect(existsSync(join(ROOT, 'docs', `${guide}.md`)), `docs/${guide}.md`).toBe(true);
    }
  });

  test('the README links every guide in docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = new Set(linkTargets(readme).map((t) => t.split('#')[0]));
    const guides = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(guides.filter((g) => !linked.has(`docs/${g}`))).toEqual([]);
  });

  test('headings become GitHub anchors', () => {
    const anchors = headingAnchors('# Durable storage (`@zerda/sqlite`)\n## A b\n## A b\n```\n# not\n```\n');
    expect([...anchors]).toEqual(['durable-storage-zerdasqlite', 'a-b', 'a-b-1']);
  });

  test.each(FILES.map((f) => [relative(ROOT, f), f]))('%s: every relative link resolves', (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
