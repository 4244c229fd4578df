import { systemClock, type Clock } from '../model/clock.js';
import { resolveConfig, type MemoryConfig } from '../model/config.js';
import type { EmbedOptions, Embedder } from '../model/embedder.js';
import { invalid, wrapError, ZerdaError } from '../model/errors.js';
import { checkId } from '../model/ids.js';
import { DEFAULT_RRF_K, reciprocalRankFusion, scoreFusion, type FusedItem } from '../retrieval/fusion.js';
import { LexicalIndex } from '../retrieval/lexical-index.js';
import { LruCache } from '../util/lru-cache.js';
import type { LexicalHit, MemoryFilter, StorageAdapter, VectorModel } from '../storage/storage.js';
import { STOPWORDS, tokenize } from '../retrieval/text.js';
import {
  isStrong,
  queryCoverage,
  relatedReason,
  relevanceFloors,
  type RecallReason,
  type RelevanceEvidence,
} from '../retrieval/relevance.js';
import { questionSlots } from '../formation/question-slots.js';
import { parseTimeRanges, type TimeRange } from '../language/time-expressions.js';
import type { Scored } from '../retrieval/top-k.js';
import { entryText, type MemoryEntry } from '../model/types.js';
import { VectorIndex } from '../retrieval/vector-index.js';

/** Which signals a search uses. */
export type RecallMode = 'hybrid' | 'lexical' | 'vector';

/** How lexical and vector lists are combined (see `reciprocalRankFusion` and `scoreFusion`). */
export type FusionMethod = 'rrf' | 'score';

/** Weights of the lexical and vector lists in reciprocal-rank fusion. */
export interface FusionWeights {
  lexical: number;
  vector: number;
}

/**
 * Default fusion weights: lexical is favoured. Measured on LoCoMo (1,536 questions of categories 1-4,
 * one memory per turn, recall of the evidence turns) with the bundled use-lite model, BM25 alone gives
 * R@10 59.9 / R@5 53.6 / P@1 35.0 and cosine alone 37.7 / 27.0 / 10.4; equal-weight RRF drops to
 * R@10 56.1, while score fusion with vector weight 0.3 reaches 62.8 / 54.8 / 35.5 (0.2: 62.4, 0.5: 62.7).
 * With the hashing embedder the same setting stays within 1 point of BM25 (59.2 vs 59.9).
 * When memories carry context (`metadata.context`, embedded with the text) the vector signal gets
 * stronger and 0.5 is best: hybrid R@10 70.8 at 0.3, 71.6 at 0.5, 71.7 at 0.7 (tuning half:
 * 72.1 / 73.0 / 73.3), so the default is 0.5, which costs nothing without context.
 */
export const DEFAULT_FUSION_WEIGHTS: Readonly<FusionWeights> = Object.freeze({ lexical: 1, vector: 0.5 });

/**
 * Default fusion method: `'score'`. RRF throws away how far apart scores are, so a weak vector
 * model's near-ties reorder BM25's confident ranking (see {@link DEFAULT_FUSION_WEIGHTS}).
 */
export const DEFAULT_FUSION_METHOD: FusionMethod = 'score';

/**
 * Default share of the top score a hit must reach to be kept ({@link SemanticSearchOptions.ratio}).
 * On LoCoMo with use-lite and topK 10: ratio 0 → R@10 62.8 with 10 hits; 0.3 → 62.6 with 9.3;
 * 0.5 → 59.1 with 6.8 hits and twice the precision; 0.7 → 49.5 with 3.7. 0.5 trades a little recall
 * for a context with a third fewer, mostly irrelevant, memories.
 */
export const DEFAULT_THRESHOLD_RATIO = 0.5;

/**
 * The metadata key whose string value is indexed as a memory's context: text that is not the
 * memory itself but helps find it — the neighbouring turns of a conversation, the title of the
 * document a passage came from, the session it belongs to. Context is embedded together with the
 * entry's text (after it, so truncation cuts context first) and indexed lexically on its own, at
 * {@link DEFAULT_CONTEXT_WEIGHT} of the entry's own BM25 score.
 */
export const CONTEXT_KEY = 'context';

/**
 * Default weight of a match in a memory's context relative to a match in its own text
 * ({@link SemanticSearchOptions.contextWeight}). Measured on LoCoMo (1,536 questions of categories
 * 1-4, each turn stored with its previous and next turn as context, use-lite, vector weight 0.5):
 * hybrid R@10 67.9 at weight 0 (context only embedded), 70.5 at 0.3, 71.6 at 0.5, 70.0 at 1 (where
 * a chatty neighbour starts to outrank the turn itself).
 */
export const DEFAULT_CONTEXT_WEIGHT = 0.5;

