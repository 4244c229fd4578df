import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EmbedOptions, Embedder } from '@zerda/core';

/**
 * An {@link Embedder} that remembers every vector it has produced in a file, keyed by the SHA-1
 * of the text, and only sends texts it has never seen to the wrapped embedder. Reruns of the
 * evaluation then skip the model entirely. The wrapped embedder is created lazily, so a fully
 * cached run never loads a model. The cache is specific to one `modelId` (part of the file name).
 */
export class CachedEmbedder implements Embedder {
  readonly modelId: string;
  #dim: number;
  readonly #file: string;
  readonly #create: () => Promise<Embedder>;
  #inner: Promise<Embedder> | null = null;
  readonly #vectors = new Map<string, Float32Array>();
  #dirty = false;
  /** Texts embedded by the model (cache misses) since creation. */
  misses = 0;
  /** Texts served from the cache since creation. */
  hits = 0;

  /**
   * @param modelId the embedding space (must be the wrapped embedder's `modelId`).
   * @param dim its dimension.
   * @param file cache file; loaded when present, written by {@link CachedEmbedder.save}.
   * @param create makes the real embedder on the first cache miss.
   */
  constructor(options: { modelId: string; dim: number; file: string; create: () => Promise<Embedder> }) {
    this.modelId = options.modelId;
    this.#dim = options.dim;
    this.#file = options.file;
    this.#create = options.create;
    this.#load();
  }

  /** Vector dimension. */
  get dim(): number {
    return this.#dim;
  }

  /** Number of cached vectors. */
  get size(): number {
    return this.#vectors.size;
  }

  /** Nothing to load up front: the model is loaded on the first cache miss. */
  async ready(): Promise<void> {}

  /** Vectors for `texts`, from the cache where possible. */
  async embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]> {
    const keys = texts.map(hashText);
    const missing: number[] = [];
    for (let i = 0; i < texts.length; i++) if (!this.#vectors.has(keys[i]!)) missing.push(i);
    this.hits += texts.length - missing.length;
    if (missing.length) {
      const unique = [...new Map(missing.map((i) => [keys[i]!, texts[i]!])).entries()];
      const inner = await this.#model();
      const vecs = await inner.embed(
        unique.map(([, t]) => t),
        options,
      );
      unique.forEach(([key], j) => this.#vectors.set(key, vecs[j]!));
      this.misses += unique.length;
      this.#dirty = true;
    }
    // Copies: callers (index writers) may keep or transfer what they get.
    return keys.map((k) => new Float32Array(this.#vectors.get(k)!));
  }

  /** Write the cache file when something new was embedded. */
  save(): void {
    if (!this.#dirty) return;
    const keys = [...this.#vectors.keys()];
    const data = new Float32Array(keys.length * this.#dim);
    keys.forEach((k, i) => data.set(this.#vectors.get(k)!, i * this.#dim));
    mkdirSync(dirname(this.#file), { recursive: true });
    writeFileSync(`${this.#file}.json`, JSON.stringify({ modelId: this.modelId, dim: this.#dim, keys }));
    writeFileSync(`${this.#file}.bin`, new Uint8Array(data.buffer));
    this.#dirty = false;
  }

  /** Close the wrapped embedder, if one was created. */
  async close(): Promise<void> {
    if (this.#inner) await (await this.#inner).close();
  }

  async #model(): Promise<Embedder> {
    if (!this.#inner) {
      this.#inner = this.#create().then(async (e) => {
        await e.ready();
        if (e.dim !== this.#dim) throw new Error(`Embedder ${e.modelId} has dim ${e.dim}, cache expects ${this.#dim}`);
        return e;
      });
    }
    return this.#inner;
  }

  #load(): void {
    if (!existsSync(`${this.#file}.json`) || !existsSync(`${this.#file}.bin`)) return;
    const meta = JSON.parse(readFileSync(`${this.#file}.json`, 'utf8')) as {
      modelId: string;
      dim: number;
      keys: string[];
    };
    if (meta.modelId !== this.modelId || meta.dim !== this.#dim) return;
    const bytes = readFileSync(`${this.#file}.bin`);
    const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    if (data.length !== meta.keys.length * meta.dim) return;
    meta.keys.forEach((k, i) => this.#vectors.set(k, data.subarray(i * meta.dim, (i + 1) * meta.dim)));
  }
}

function hashText(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}
