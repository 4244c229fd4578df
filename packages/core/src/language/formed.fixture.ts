/**
 * What the formation rule tests read (`*-rules.test.ts`): one place for the turn they read, the
 * time they read it at and how they print what it forms. Test-only: not built, not published.
 */
import { expect } from 'vitest';
import { readTurn } from './turn-reading.js';

/** The time the rule tests read their turns at: Tuesday 20 February 2024, noon UTC. */
export const NOON = Date.UTC(2024, 1, 20, 12);

/** The statements `Ann` says in `text`, Bob the other speaker (who said `before`, when given). */
export function statementsOf(text: string, before?: string) {
  return readTurn(
    { input: `Ann: ${text}`, userId: 'u', createdAt: NOON },
    before !== undefined ? { previous: { input: `Bob: ${before}` } } : { listener: 'Bob' },
  ).statements;
}

/** The memories `Ann` forms from `text` (see {@link statementsOf}): one `kind | about | text` line each, or `kind | text` with `about: false`. */
export function formed(text: string, before?: string, { about = true }: { about?: boolean } = {}): string[] {
  return statementsOf(text, before)
    .filter((s) => s.kind !== 'conversation')
    .map((s) => (about ? `${s.kind} | ${s.about} | ${s.text}` : `${s.kind} | ${s.text}`));
}

/** The kind of each memory `Ann` forms from `text`. */
export function kinds(text: string): string[] {
  return formed(text).map((line) => line.split(' | ')[0]!);
}

/** Each of `texts` forms no memory. */
export function none(texts: string[]): void {
  for (const text of texts) expect(formed(text), text).toEqual([]);
}