/**
 * Default boost of memories created inside a time span the query names ("in June", "on 8 May
 * 2023", "last week"; see `parseTimeRanges`): their fused score is multiplied by `1 + boost`
 * (then all scores are rescaled into 0..1). A boost, not a filter: a query's date is often
 * approximate, and memories outside it still compete. On LoCoMo (211 of 1,540 questions name a
 * date; with context and vector weight 0.5), hybrid R@10: 70.1 without, 70.8 at 0.2, 71.6 at 0.5,
 * 72.0 at 1.
 */
export const DEFAULT_TIME_BOOST = 1;

/**
 * Default boost of memories naming what the query names ({@link SemanticSearchOptions.entityBoost}).
 * Chosen on LoCoMo's development half (its first five conversations; hybrid R@10 72.9 without,
 * 74.6 at 0.5, 74.3 at 1, 74.4 at 0.3) and kept because the other half gains as much (70.2 →
 * 72.4). Questions about a person as a whole ("What are X's hobbies?") are where it helps: their
 * evidence shares no word with the question except the name, which half the turns carry.
 */
export const DEFAULT_ENTITY_BOOST = 0.5;

/**
 * The text embedded for an entry: its text, then its context (`metadata.context`) when that is a
 * non-empty string.
 */
export function indexedText(entry: Pick<MemoryEntry, 'content' | 'metadata'>): string {
  const text = entryText(entry);
  const context = contextOf(entry);
  return context ? `${text}\n${context}` : text;
}

function contextOf(entry: Pick<MemoryEntry, 'metadata'>): string | undefined {
  const c = entry.metadata?.[CONTEXT_KEY];
  return typeof c === 'string' && c.trim().length > 0 ? c : undefined;
}

/** Options of {@link SemanticMemory.search}. */
export interface SemanticSearchOptions {
  /** Most hits returned. Default `config.retrievalLimit`. */
  topK?: number;
  /**
   * Absolute floor on the fused 0..1 score. When given (0 included), it replaces the relevance
   * gate: `{ ratio: 0, minScore: 0 }` ranks and cuts nothing. When omitted, the relevance gate
   * applies: a hit is kept only when its cosine similarity to the query reaches the similarity
   * floor, or it matches the query's words and reaches the lower keyword floor (see
   * `CALIBRATED_FLOORS`, `minSimilarity`), so an unrelated question recalls nothing.
   */
  minScore?: number;
  /**
   * Similarity floor of the relevance gate for this search (the keyword floor is half of it).
   * Default `config.minSimilarity`, else the floors calibrated for the embedder's model.
   */
  minSimilarity?: number;
  /**
   * Adaptive threshold: keep hits with score >= `max(minScore, top × ratio)`. When none passes,
   * the best hit is returned alone (`reason: 'fallback'`) if it passed the relevance gate.
   * Default 0.5.
   */
  ratio?: number;
  /** Default 'hybrid'. */
  mode?: RecallMode;
  /** Only entries matching this filter are ranked (applied before ranking, not after). */
  filter?: Omit<MemoryFilter, 'tenantId'>;
  /** Fusion weights (hybrid mode). Default {@link DEFAULT_FUSION_WEIGHTS}. */
  weights?: Partial<FusionWeights>;
  /**
   * How the lists are combined: `'score'` (default), a weighted mean of max-normalised scores, or
   * `'rrf'`, weighted reciprocal-rank fusion (normalised so 1 = first in every list used).
   */
  fusion?: FusionMethod;
  /** RRF damping constant (`fusion: 'rrf'` only). Default 60. */
  rrfK?: number;
  /** Candidates taken from each list before fusion. Default `max(50, 5 × topK)`. */
  candidates?: number;
  /**
   * Weight of a BM25 match in a memory's context (`metadata.context`) relative to one in its own
   * text; 0 ignores context in lexical ranking. Default {@link DEFAULT_CONTEXT_WEIGHT}.
   */
  contextWeight?: number;
  /**
   * Boost of memories created within a time span the query names; 0 disables it. Default
   * {@link DEFAULT_TIME_BOOST}.
   */
  timeBoost?: number;
  /** Reference time (epoch ms) for relative expressions such as "last week". Default: the clock. */
  now?: number;
  /**
   * Boost of memories that name someone or something the query names (a capitalised word that
   * does not start a sentence, such as a person's or a place's name): the others' fused score is
   * divided by `1 + entityBoost` (then scores are rescaled to 0..1); 0 disables it. Default
   * {@link DEFAULT_ENTITY_BOOST}.
   */
  entityBoost?: number;
}

/** One recalled memory with the evidence behind its rank (for UIs and debugging). */
export interface RecallHit {
  entry: MemoryEntry;
  /** Fused score in 0..1; 1 = ranked first by every signal used. */
  score: number;
  /** BM25 score, when the lexical list found it. */
  lexicalScore?: number;
  /** Cosine similarity, when the vector list found it. */
  vectorScore?: number;
  /** 1-based rank in the lexical list. */
  lexicalRank?: number;
  /** 1-based rank in the vector list. */
  vectorRank?: number;
  /** Cosine similarity of the memory's vector to the query, when the relevance gate computed it. */
  similarity?: number;
  /** Why the hit passed (see {@link RecallReason}); set by every semantic search. */
  reason?: RecallReason;
}

