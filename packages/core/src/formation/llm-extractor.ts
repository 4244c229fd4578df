import type { LlmClient } from '../model/embedder.js';
import { ZerdaError } from '../model/errors.js';
import type { MemoryEntry } from '../model/types.js';
import { formedFields, statementOf } from './consolidation.js';
import { readTurn } from '../language/turn-reading.js';
import { FORMED_KINDS } from './offline-extractor.js';
import type { FormationContext, FormationOp, FormationPlan, FormationTurn, FormedStatement } from './types.js';
import type { MemoryExtractor } from './types.js';

/** Bounds of one LLM formation call. */
export interface LlmExtractorOptions {
  /** Most known memories shown to the model. Default 8. */
  maxKnown?: number;
  /** Longest turn text sent (characters; longer turns keep their start). Default 2000. */
  maxTurnChars?: number;
  /** Longest known-memory text sent (characters). Default 200. */
  maxMemoryChars?: number;
  /** Answer budget (tokens). Default 512. */
  maxTokens?: number;
  /** Most operations accepted from one answer. Default 12. */
  maxOps?: number;
}

const OPS = ['ADD', 'UPDATE', 'DELETE', 'NOOP'] as const;

/**
 * Formation by an LLM, the pattern mem0 made popular: the model sees the turn and the most
 * similar memories already known (under short aliases `m1`, `m2` …, so it cannot name an id it
 * was not shown) and answers, in one call, a strict JSON list of ADD / UPDATE / DELETE / NOOP.
 * The answer is validated; anything off (not JSON, an unknown op or alias, a missing text, too
 * many ops) throws `ZerdaError('FORMATION')`, and the manager then falls back to the offline
 * extractor and reports the failure. One call per turn; the prompt is bounded by
 * {@link LlmExtractorOptions}.
 */
export class LlmExtractor implements MemoryExtractor {
  readonly name = 'llm';
  readonly #llm: LlmClient;
  readonly #o: Required<LlmExtractorOptions>;

  constructor(llm: LlmClient, options: LlmExtractorOptions = {}) {
    this.#llm = llm;
    this.#o = { maxKnown: 8, maxTurnChars: 2000, maxMemoryChars: 200, maxTokens: 512, maxOps: 12, ...options };
  }

