import type { EmbedOptions, Embedder } from '../model/embedder.js';
import { invalid, ZerdaError } from '../model/errors.js';
import { stem, STOPWORDS, tokenize } from './text.js';
import { checkEmbedArgs } from '../model/embed-checks.js';

/** Options of {@link HashEmbedder}. */
export interface HashEmbedderOptions {
  /** Vector dimension (an integer >= 8). Default 256. */
  dim?: number;
}

// Relative weights of the three feature families. Words carry the meaning; bigrams add word order;
// character 3-grams let morphological variants and typos ("colour"/"color") share features.
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.6;
const TRIGRAM_WEIGHT = 0.35;

/** FNV-1a (32-bit) over UTF-16 code units, finished with murmur3's fmix32 so low bits mix well. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A deterministic embedder without a model: signed feature hashing ("hashing trick") of word
 * unigrams (stopwords dropped, Porter-stemmed), word bigrams and character 3-grams, unit-normalised.
 * Texts sharing words or word pieces get a positive cosine; unrelated texts land near 0. It does
 * not know synonyms: it is for tests and for running without a model. `modelId` is `hash-<dim>`.
 */
export class HashEmbedder implements Embedder {
  /** `hash-<dim>`. */
  readonly modelId: string;
  /** Vector dimension. */
  readonly dim: number;
  #closed = false;

  constructor(options: HashEmbedderOptions = {}) {
    const { dim = 256 } = options;
    if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 8) invalid('dim', 'an integer >= 8', dim);
    this.dim = dim;
    this.modelId = `hash-${dim}`;
  }

  /** Always ready (no model to load). Rejects with `CLOSED` after {@link HashEmbedder.close}. */
  async ready(): Promise<void> {
    this.#assertOpen();
  }

  /** One unit vector per text, in input order; "" (or text without letters/digits) gives zeros. */
  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    this.#assertOpen();
    checkEmbedArgs(texts, options);
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (options.signal?.aborted)
        throw new ZerdaError('ABORTED', 'Embedding was aborted', { cause: options.signal.reason });
      out.push(this.embedOne(texts[i]!));
      options.onProgress?.(i + 1, texts.length);
    }
    return out;
  }

  /** Synchronous single-text embedding (same vector as {@link HashEmbedder.embed}). */
  embedOne(text: string): Float32Array {
    if (typeof text !== 'string') invalid('text', 'a string', text);
    const vec = new Float32Array(this.dim);
    const tokens = tokenize(text);
    if (tokens.length === 0) return vec;
    let content = tokens.filter((t) => !STOPWORDS.has(t));
    // A text made only of stopwords ("who are you") still deserves a direction of its own.
    if (content.length === 0) content = tokens;
    const words = content.map(stem);
    for (const w of words) this.#add(vec, 'w:' + w, UNIGRAM_WEIGHT);
    for (let i = 1; i < words.length; i++) this.#add(vec, 'b:' + words[i - 1] + ' ' + words[i], BIGRAM_WEIGHT);
    for (const token of content) {
      const padded = `<${token}>`;
      for (let i = 0; i + 3 <= padded.length; i++) this.#add(vec, 'c:' + padded.slice(i, i + 3), TRIGRAM_WEIGHT);
    }
    let norm = 0;
    for (let i = 0; i < vec.length; i++) norm += vec[i]! * vec[i]!;
    if (!(norm > 0) || !Number.isFinite(norm)) return vec.fill(0);
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < vec.length; i++) vec[i]! *= inv;
    return vec;
  }

  /** Further calls reject with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
  }

  #add(vec: Float32Array, feature: string, weight: number): void {
    const h = hash32(feature);
    // Bit 31 picks the sign, the rest the bucket: collisions then cancel on average instead of piling up.
    const sign = h & 0x80000000 ? -1 : 1;
    vec[(h & 0x7fffffff) % this.dim]! += sign * weight;
  }

  #assertOpen(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'HashEmbedder is closed');
  }
}
