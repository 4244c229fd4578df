import { DAY_MS, systemClock } from '../model/clock.js';
import type { Clock } from '../model/clock.js';
import type { MemoryConfig } from '../model/config.js';
import { effectiveImportance, isProtected } from './decay.js';
import type { LlmClient } from '../model/embedder.js';
import { invalid } from '../model/errors.js';
import type { LongTermMemory } from '../tiers/long-term-memory.js';
import { STOPWORDS, tokenize } from '../retrieval/text.js';
import { estimateTokens } from '../context/tokens.js';
import type { TokenCounter } from '../context/tokens.js';
import { entryText, isInteraction } from '../model/types.js';
import type { MemoryEntry } from '../model/types.js';

/** Options of {@link MemoryCompressor}. */
export interface MemoryCompressorOptions {
  config: MemoryConfig;
  clock?: Clock;
  /** Writes abstractive summaries when given; extractive summaries are used otherwise or on failure. */
  llm?: LlmClient;
  counter?: TokenCounter;
  /** Upper bound on one summary's length in tokens. Default 160. */
  maxSummaryTokens?: number;
}

/** What one compression run did. */
export interface CompressionReport {
  /** The `kind: 'summary'` entries written. */
  summaries: MemoryEntry[];
  /** Ids of the entries merged into summaries and deleted. */
  removed: string[];
  /** True when at least one summary came from the LLM. */
  usedLlm: boolean;
  /** One message per batch whose LLM call failed and fell back to an extractive summary. */
  llmErrors: string[];
}

/** One group of same-kind memories that compression merges into one summary (see `MemoryCompressor.plan`). */
export interface CompressionBatch {
  kind: string;
  /** Oldest first. */
  entries: MemoryEntry[];
}

const MIN_SENTENCE_WORDS = 3;

/** Kind of the entries a compressor writes. */
export const SUMMARY_KIND = 'summary';

/**
 * Merges old, unimportant memories into summaries. Eligible: unprotected, not already a summary,
 * untouched for at least `compressionMinAgeDays`, effective importance below
 * `importanceThreshold`. They are grouped by kind, oldest first, in batches of up to
 * `compressionBatchSize` (a batch needs two or more), and each batch becomes one `kind: 'summary'`
 * entry whose `metadata.sources` lists the merged ids. Summaries are written before the sources
 * are deleted, so an interrupted run never loses content.
 */
export class MemoryCompressor {
  readonly #config: MemoryConfig;
  readonly #clock: Clock;
  readonly #llm: LlmClient | undefined;
  readonly #counter: TokenCounter;
  readonly #maxTokens: number;

  constructor(options: MemoryCompressorOptions) {
    if (typeof options !== 'object' || options === null || typeof options.config !== 'object')
      invalid('options.config', 'a resolved MemoryConfig', options?.config);
    const maxTokens = options.maxSummaryTokens ?? 160;
    if (!Number.isInteger(maxTokens) || maxTokens < 8)
      invalid('options.maxSummaryTokens', 'an integer >= 8', maxTokens);
    if (options.llm !== undefined && typeof options.llm?.generate !== 'function')
      invalid('options.llm', 'an LlmClient', options.llm);
    this.#config = options.config;
    this.#clock = options.clock ?? systemClock;
    this.#llm = options.llm;
    this.#counter = options.counter ?? estimateTokens;
    this.#maxTokens = maxTokens;
  }

  /** True when a tenant holding `count` long-term entries is over `compressionTrigger * maxLongTerm`. */
  shouldCompress(count: number): boolean {
    if (!Number.isInteger(count) || count < 0) invalid('count', 'an integer >= 0', count);
    return count > this.#config.compressionTrigger * this.#config.maxLongTerm;
  }