/** Options of {@link SemanticMemory.reindex}. */
export interface ReindexOptions extends EmbedOptions {
  /** Texts embedded per call. Default 64. */
  batchSize?: number;
  /** Re-embed every entry, not only those missing a vector for the current model. */
  force?: boolean;
}

/** What {@link SemanticMemory.reindex} did. */
export interface ReindexReport {
  /** Entries of the tenant. */
  total: number;
  /** Entries embedded now. */
  embedded: number;
  /** Index rows dropped because their entry no longer exists. */
  removed: number;
}

/** Constructor options of {@link SemanticMemory}. */
export interface SemanticMemoryOptions {
  storage: StorageAdapter;
  embedder: Embedder;
  /** A full or partial configuration (validated with `resolveConfig`). */
  config?: Partial<MemoryConfig>;
  /** Resolves relative time expressions in queries ("yesterday"). Default `Date.now`. */
  clock?: Clock;
}

interface TenantIndex {
  modelId: string;
  dim: number;
  index: VectorIndex;
  /** BM25 over the entries' `metadata.context` (only entries that have one). */
  context: LexicalIndex;
}

/**
 * How many of the best-ranked candidates the relevance gate looks at for a strong one (see
 * `RelevanceFloors`): a fixed window, so the answer does not depend on `topK`.
 */
const STRONG_WINDOW = 10;

const MODES: readonly RecallMode[] = ['hybrid', 'lexical', 'vector'];
const PAGE = 1000;

/**
 * Hybrid recall over a tenant's memories: BM25 (from the storage adapter) and cosine similarity
 * (an in-memory {@link VectorIndex} per tenant, hydrated lazily from stored vectors of the
 * embedder's model) fused (weighted score fusion by default, or weighted reciprocal-rank fusion)
 * into a 0..1 score and cut by an adaptive threshold. Vectors of another model id or dimension are never loaded or compared.
 *
 * Entries themselves are stored by the caller (`LongTermMemory`); this class stores their vectors.
 */
export class SemanticMemory {
  readonly #storage: StorageAdapter;
  readonly #embedder: Embedder;
  readonly #config: MemoryConfig;
  readonly #clock: Clock;
  readonly #cache: LruCache<string, Float32Array>;
  readonly #indexes = new Map<string, Promise<TenantIndex>>();

  constructor(options: SemanticMemoryOptions) {
    if (typeof options !== 'object' || options === null)
      invalid('options', 'an object with storage and embedder', options);
    const { storage, embedder, config, clock = systemClock } = options;
    if (typeof clock !== 'function') invalid('clock', 'a function returning epoch milliseconds', clock);
    if (typeof storage?.lexicalSearch !== 'function') invalid('storage', 'a StorageAdapter', storage);
    if (typeof embedder?.embed !== 'function') invalid('embedder', 'an Embedder', embedder);
    this.#storage = storage;
    this.#embedder = embedder;
    this.#config = resolveConfig(config ?? {});
    this.#clock = clock;
    this.#cache = new LruCache(this.#config.embeddingCacheSize);
  }

  /** The embedding model vectors are kept for (known after the embedder is ready). */
  get model(): VectorModel {
    return { id: this.#embedder.modelId, dim: this.#embedder.dim };
  }

  /**
   * Embed the entries' text, store the vectors (`putVectors`) and update loaded indexes. Call it
   * after the entries themselves are stored (a search treats a vector without an entry as stale).
   * Resolves once the vectors are stored; failures reject (nothing is swallowed).
   */
  async add(entries: MemoryEntry[], options: EmbedOptions = {}): Promise<void> {
    if (!Array.isArray(entries)) invalid('entries', 'an array of entries', entries);
    entries.forEach((e, i) => {
      if (typeof e !== 'object' || e === null) invalid(`entries[${i}]`, 'an entry', e);
      checkId(`entries[${i}].tenantId`, e.tenantId);
      checkId(`entries[${i}].id`, e.id);
    });
    if (entries.length === 0) return;
    const model = await this.#readyModel();
    const vectors = await this.#embed(entries.map(indexedText), model, options);
    const byTenant = new Map<string, { id: string; vector: Float32Array; context: string | undefined }[]>();
    entries.forEach((e, i) => {
      let list = byTenant.get(e.tenantId);
      if (!list) byTenant.set(e.tenantId, (list = []));
      list.push({ id: e.id, vector: vectors[i]!, context: contextOf(e) });
    });
    for (const [tenantId, records] of byTenant) {
      await this.#storage.putVectors(
        tenantId,
        model,
        records.map(({ id, vector }) => ({ id, vector })),
      );
      const loaded = this.#indexes.get(tenantId);
      if (!loaded) continue;
      const t = await loaded;
      if (t.modelId !== model.id || t.dim !== model.dim) continue;
      for (const r of records) {
        t.index.upsert(r.id, r.vector);
        setContext(t.context, r.id, r.context);
      }
    }
  }

