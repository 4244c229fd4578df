import type { MemoryEntry, MemoryKind } from '../model/types.js';
import type { TurnReading } from '../language/turn-reading.js';

/**
 * The turn a memory is formed from: the episodic record `saveInteraction` stored (already
 * PII-masked), as the extractor sees it.
 */
export interface FormationTurn {
  /** Id of the stored turn entry (`SaveResult.entry.id`); every formed memory lists it in `metadata.sources`. */
  id: string;
  tenantId: string;
  userId: string;
  /** What the user (or the named speaker, `"Ana: …"`) said. Memories are formed from this only. */
  input: string;
  /** The assistant's reply. Never formed into memories: a restatement must not come back as a new memory. */
  output: string;
  /** The turn's own time (epoch ms): relative dates ("yesterday", "next Friday") are anchored here. */
  createdAt: number;
  /**
   * The language layer's reading of `input` (`readTurn`), when the manager has made it: the
   * write path reads each turn once, and an extractor uses this reading instead of its own.
   */
  reading?: TurnReading;
}

/** A statement worth keeping, as an extractor read it from a turn. */
export interface FormedStatement {
  /** The statement, as said (one sentence or a few that belong together). */
  text: string;
  /** `fact`, `preference`, `event`, `task` (or `conversation` for substance that is none of these). */
  kind: MemoryKind;
  /** Whom it is about: the speaker (`"Ana: …"`), a person named as the subject, or the user id. */
  about: string;
  /**
   * Other names its subject goes by: `["Ann's sister"]` for "My sister Ana lives in Lisbon" (about
   * `"Ana"`), so that "My sister moved to Berlin" supersedes where Ana lives.
   */
  aka?: string[];
  /**
   * What it says about them, when it fills a slot that a later statement can supersede
   * (`'lives in'`, `'name'`, `'works at'`, `'favourite colour'` …). Lowercase.
   */
  attribute?: string;
  /** The slot's value (`'Lisbon'`). */
  value?: string;
  /**
   * Events and tasks: the date the statement names, resolved against the turn's time (epoch ms).
   * A slot fact that says when it came to hold its value ("I moved to Porto in 2019") carries it too.
   */
  at?: number;
  /**
   * A request to forget what `text` says ("Please forget that I'm vegetarian" → `text` "I'm
   * vegetarian"): consolidation deletes the memory that says it, with the turns it was formed
   * from, and forms nothing.
   */
  forget?: boolean;
  /**
   * Tags the memory carries: `'core'` for how the speaker wants to be answered ("Please always
   * answer in Spanish"), always in the prompt and never decaying (`config.protectedTags`).
   */
  tags?: string[];
}

/** Why a sentence of a turn was not kept. */
export type FormationDropReason = 'question' | 'greeting' | 'acknowledgement' | 'restatement' | 'filler';

/** One operation on long-term memory, as consolidation (or an LLM) decided it. */
export type FormationOp =
  /** A new memory. */
  | { op: 'add'; statement: FormedStatement }
  /** `id` says the same thing again: reinforce it and add this turn to its sources. */
  | { op: 'reinforce'; id: string; statement: FormedStatement }
  /** `id` is superseded (same subject and attribute, new value): update it, keeping the previous version in `metadata.history`. */
  | { op: 'update'; id: string; statement: FormedStatement }
  /**
   * `id` is no longer true (an LLM's DELETE), or the user asked to forget it (`sources`: the turns
   * it was formed from go with it, so that nothing recalls it again).
   */
  | { op: 'delete'; id: string; sources?: boolean };

/** What an extractor decided for one turn. */
export interface FormationPlan {
  /**
   * Whether the turn carries anything worth keeping. `false` (only questions, greetings,
   * acknowledgements, restatements): the turn stays in the short-term window and is not
   * stored in long-term memory.
   */
  keep: boolean;
  /** Operations to apply, in order. Statements of kind `conversation` need none: the stored turn holds them. */
  ops: FormationOp[];
  /** The sentences left out and why (for reports and the demo). */
  dropped: { text: string; reason: FormationDropReason }[];
}

/** What an extractor may ask of the memory it forms into (the manager provides it). */
export interface FormationContext {
  /**
   * Memories already known that resemble `query`, best first, at most `limit` (default 8):
   * those filling the same slot (`about` + `attribute`) first, then lexical matches of `text`.
   * Only formed memories (never turns).
   */
  similar(query: { text: string; about?: string; attribute?: string }, limit?: number): Promise<MemoryEntry[]>;
  /**
   * Cosine similarity of `text` to each of `others` (same order), when an embedder is
   * available; absent otherwise (consolidation then compares words only).
   */
  similarity?(text: string, others: string[]): Promise<number[]>;
}

/**
 * The formation contract: turns a saved turn into operations on long-term memory. The default
 * is the offline extractor (`formation: 'offline'`) (rules, no LLM); the LLM extractor (`formation: 'llm'`) asks an `LlmClient`.
 * Implementations must not mutate anything: the manager applies the plan.
 */
export interface MemoryExtractor {
  /** Short name, recorded on formed memories as `metadata.formedBy`. */
  readonly name: string;
  /**
   * `true`: deterministic and fast, run inside `saveInteraction` (its plan decides whether the
   * turn is kept long-term, and the memories come back in `SaveResult.memories`). Otherwise (an
   * LLM) it runs in the background after the save, awaited by `flush()`.
   */
  readonly inline?: boolean;
  /** What to store for this turn, and what was dropped and why. */
  extract(turn: FormationTurn, context: FormationContext): Promise<FormationPlan>;
}

/** Metadata keys formed memories carry (besides `history` from updates). */
export const SOURCES_KEY = 'sources';