  /** The entries of `entries` that compression may merge at `now`. */
  eligible(entries: readonly MemoryEntry[], now: number = this.#clock()): MemoryEntry[] {
    const minAge = this.#config.compressionMinAgeDays * DAY_MS;
    return entries.filter(
      (e) =>
        e.kind !== SUMMARY_KIND &&
        !isProtected(e, this.#config) &&
        now - e.lastAccess >= minAge &&
        now - e.createdAt >= minAge &&
        effectiveImportance(e, now, this.#config) < this.#config.importanceThreshold,
    );
  }

  /**
   * The batches a compression at `now` would merge, each into one summary: the {@link eligible}
   * entries of `entries` (taken in the order given: oldest first is what `compress` passes),
   * grouped by kind (kinds in name order), in batches of up to `compressionBatchSize`; a batch
   * needs two or more. Pure: writes nothing. `compress` merges exactly these batches.
   */
  plan(entries: readonly MemoryEntry[], now: number = this.#clock()): CompressionBatch[] {
    const byKind = new Map<string, MemoryEntry[]>();
    for (const e of this.eligible(entries, now)) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
    const batches: CompressionBatch[] = [];
    for (const [kind, group] of [...byKind].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      for (let i = 0; i < group.length; i += this.#config.compressionBatchSize) {
        const batch = group.slice(i, i + this.#config.compressionBatchSize);
        if (batch.length >= 2) batches.push({ kind, entries: batch });
      }
    }
    return batches;
  }

  /** Compress the eligible entries of `ltm` now (the batches {@link plan} gives for them, oldest first). */
  async compress(
    ltm: LongTermMemory,
    options: { signal?: AbortSignal; now?: number } = {},
  ): Promise<CompressionReport> {
    const now = options.now ?? this.#clock();
    const batches = this.plan(await ltm.query({ orderBy: 'createdAt', order: 'asc' }), now);
    return this.merge(ltm, batches, { ...options, now });
  }

  /**
   * Merge planned batches (from {@link plan}) into summaries: each batch becomes one
   * `kind: 'summary'` entry (abstractive with an LLM, extractive otherwise or on failure); the
   * summaries are written before the sources are deleted.
   */
  async merge(
    ltm: LongTermMemory,
    batches: readonly CompressionBatch[],
    options: { signal?: AbortSignal; now?: number } = {},
  ): Promise<CompressionReport> {
    const now = options.now ?? this.#clock();
    const report: CompressionReport = { summaries: [], removed: [], usedLlm: false, llmErrors: [] };
    const drafts: { batch: MemoryEntry[]; text: string; method: 'llm' | 'extractive' }[] = [];
    for (const { kind, entries: batch } of batches) {
      let text: string | undefined;
      if (this.#llm) {
        try {
          text = await this.#summariseWithLlm(batch, kind, options.signal);
        } catch (err) {
          report.llmErrors.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      const method = text === undefined ? 'extractive' : 'llm';
      if (method === 'llm') report.usedLlm = true;
      drafts.push({ batch, text: text ?? this.summarise(batch.map(entryText)), method });
    }
    if (drafts.length === 0) return report;

    const summaries = await ltm.storeMany(
      drafts.map(({ batch, text, method }) => this.#summaryEntry(batch, text, method, now)),
    );
    const removed = drafts.flatMap((d) => d.batch.map((e) => e.id));
    await ltm.deleteMany(removed);
    return { ...report, summaries, removed };
  }

  /**
   * Extractive summary of texts: greedily picks the sentences that cover the most not-yet-covered
   * content words (weighted by how many texts share them, normalised by sentence length), skipping
   * near-duplicates, until `maxSummaryTokens`; the picks keep their original order.
   */
  summarise(texts: readonly string[]): string {
    const sentences: { text: string; words: Set<string>; order: number; length: number }[] = [];
    const df = new Map<string, number>();
    texts.forEach((t) => {
      const seen = new Set<string>();
      for (const raw of t.split(/(?<=[.!?])\s+|\n+/)) {
        const text = raw.trim();
        if (!text) continue;
        const tokens = tokenize(text);
        const words = new Set(tokens.filter((w) => !STOPWORDS.has(w)));
        sentences.push({ text, words, order: sentences.length, length: tokens.length });
        for (const w of words) seen.add(w);
      }
      for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
    });
    if (sentences.length === 0) return '';

    const covered = new Set<string>();
    const picked: typeof sentences = [];
    let budget = this.#maxTokens;
    // Acknowledgements ("ok.", "Thanks!") carry no information; skip them unless nothing else exists.
    const substantive = sentences.filter((s) => s.length >= MIN_SENTENCE_WORDS);
    const remaining = new Set(substantive.length > 0 ? substantive : sentences);
    for (;;) {
      let best: (typeof sentences)[number] | undefined;
      let bestGain = 0;
      for (const s of remaining) {
        if (this.#counter(s.text) > budget) continue;
        let gain = 0;
        for (const w of s.words) if (!covered.has(w)) gain += df.get(w) ?? 0;
        const novelty = s.words.size === 0 ? 0 : gain / Math.sqrt(s.words.size);
        if (novelty > bestGain) {
          best = s;
          bestGain = novelty;
        }
      }
      if (!best) break;
      const fresh = [...best.words].filter((w) => !covered.has(w)).length;
      remaining.delete(best);
      if (fresh / best.words.size < 0.3) continue; // mostly repeats what is already picked
      picked.push(best);
      budget -= this.#counter(best.text) + 1;
      for (const w of best.words) covered.add(w);
    }
    if (picked.length === 0) return this.#truncate(sentences[0]!.text);
    return picked
      .sort((a, b) => a.order - b.order)
      .map((s) => s.text)
      .join(' ');
  }

  async #summariseWithLlm(batch: MemoryEntry[], kind: string, signal?: AbortSignal): Promise<string> {
    const lines = batch.map((e, i) => {
      const c = e.content;
      const body = isInteraction(c)
        ? `User: ${c.input}\nAssistant: ${c.output}`
        : [c.title, c.text].filter(Boolean).join(': ');
      return `${i + 1}. ${body.replace(/\s+/g, ' ').trim()}`;
    });
    const prompt =
      `Summarise these ${batch.length} ${kind} memories into one concise paragraph of at most ${this.#maxTokens} tokens. ` +
      'Keep names, facts, preferences and decisions; drop small talk. Answer with the summary only.\n\n' +
      lines.join('\n');
    const out = await this.#llm!.generate(prompt, { maxTokens: this.#maxTokens, ...(signal ? { signal } : {}) });
    if (typeof out !== 'string' || !out.trim()) throw new Error('LLM returned an empty summary');
    return this.#truncate(out.trim());
  }

  #truncate(text: string): string {
    if (this.#counter(text) <= this.#maxTokens) return text;
    const words = text.split(/\s+/);
    let lo = 1;
    let hi = words.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.#counter(words.slice(0, mid).join(' ') + ' …') <= this.#maxTokens) lo = mid;
      else hi = mid - 1;
    }
    return words.slice(0, lo).join(' ') + ' …';
  }

  #summaryEntry(batch: MemoryEntry[], text: string, method: 'llm' | 'extractive', now: number) {
    const kind = batch[0]!.kind;
    const users = new Set(batch.map((e) => e.userId));
    const tags = [...new Set(batch.flatMap((e) => e.tags))].slice(0, 20);
    const importance = Math.max(...batch.map((e) => effectiveImportance(e, now, this.#config)));
    return {
      content: { title: `Summary of ${batch.length} ${kind} memories`, text },
      kind: SUMMARY_KIND,
      importance,
      tags,
      ...(users.size === 1 && batch[0]!.userId !== undefined ? { userId: batch[0]!.userId } : {}),
      metadata: {
        sources: batch.map((e) => e.id),
        sourceCount: batch.length,
        sourceKind: kind,
        method,
        from: Math.min(...batch.map((e) => e.createdAt)),
        to: Math.max(...batch.map((e) => e.createdAt)),
      },
    };
  }
}