  /**
   * Drop `ids` from the tenant's loaded index. Stored vectors go with their entries
   * (`storage.delete`), so call this after deleting the entries.
   */
  async remove(tenantId: string, ids: string[]): Promise<void> {
    checkId('tenantId', tenantId);
    if (!Array.isArray(ids)) invalid('ids', 'an array of ids', ids);
    const loaded = this.#indexes.get(tenantId);
    if (!loaded) return;
    const t = await loaded;
    for (const id of ids) {
      t.index.remove(id);
      t.context.remove(id);
    }
  }

  /** Forget the loaded index of `tenantId` (or of every tenant); it reloads from storage on next use. */
  unload(tenantId?: string): void {
    if (tenantId === undefined) this.#indexes.clear();
    else this.#indexes.delete(tenantId);
  }

  /** Number of vectors in the tenant's index for the current model (loads it). */
  async vectorCount(tenantId: string): Promise<number> {
    checkId('tenantId', tenantId);
    return (await this.#tenant(tenantId)).index.size;
  }

  /**
   * Recall the memories most relevant to `query`, best first. Filters restrict the candidates
   * before ranking. Returns `[]` for a blank query or when nothing matches at all; otherwise at
   * least the best hit (top-1 fallback when none passes the threshold).
   */
  async search(tenantId: string, query: string, options: SemanticSearchOptions = {}): Promise<RecallHit[]> {
    checkId('tenantId', tenantId);
    if (typeof query !== 'string') invalid('query', 'a string', query);
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    const o = this.#searchOptions(options);
    if (query.trim().length === 0) return [];

    const hasFilter = o.filter !== undefined && Object.keys(o.filter).length > 0;
    let allowed: Map<string, MemoryEntry> | undefined;
    if (hasFilter) {
      const matching = await this.#storage.query({ ...o.filter, tenantId });
      allowed = new Map(matching.map((e) => [e.id, e]));
      if (allowed.size === 0) return [];
    }

    const useLexical = o.mode !== 'vector' && (o.mode === 'lexical' || o.weights.lexical > 0);
    const useVector = o.mode !== 'lexical' && (o.mode === 'vector' || o.weights.vector > 0);
    const [lexical, vector] = await Promise.all([
      useLexical
        ? this.#lexical(tenantId, query, o.candidates, hasFilter ? o.filter : undefined, allowed, o.contextWeight)
        : [],
      useVector ? this.#vector(tenantId, query, o.candidates, allowed) : [],
    ]);

    const weights =
      o.mode === 'hybrid' ? [o.weights.lexical, o.weights.vector] : o.mode === 'lexical' ? [1, 0] : [0, 1];
    let scored: FusedItem[];
    if (o.fusion === 'score') {
      scored = scoreFusion([lexical, vector], { weights }).filter((f) => f.score > 0);
    } else {
      const fused = reciprocalRankFusion([lexical, vector], { k: o.rrfK, weights }).filter((f) => f.score > 0);
      // Normalise by what the lists that found anything could give, so a tenant without vectors
      // yet (or a query without lexical matches) still scores its best hit near 1.
      const max = ((lexical.length > 0 ? weights[0]! : 0) + (vector.length > 0 ? weights[1]! : 0)) / (o.rrfK + 1);
      scored = fused.map((f) => ({ ...f, score: Math.min(1, f.score / max) }));
    }
    if (scored.length === 0) return [];
    let fetched: Map<string, MemoryEntry> | undefined = allowed;
    const ranges = o.timeBoost > 0 ? parseTimeRanges(query, o.now ?? this.#clock()) : [];
    if (ranges.length > 0) {
      fetched ??= new Map(
        (
          await this.#storage.getMany(
            tenantId,
            scored.map((f) => f.id),
          )
        ).map((e) => [e.id, e]),
      );
      scored = favour(scored, createdIn(ranges, fetched), o.timeBoost);
    }
    const names = o.entityBoost > 0 ? queryNames(query) : [];
    if (names.length > 0) {
      // Within the first 2 × topK + 10 of the fused list: a memory further down would need more
      // than the boost to reach topK often enough to matter, and reading every candidate of both
      // lists would cost more than the ranking itself.
      scored = scored.slice(0, Math.min(o.candidates, 2 * o.topK + 10));
      fetched ??= await this.#fetch(tenantId, scored);
      scored = favour(scored, namesAny(scored, names, fetched), o.entityBoost);
    }
    // The relevance gate (absolute, model-calibrated), then the fused-score cut (relative).
    const reasons = new Map<string, RecallReason>();
    const similarities = new Map<string, number>();
    if (o.minScore === undefined) {
      const floors = relevanceFloors(this.#embedder.modelId, o.minSimilarity ?? this.#config.minSimilarity);
      // Evidence is read lazily, best first: the strong window, then hits until topK (plus the
      // margin fetched below) have passed.
      const wanted = o.topK + Math.min(10, o.topK);
      const head = scored.slice(0, Math.max(STRONG_WINDOW, wanted));
      const sims = await this.#similarities(
        tenantId,
        query,
        head.map((f) => f.id),
        vector,
      );
      let have = fetched ?? (await this.#fetch(tenantId, head));
      const cover = queryCoverage(query);
      const slots = questionSlots(query);
      const evidenceOf = async (id: string): Promise<RelevanceEvidence> => {
        if (!sims.has(id)) for (const [k, v] of await this.#similarities(tenantId, query, [id], vector)) sims.set(k, v);
        if (!have.has(id)) have = new Map([...have, ...(await this.#fetch(tenantId, [{ id }]))]);
        const entry = have.get(id);
        if (!entry) return { similarity: sims.get(id), coverage: 0, words: 0 };
        const slotCoverage = slots(entry);
        return {
          similarity: sims.get(id),
          ...cover(entryText(entry)),
          ...(slotCoverage !== undefined ? { slotCoverage } : {}),
        };
      };
      // Nothing when no candidate shows that the store answers the query at all.
      let answered = false;
      const size = (await this.#tenant(tenantId)).index.size;
      for (const f of scored.slice(0, STRONG_WINDOW))
        if ((answered = isStrong(floors, await evidenceOf(f.id), size))) break;
      if (!answered) return [];
      const passed: typeof scored = [];
      for (const f of scored) {
        if (passed.length >= wanted) break;
        const e = await evidenceOf(f.id);
        if (e.similarity !== undefined) similarities.set(f.id, e.similarity);
        const why = relatedReason(floors, e);
        if (!why) continue;
        reasons.set(f.id, why);
        passed.push(f);
      }
      scored = passed;
      fetched = have;
      if (scored.length === 0) return [];
    }
    const cut = Math.max(o.minScore ?? 0, scored[0]!.score * o.ratio);
    let kept = scored.filter((f) => f.score >= cut);
    if (kept.length === 0) {
      kept = [scored[0]!];
      reasons.set(scored[0]!.id, 'fallback');
    }

    // Fetch a little more than topK: rows of entries deleted behind our back are skipped.
    const wanted = kept.slice(0, o.topK + Math.min(10, o.topK));
    const entries = fetched
      ? wanted.map((f) => fetched.get(f.id)).filter((e): e is MemoryEntry => e !== undefined)
      : await this.#storage.getMany(
          tenantId,
          wanted.map((f) => f.id),
        );
    const byId = new Map(entries.map((e) => [e.id, e]));
    const lexScore = new Map(lexical.map((h) => [h.id, h.score]));
    const vecScore = new Map(vector.map((h) => [h.id, h.score]));
    const hits: RecallHit[] = [];
    for (const f of wanted) {
      const entry = byId.get(f.id);
      if (!entry) {
        // Deleted in storage without `remove()`: drop the row so it stops taking result slots.
        await this.#dropStale(tenantId, f.id);
        continue;
      }
      const hit: RecallHit = { entry, score: f.score, reason: reasons.get(f.id) ?? 'ranked' };
      const similarity = similarities.get(f.id);
      if (similarity !== undefined) hit.similarity = similarity;
      if (f.ranks[0] !== undefined) {
        hit.lexicalRank = f.ranks[0];
        hit.lexicalScore = lexScore.get(f.id)!;
      }
      if (f.ranks[1] !== undefined) {
        hit.vectorRank = f.ranks[1];
        hit.vectorScore = vecScore.get(f.id)!;
      }
      hits.push(hit);
      if (hits.length === o.topK) break;
    }
    return hits;
  }

  /**
   * Embed every entry of the tenant that has no vector for the current model (all of them with
   * `force`), store the vectors and update the index; drop index rows of deleted entries. Use it
   * after a model change or an import. Rejects with `ABORTED` when `signal` fires (vectors stored
   * so far are kept).
   */
  async reindex(tenantId: string, options: ReindexOptions = {}): Promise<ReindexReport> {
    checkId('tenantId', tenantId);
    const { batchSize = 64, force = false, signal, onProgress } = options;
    if (!Number.isInteger(batchSize) || batchSize < 1) invalid('batchSize', 'an integer >= 1', batchSize);
    checkAborted(signal);
    const model = await this.#readyModel();
    const t = await this.#tenant(tenantId);

    const live = new Set<string>();
    const todo: MemoryEntry[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#storage.query({ tenantId, orderBy: 'createdAt', order: 'asc', limit: PAGE, offset });
      for (const e of page) {
        live.add(e.id);
        setContext(t.context, e.id, contextOf(e));
        if (force || !t.index.has(e.id)) todo.push(e);
      }
      if (page.length < PAGE) break;
    }
    let removed = 0;
    for (const id of t.index.ids()) {
      if (!live.has(id)) {
        t.index.remove(id);
        t.context.remove(id);
        removed++;
      }
    }
    let embedded = 0;
    onProgress?.(0, todo.length);
    for (let i = 0; i < todo.length; i += batchSize) {
      checkAborted(signal);
      const batch = todo.slice(i, i + batchSize);
      const vectors = await this.#embed(batch.map(indexedText), model, signal ? { signal } : {});
      const records = batch.map((e, j) => ({ id: e.id, vector: vectors[j]! }));
      await this.#storage.putVectors(tenantId, model, records);
      for (const r of records) t.index.upsert(r.id, r.vector);
      embedded += batch.length;
      onProgress?.(embedded, todo.length);
    }
    return { total: live.size, embedded, removed };
  }

  /** The query vector for `text`, from an LRU cache of `config.embeddingCacheSize` (a copy). */
  async embedQuery(text: string): Promise<Float32Array> {
    if (typeof text !== 'string') invalid('text', 'a string', text);
    const model = await this.#readyModel();
    const key = `${model.id}\u0000${text}`;
    let vec = this.#cache.get(key);
    if (!vec) {
      vec = (await this.#embed([text], model, {}))[0]!;
      this.#cache.set(key, vec);
    }
    return vec.slice();
  }

  async #lexical(
    tenantId: string,
    query: string,
    limit: number,
    filter: Omit<MemoryFilter, 'tenantId'> | undefined,
    allowed: Map<string, MemoryEntry> | undefined,
    contextWeight: number,
  ): Promise<LexicalHit[]> {
    // Adapters tokenise their own way and not all drop stopwords (e.g. a plain FTS tokenizer): send only
    // the words that carry meaning, unless that leaves nothing.
    const terms = tokenize(query).filter((t) => !STOPWORDS.has(t));
    const text = terms.length > 0 ? terms.join(' ') : query;
    const own = await this.#storage.lexicalSearch({ tenantId, query: text, limit, ...(filter ? { filter } : {}) });
    const hits = allowed ? own.filter((h) => allowed.has(h.id)) : own;
    if (contextWeight === 0) return hits;
    const t = await this.#tenant(tenantId);
    if (t.context.size === 0) return hits;
    const ctx = t.context.search(query, limit, allowed ? (id) => allowed.has(id) : undefined);
    if (ctx.length === 0) return hits;
    const scores = new Map(hits.map((h) => [h.id, h.score]));
    for (const h of ctx) scores.set(h.id, (scores.get(h.id) ?? 0) + contextWeight * h.score);
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  }

  async #vector(
    tenantId: string,
    query: string,
    limit: number,
    allowed: Map<string, MemoryEntry> | undefined,
  ): Promise<Scored[]> {
    const q = await this.embedQuery(query);
    if (!q.some((x) => x !== 0)) return [];
    const t = await this.#tenant(tenantId);
    if (t.index.size === 0) return [];
    const hits = t.index.search(q, limit, allowed ? (id) => allowed.has(id) : undefined);
    // Non-positive cosine is no evidence of relevance; keeping it would let noise into the fusion.
    return hits.filter((h) => h.score > 0);
  }

  /** The entries of `items` by id (entries deleted meanwhile are absent). */
  async #fetch(tenantId: string, items: readonly { id: string }[]): Promise<Map<string, MemoryEntry>> {
    return new Map(
      (
        await this.#storage.getMany(
          tenantId,
          items.map((f) => f.id),
        )
      ).map((e) => [e.id, e]),
    );
  }

  /**
   * Cosine similarity to the query of each id that has a vector (from the vector list when it
   * ranked the id, else computed from the index).
   */
  async #similarities(
    tenantId: string,
    query: string,
    ids: readonly string[],
    vector: readonly Scored[],
  ): Promise<Map<string, number>> {
    const out = new Map(vector.map((h) => [h.id, h.score]));
    const missing = ids.filter((id) => !out.has(id));
    if (missing.length === 0) return out;
    const t = await this.#tenant(tenantId);
    if (t.index.size === 0) return out;
    const q = await this.embedQuery(query);
    let norm = 0;
    for (let d = 0; d < q.length; d++) norm += q[d]! * q[d]!;
    if (!(norm > 0)) return out;
    norm = Math.sqrt(norm);
    for (const id of missing) {
      const v = t.index.get(id);
      if (!v) continue;
      let dot = 0;
      for (let d = 0; d < v.length; d++) dot += v[d]! * q[d]!;
      out.set(id, dot / norm);
    }
    return out;
  }

  #tenant(tenantId: string): Promise<TenantIndex> {
    const existing = this.#indexes.get(tenantId);
    if (existing) {
      return existing.then((t) => {
        if (t.modelId === this.#embedder.modelId && t.dim === this.#embedder.dim) return t;
        // The embedder now reports another model: the loaded vectors are of the wrong space.
        if (this.#indexes.get(tenantId) === existing) this.#indexes.delete(tenantId);
        return this.#tenant(tenantId);
      });
    }
    const loading = this.#load(tenantId);
    this.#indexes.set(tenantId, loading);
    // A failed load must not stay cached: the next call retries.
    loading.catch(() => {
      if (this.#indexes.get(tenantId) === loading) this.#indexes.delete(tenantId);
    });
    return loading;
  }

  async #load(tenantId: string): Promise<TenantIndex> {
    const model = await this.#readyModel();
    const [block, context] = await Promise.all([
      this.#storage.loadVectors(tenantId, model.id),
      this.#loadContext(tenantId),
    ]);
    const usable = block !== undefined && block.model.id === model.id && block.model.dim === model.dim;
    const index = usable ? VectorIndex.fromBlock(block) : new VectorIndex(model.dim);
    return { modelId: model.id, dim: model.dim, index, context };
  }

  /**
   * The context index of a tenant, from its stored entries. One pass over the tenant when it is
   * first searched (about 0.1 s at 10k in-memory entries, 1.5 s at 100k); later changes arrive
   * through `add` and `remove`.
   */
  async #loadContext(tenantId: string): Promise<LexicalIndex> {
    const context = new LexicalIndex();
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.#storage.query({ tenantId, orderBy: 'createdAt', order: 'asc', limit: PAGE, offset });
      for (const e of page) setContext(context, e.id, contextOf(e));
      if (page.length < PAGE) break;
    }
    return context;
  }

  async #dropStale(tenantId: string, id: string): Promise<void> {
    const loaded = this.#indexes.get(tenantId);
    if (!loaded) return;
    const t = await loaded;
    t.index.remove(id);
    t.context.remove(id);
  }

