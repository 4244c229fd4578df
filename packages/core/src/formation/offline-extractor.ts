import { consolidate, forgotten } from './consolidation.js';
import { readTurn } from '../language/turn-reading.js';
import type { FormationContext, FormationOp, FormationPlan, FormationTurn } from './types.js';
import type { MemoryExtractor } from './types.js';

/** Kinds that become memories of their own; `conversation` statements stay in the stored turn. */
export const FORMED_KINDS: readonly string[] = ['fact', 'preference', 'event', 'task'];

/**
 * The default extractor: {@link readTurn}, then {@link consolidate} each statement against the
 * most similar known memories. Statements of kind `conversation` keep the turn (it is stored)
 * but form no memory of their own.
 */
export class OfflineExtractor implements MemoryExtractor {
  readonly name = 'offline';
  readonly inline = true;

  async extract(turn: FormationTurn, context: FormationContext): Promise<FormationPlan> {
    const reading = turn.reading ?? readTurn(turn);
    const ops: FormationOp[] = [];
    const pending = new Set<string>();
    for (const s of reading.statements) {
      // "Please forget that I'm vegetarian": the memory that says it goes; nothing is formed.
      if (s.forget) {
        ops.push(...forgotten(s, await context.similar({ text: s.text, about: s.about })));
        continue;
      }
      if (!FORMED_KINDS.includes(s.kind)) continue;
      // Two statements of one turn saying the same thing form one memory.
      const said = `${s.about}\u0000${s.text}`;
      if (pending.has(said)) continue;
      pending.add(said);
      const known = await context.similar({
        text: s.text,
        about: s.about,
        ...(s.attribute !== undefined ? { attribute: s.attribute } : {}),
      });
      ops.push(await consolidate(s, known, context));
    }
    return { keep: reading.keep, ops: onceEach(ops), dropped: reading.dropped };
  }
}

/**
 * One turn supersedes a memory once: where two of its statements would update the same memory
 * ("I quit nursing last month and now I teach biology": what stopped, and the job that replaced
 * it), the one that fills a slot updates it (the first, where none does) and the other is added
 * as a memory of its own.
 */
function onceEach(ops: FormationOp[]): FormationOp[] {
  const winner = new Map<string, FormationOp>();
  for (const op of ops)
    if (op.op === 'update') {
      const held = winner.get(op.id);
      if (
        !held ||
        (held.op === 'update' && held.statement.attribute === undefined && op.statement.attribute !== undefined)
      )
        winner.set(op.id, op);
    }
  return ops.map((op) =>
    op.op === 'update' && winner.get(op.id) !== op ? { op: 'add', statement: op.statement } : op,
  );
}