  async extract(turn: FormationTurn, context: FormationContext): Promise<FormationPlan> {
    const reading = turn.reading ?? readTurn(turn);
    const speaker = reading.speaker ?? turn.userId;
    // What the model is shown: memories filling the slots the offline reading sees (so "I moved
    // to Porto" meets "I live in Lisbon"), then lexical matches of the whole turn.
    const found = new Map<string, MemoryEntry>();
    for (const st of reading.statements) {
      if (st.attribute === undefined) continue;
      for (const e of await context.similar(
        { text: st.text, about: st.about, attribute: st.attribute },
        this.#o.maxKnown,
      ))
        found.set(e.id, e);
    }
    for (const e of await context.similar({ text: turn.input }, this.#o.maxKnown)) found.set(e.id, e);
    const known = [...found.values()].slice(0, this.#o.maxKnown);
    const prompt = this.prompt(turn, speaker, known);
    let answer: string;
    try {
      answer = await this.#llm.generate(prompt, { maxTokens: this.#o.maxTokens });
    } catch (err) {
      throw new ZerdaError('FORMATION', 'The LLM failed to answer the formation prompt', { cause: err });
    }
    const ops = this.parse(answer, known, speaker);
    return { keep: reading.keep || ops.some((o) => o.op !== 'delete'), ops, dropped: reading.dropped };
  }

  /** The prompt for one turn (bounded: at most `maxKnown` memories, texts truncated). */
  prompt(turn: FormationTurn, speaker: string, known: readonly MemoryEntry[]): string {
    const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
    const lines = known.map((e, i) => {
      const f = formedFields(e);
      return `m${i + 1} [${e.kind}] about ${JSON.stringify(f.about ?? speaker)}${f.attribute ? ` (${f.attribute})` : ''}: ${JSON.stringify(cut(statementOf(e), this.#o.maxMemoryChars))}`;
    });
    return [
      'You maintain the long-term memory of a chat assistant. Extract from the NEW TURN only the statements worth remembering about people:',
      'facts (identity, relations, where they live or work, health), preferences, events (with their date), tasks or plans.',
      'Ignore questions, greetings, thanks, small talk, and anything the assistant said. Attribute each memory to the person it is about.',
      'Compare with the KNOWN MEMORIES: if one already says the same, answer NOOP with its id; if the turn changes it (same person and attribute,',
      'new value), answer UPDATE with its id and the new text; if the turn says it is no longer true, answer DELETE with its id; otherwise ADD.',
      `The turn was said on ${new Date(turn.createdAt).toISOString().slice(0, 10)} by ${JSON.stringify(speaker)}; write dates it names ("yesterday") as YYYY-MM-DD.`,
      'Answer with JSON only, exactly this shape:',
      '{"operations":[{"op":"ADD|UPDATE|DELETE|NOOP","id":"m1 (UPDATE/DELETE/NOOP only)","text":"the memory, one sentence","kind":"fact|preference|event|task","about":"person","attribute":"optional slot, e.g. lives in","value":"optional slot value","date":"optional YYYY-MM-DD"}]}',
      'Answer {"operations":[]} when there is nothing to remember.',
      '',
      'KNOWN MEMORIES:',
      ...(lines.length ? lines : ['(none)']),
      '',
      'NEW TURN:',
      JSON.stringify(cut(turn.input, this.#o.maxTurnChars)),
    ].join('\n');
  }

  /** Validate an answer into operations. Throws `ZerdaError('FORMATION')` naming what was wrong. */
  parse(answer: string, known: readonly MemoryEntry[], speaker: string): FormationOp[] {
    const bad = (what: string): never => {
      throw new ZerdaError('FORMATION', `Invalid LLM formation answer: ${what}`, {
        details: { answer: answer.slice(0, 500) },
      });
    };
    if (typeof answer !== 'string') bad('not a string');
    const start = answer.indexOf('{');
    const end = answer.lastIndexOf('}');
    if (start < 0 || end < start) bad('no JSON object');
    let json: unknown;
    try {
      json = JSON.parse(answer.slice(start, end + 1));
    } catch {
      bad('not valid JSON');
    }
    const list = (json as { operations?: unknown } | null)?.operations;
    if (!Array.isArray(list)) bad('"operations" is not an array');
    const items = list as unknown[];
    if (items.length > this.#o.maxOps) bad(`more than ${this.#o.maxOps} operations`);
    const ops: FormationOp[] = [];
    for (const [i, raw] of items.entries()) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad(`operation ${i} is not an object`);
      const o = raw as Record<string, unknown>;
      const op = typeof o.op === 'string' ? o.op.toUpperCase() : '';
      if (!(OPS as readonly string[]).includes(op))
        bad(`operation ${i} has op ${JSON.stringify(o.op)}, expected ADD, UPDATE, DELETE or NOOP`);
      let target: MemoryEntry | undefined;
      if (op !== 'ADD') {
        const m = typeof o.id === 'string' ? /^m(\d+)$/.exec(o.id.trim()) : null;
        target = m ? known[Number(m[1]) - 1] : undefined;
        if (!target) bad(`operation ${i} (${op}) names ${JSON.stringify(o.id)}, not one of the known memories`);
      }
      if (op === 'DELETE') {
        ops.push({ op: 'delete', id: target!.id });
        continue;
      }
      if (op === 'NOOP') {
        const f = formedFields(target!);
        ops.push({
          op: 'reinforce',
          id: target!.id,
          statement: { text: statementOf(target!), kind: target!.kind, about: f.about ?? speaker },
        });
        continue;
      }
      const text = typeof o.text === 'string' ? o.text.trim() : '';
      if (!text || text.length > 1000) bad(`operation ${i} (${op}) needs a text of 1 to 1000 characters`);
      const kind =
        typeof o.kind === 'string' && FORMED_KINDS.includes(o.kind)
          ? o.kind
          : bad(`operation ${i} has kind ${JSON.stringify(o.kind)}, expected one of ${FORMED_KINDS.join(', ')}`);
      const statement: FormedStatement = {
        text,
        kind,
        about: typeof o.about === 'string' && o.about.trim() ? o.about.trim() : speaker,
      };
      if (typeof o.attribute === 'string' && o.attribute.trim()) statement.attribute = o.attribute.trim().toLowerCase();
      if (typeof o.value === 'string' && o.value.trim()) statement.value = o.value.trim();
      if (o.date !== undefined && o.date !== null && o.date !== '') {
        const at =
          typeof o.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(o.date) ? Date.parse(`${o.date}T00:00:00Z`) : NaN;
        if (!Number.isFinite(at)) bad(`operation ${i} has date ${JSON.stringify(o.date)}, expected YYYY-MM-DD`);
        statement.at = at;
      }
      ops.push(op === 'ADD' ? { op: 'add', statement } : { op: 'update', id: target!.id, statement });
    }
    return ops;
  }
}