  async #readyModel(): Promise<VectorModel> {
    try {
      await this.#embedder.ready();
    } catch (err) {
      throw wrapError('EMBEDDING', 'Embedder failed to load', err);
    }
    const model = { id: this.#embedder.modelId, dim: this.#embedder.dim };
    if (typeof model.id !== 'string' || model.id.length === 0 || !Number.isInteger(model.dim) || model.dim < 1)
      throw new ZerdaError(
        'EMBEDDING',
        `Embedder reports an unusable model (${String(model.id)}, dim ${String(model.dim)})`,
      );
    return model;
  }

  async #embed(texts: string[], model: VectorModel, options: EmbedOptions): Promise<Float32Array[]> {
    let vectors: Float32Array[];
    try {
      vectors = await this.#embedder.embed(texts, options);
    } catch (err) {
      throw wrapError('EMBEDDING', 'Embedding failed', err);
    }
    if (!Array.isArray(vectors) || vectors.length !== texts.length)
      throw new ZerdaError('EMBEDDING', `Embedder returned ${vectors?.length} vectors for ${texts.length} texts`);
    for (const v of vectors) {
      if (!(v instanceof Float32Array) || v.length !== model.dim)
        throw new ZerdaError('EMBEDDING', `Embedder returned a vector of length ${v?.length}, expected ${model.dim}`);
    }
    return vectors;
  }

  #searchOptions(options: SemanticSearchOptions) {
    const {
      topK = this.#config.retrievalLimit,
      minScore,
      minSimilarity,
      ratio = DEFAULT_THRESHOLD_RATIO,
      mode = 'hybrid',
      filter,
      rrfK = DEFAULT_RRF_K,
      fusion = DEFAULT_FUSION_METHOD,
      contextWeight = DEFAULT_CONTEXT_WEIGHT,
      timeBoost = DEFAULT_TIME_BOOST,
      entityBoost = DEFAULT_ENTITY_BOOST,
      now,
    } = options;
    if (fusion !== 'rrf' && fusion !== 'score') invalid('fusion', "'rrf' | 'score'", fusion);
    if (!Number.isInteger(topK) || topK < 1) invalid('topK', 'an integer >= 1', topK);
    if (minScore !== undefined && (typeof minScore !== 'number' || !(minScore >= 0 && minScore <= 1)))
      invalid('minScore', 'a number in [0, 1]', minScore);
    if (
      minSimilarity !== undefined &&
      (typeof minSimilarity !== 'number' || !(minSimilarity >= 0 && minSimilarity <= 1))
    )
      invalid('minSimilarity', 'a number in [0, 1]', minSimilarity);
    if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) invalid('ratio', 'a number in [0, 1]', ratio);
    if (!MODES.includes(mode)) invalid('mode', "'hybrid' | 'lexical' | 'vector'", mode);
    if (typeof rrfK !== 'number' || !Number.isFinite(rrfK) || rrfK < 0) invalid('rrfK', 'a finite number >= 0', rrfK);
    if (filter !== undefined && (typeof filter !== 'object' || filter === null || Array.isArray(filter)))
      invalid('filter', 'an object', filter);
    if (filter && 'tenantId' in filter)
      invalid('filter.tenantId', 'no tenantId (pass it as the first argument)', 'present');
    const weights = { ...DEFAULT_FUSION_WEIGHTS, ...(options.weights ?? {}) };
    for (const k of ['lexical', 'vector'] as const) {
      const w = weights[k];
      if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) invalid(`weights.${k}`, 'a finite number >= 0', w);
    }
    if (mode === 'hybrid' && weights.lexical === 0 && weights.vector === 0)
      invalid('weights', 'at least one weight > 0', weights);
    const candidates = options.candidates ?? defaultCandidates(topK);
    if (!Number.isInteger(candidates) || candidates < topK)
      invalid('candidates', `an integer >= topK (${topK})`, candidates);
    if (typeof contextWeight !== 'number' || !Number.isFinite(contextWeight) || contextWeight < 0)
      invalid('contextWeight', 'a finite number >= 0', contextWeight);
    if (typeof timeBoost !== 'number' || !Number.isFinite(timeBoost) || timeBoost < 0)
      invalid('timeBoost', 'a finite number >= 0', timeBoost);
    if (typeof entityBoost !== 'number' || !Number.isFinite(entityBoost) || entityBoost < 0)
      invalid('entityBoost', 'a finite number >= 0', entityBoost);
    if (now !== undefined && (typeof now !== 'number' || !Number.isFinite(now)))
      invalid('now', 'epoch milliseconds', now);
    return {
      topK,
      minScore,
      minSimilarity,
      ratio,
      mode,
      filter,
      rrfK,
      fusion,
      weights,
      candidates,
      contextWeight,
      timeBoost,
      entityBoost,
      now,
    };
  }
}

