/**
 * Pure helpers of the end-to-end evaluation (`end-to-end.ts`): map recalled memories back to the
 * turns they came from, and tally what a prompt holds.
 */

/** What the harness needs of a memory: its id and `metadata.sources` (turn entry ids it came from). */
export interface MemoryRef {
  id: string;
  metadata?: Record<string, unknown>;
}

/**
 * The turns a memory stands for: the turn itself when `id` is a turn entry, plus every turn its
 * `metadata.sources` names (memories formed from turns). `turnOf` maps turn entry ids to turn ids.
 */
export function turnsOf(memory: MemoryRef, turnOf: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const own = turnOf.get(memory.id);
  if (own !== undefined) out.push(own);
  const sources = memory.metadata?.sources;
  if (Array.isArray(sources)) {
    for (const s of sources) {
      const t = typeof s === 'string' ? turnOf.get(s) : undefined;
      if (t !== undefined && !out.includes(t)) out.push(t);
    }
  }
  return out;
}

/**
 * Turn ids in rank order from ranked memories (each memory expands to its turns, first
 * occurrence kept). `k` limits the memories read, not the turns.
 */
export function rankedTurns(
  memories: readonly MemoryRef[],
  turnOf: ReadonlyMap<string, string>,
  k = Infinity,
): string[] {
  const seen = new Set<string>();
  for (const m of memories.slice(0, k)) for (const t of turnsOf(m, turnOf)) seen.add(t);
  return [...seen];
}

/** Share of `evidence` present in `turns` (1 for empty evidence). */
export function coverage(turns: Iterable<string>, evidence: readonly string[]): number {
  if (evidence.length === 0) return 1;
  const have = new Set(turns);
  return evidence.filter((e) => have.has(e)).length / evidence.length;
}

/** Running sums of the end-to-end measures over questions. */
export class PromptTally {
  questions = 0;
  evidence = 0;
  memories = 0;
  tokens = 0;
  /** Memories in prompts that entered with relevance 0 (not recalled for the query). */
  zeroRelevance = 0;
  /** Memories in prompts holding none of the question's evidence turns. */
  offEvidence = 0;
  tokenCounts: number[] = [];

  /**
   * Add one prompt: `memories` placed in it with the relevance each entered with, the turns the
   * whole prompt covers (memories and history), its token count and the question's evidence.
   */
  add(
    prompt: { memories: { turns: readonly string[]; relevance: number }[]; turns: Iterable<string>; tokens: number },
    evidence: readonly string[],
  ): void {
    this.questions++;
    this.evidence += coverage(prompt.turns, evidence);
    this.memories += prompt.memories.length;
    this.tokens += prompt.tokens;
    this.tokenCounts.push(prompt.tokens);
    const ev = new Set(evidence);
    for (const m of prompt.memories) {
      if (!(m.relevance > 0)) this.zeroRelevance++;
      if (!m.turns.some((t) => ev.has(t))) this.offEvidence++;
    }
  }

  merge(other: PromptTally): this {
    this.questions += other.questions;
    this.evidence += other.evidence;
    this.memories += other.memories;
    this.tokens += other.tokens;
    this.zeroRelevance += other.zeroRelevance;
    this.offEvidence += other.offEvidence;
    this.tokenCounts.push(...other.tokenCounts);
    return this;
  }

  /** Evidence in prompt (%), memories and tokens per prompt, zero-relevance share (%). */
  summary(): {
    evidencePct: number;
    memoriesPerPrompt: number;
    tokensPerPrompt: number;
    zeroRelevancePct: number;
    offEvidencePct: number;
  } {
    const q = this.questions || 1;
    const m = this.memories || 1;
    return {
      evidencePct: (100 * this.evidence) / q,
      memoriesPerPrompt: this.memories / q,
      tokensPerPrompt: this.tokens / q,
      zeroRelevancePct: (100 * this.zeroRelevance) / m,
      offEvidencePct: (100 * this.offEvidence) / m,
    };
  }
}
