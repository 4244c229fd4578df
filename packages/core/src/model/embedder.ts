/** Options for one embedding call. */
export interface EmbedOptions {
  /** Cancels the call; it then rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** Progress for long batches: `done` of `total` texts embedded. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * The embedding seam. Implementations: `HashEmbedder` (core, deterministic, no model),
 * `TransformersEmbedder` and the worker client from `@zerda/embeddings`. They are interchangeable.
 *
 * Rules every implementation keeps:
 * 1. `embed(texts)` resolves to one `Float32Array` of length `dim` per input, in input order.
 * 2. Vectors are unit-normalised (cosine = dot product); never NaN. Empty or whitespace-only text
 *    gives the zero vector.
 * 3. The same text gives the same vector for a given `modelId` (within float tolerance).
 * 4. Failures reject with a `ZerdaError` (`EMBEDDING`, `ABORTED`, `CLOSED`).
 * 5. After `close()`, `embed` rejects with `CLOSED`; `close()` itself is idempotent (closing again
 *    resolves and does nothing), as on `StorageAdapter` and `MemoryManager`.
 * `runEmbedderConformance` in `@zerda/core/testing` checks these rules.
 */
export interface Embedder {
  /** Identifies the embedding space; vectors of different ids are never compared. */
  readonly modelId: string;
  /** Vector dimension. Known after `ready()` for model-backed embedders. */
  readonly dim: number;
  /** Resolves when the model is loaded. Cheap to call repeatedly. */
  ready(): Promise<void>;
  /** One vector of length `dim` per text, in input order (the rules above). */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Release the model; later `embed` calls reject with `CLOSED`, closing again does nothing. */
  close(): Promise<void>;
}

/** A text generator used for summaries (compression). Optional everywhere. */
export interface LlmClient {
  /** The model's text for `prompt`, at most `maxTokens` long; rejects when aborted through `signal`. */
  generate(prompt: string, options: { maxTokens: number; signal?: AbortSignal }): Promise<string>;
}