function setContext(index: LexicalIndex, id: string, context: string | undefined): void {
  if (context === undefined) index.remove(id);
  else index.add(id, context);
}

/**
 * Favour the items `passes` accepts: when at least one does, divide the score of the others by
 * `1 + boost` and re-sort (score descending, ties by id), so scores stay in 0..1 (the best possible,
 * first everywhere and accepted, is 1); when none does, the ranking stays as it is.
 */
function favour<T extends { id: string; score: number }>(
  items: readonly T[],
  passes: (id: string) => boolean,
  boost: number,
): T[] {
  if (!items.some((f) => passes(f.id))) return [...items];
  return items
    .map((f) => ({ ...f, score: passes(f.id) ? f.score : f.score / (1 + boost) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Whether an entry of `entries` was created inside one of `ranges`. */
function createdIn(ranges: readonly TimeRange[], entries: ReadonlyMap<string, MemoryEntry>): (id: string) => boolean {
  return (id) => {
    const at = entries.get(id)?.createdAt;
    return at !== undefined && ranges.some((r) => at >= r.from && at <= r.to);
  };
}

/**
 * The names a query mentions: capitalised words (any script with case) that do not start a
 * sentence and are not stopwords, analysed like the lexical index's terms (lowercased, folded).
 */
export function queryNames(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.matchAll(/(^|[.?!]\s+|\s)(\p{Lu}[\p{L}\p{M}\p{N}]+)/gu)) {
    if (m[1] === '' || /[.?!]/.test(m[1]!)) continue; // sentence start: capitalised anyway
    for (const t of tokenize(m[2]!)) if (!STOPWORDS.has(t)) out.add(t);
  }
  return [...out];
}

/** Which of `items` have an entry in `entries` that names one of `names` (as a word, analysed like the names). */
function namesAny(
  items: readonly { id: string }[],
  names: readonly string[],
  entries: ReadonlyMap<string, MemoryEntry>,
): (id: string) => boolean {
  const ascii = names.every((n) => /^[a-z0-9]+$/.test(n));
  const named = new Set<string>();
  for (const f of items) {
    const e = entries.get(f.id);
    if (!e) continue;
    const text = entryText(e);
    // Tokenising is the exact test; a substring check first skips most texts cheaply.
    if (ascii && !names.some((n) => text.toLowerCase().includes(n))) continue;
    const words = new Set(tokenize(text));
    if (names.some((n) => words.has(n))) named.add(f.id);
  }
  return (id) => named.has(id);
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ZerdaError('ABORTED', 'Operation was aborted', { cause: signal.reason });
}

/** Default {@link SemanticSearchOptions.candidates} for `topK`: how many each signal ranks before fusion. */
export function defaultCandidates(topK: number): number {
  return Math.max(50, 5 * topK);
}
