import { env, pipeline, type FeatureExtractionPipeline, type ProgressInfo, type Tensor } from '#transformers';
import { ZerdaError } from '@zerda/core';
import { checkEmbedArgs, invalid, KeyedMutex, wrapError, yieldToEventLoop } from '@zerda/core/adapter';
import type { EmbedOptions, Embedder } from '@zerda/core';
import { USE_LITE, useLiteModelFiles } from './bundled-model.js';
import { registerModelFiles, releaseModelFileBodies, unregisterModelFiles, withFetchReport } from './model-files.js';
import { resolveOptions } from './options.js';
import type { EmbeddingDevice, ModelLoadProgress, ResolvedOptions, TransformersEmbedderOptions } from './options.js';

// transformers.js keeps its settings in one global `env` that is read while a model loads, so
// loads run one at a time, each setting the fields it relies on first.
const loads = new KeyedMutex<'env'>();
function serializeLoad<T>(task: () => Promise<T>): Promise<T> {
  return loads.run('env', task);
}

// transformers.js' own default, restored for loads that do not set a path, so one embedder's
// folder never leaks into another's lookup.
const DEFAULT_LOCAL_MODEL_PATH = env.localModelPath;
const DEFAULT_REMOTE_HOST = env.remoteHost;
const DEFAULT_REMOTE_PATH_TEMPLATE = env.remotePathTemplate;

const IS_NODE =
  typeof process !== 'undefined' && typeof process.versions === 'object' && typeof process.versions.node === 'string';

/**
 * Set ONNX Runtime's `env.wasm.wasmPaths` (browser) to `given`. Not given: none, never
 * transformers.js' default (a CDN, set when it is imported): ONNX Runtime's bundled build then
 * loads its WASM from next to its own code (`new URL('ort-wasm-simd-threaded.wasm',
 * import.meta.url)`), the copy webpack 5, Turbopack, Parcel and Vite emit with the app, so an app
 * copies no second one.
 */
export function setOrtWasmPaths(wasm: { wasmPaths?: unknown }, given: ResolvedOptions['wasmPaths']): void {
  // Mutate, never replace: it is the same object as onnxruntime-web's `env.wasm`.
  wasm.wasmPaths = given === undefined || typeof given === 'string' ? given : { ...given };
}

function abortError(): ZerdaError {
  return new ZerdaError('ABORTED', 'Embedding was aborted');
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/** Resolve with `promise`, or reject with `ABORTED` as soon as `signal` fires. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Folder path of a `file:` URL, without Node's `url` module (this file also runs in browsers). */
function fileUrlToFolder(href: string, suffix: string): string {
  let path = decodeURIComponent(new URL(href).pathname);
  if (/^\/[A-Za-z]:\//.test(path)) path = path.slice(1);
  return path.slice(0, path.length - suffix.length);
}

function toProgress(info: ProgressInfo): ModelLoadProgress {
  const p = info as unknown as Record<string, unknown>;
  const out: ModelLoadProgress = { status: String(p.status) };
  if (typeof p.name === 'string') out.name = p.name;
  if (typeof p.file === 'string') out.file = p.file;
  if (typeof p.progress === 'number') out.progress = p.progress;
  if (typeof p.loaded === 'number') out.loaded = p.loaded;
  if (typeof p.total === 'number') out.total = p.total;
  return out;
}

async function pickDevice(requested: EmbeddingDevice): Promise<Exclude<EmbeddingDevice, 'auto'>[]> {
  if (IS_NODE) return requested === 'auto' ? ['cpu'] : [requested];
  if (requested === 'cpu') return ['wasm'];
  if (requested !== 'auto') return [requested];
  const gpu = (globalThis.navigator as (Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }) | undefined)?.gpu;
  if (!gpu) return ['wasm'];
  // `navigator.gpu` exists in browsers with GPU access disabled too; only a real adapter counts.
  const adapter = await gpu.requestAdapter().catch(() => null);
  return adapter ? ['webgpu', 'wasm'] : ['wasm'];
}

interface Loaded {
  extractor: FeatureExtractionPipeline;
  dim: number;
  device: Exclude<EmbeddingDevice, 'auto'>;
  maxTokens: number | undefined;
  /** The model's own pooled output (`sentence_embedding`) stands for `pooling: 'mean'` (see `pooledOutput`). */
  pooled: boolean;
  /** The bundled model's integer-product graph was loaded (see `quantizeActivations`). */
  int8Activations: boolean;
}

/**
 * The (device, file variant) pairs a load tries in order. The bundled model on WASM takes its
 * integer-product graph (`quantizeActivations`), falling back to the float one when that was only
 * the default; WebGPU and Node's CPU take the float graph unless asked.
 */
export function loadAttempts(
  o: Pick<ResolvedOptions, 'bundled' | 'dtype' | 'quantizeActivations'>,
  devices: readonly Exclude<EmbeddingDevice, 'auto'>[],
): { device: Exclude<EmbeddingDevice, 'auto'>; dtype: ResolvedOptions['dtype'] }[] {
  return devices.flatMap((device) => {
    const plain = { device, dtype: o.dtype };
    if (!o.bundled || o.quantizeActivations === false) return [plain];
    const int8 = { device, dtype: USE_LITE.int8ActivationsDtype };
    if (o.quantizeActivations === true) return [int8];
    return device === 'wasm' ? [int8, plain] : [plain];
  });
}

type ModelOutputs = Record<string, Tensor | undefined>;
interface PipelineParts {
  tokenizer: (texts: string[], options: { padding: boolean; truncation: boolean }) => Record<string, unknown>;
  model: ((inputs: Record<string, unknown>) => Promise<ModelOutputs>) & {
    sessions?: Record<string, { outputNames?: readonly string[] } | undefined>;
  };
}

/**
 * Whether the model hands its sentence vector out itself: the bundled model's `sentence_embedding`
 * is its `last_hidden_state` broadcast over the tokens, so mean pooling over the mask gives it back
 * (equal within 1e-8). Taking it skips the pipeline's pooling over every token's 512 floats, part
 * of each query embedding's fixed cost. Only for the bundled model, whose graph this was checked on.
 */
function pooledOutput(o: ResolvedOptions, extractor: FeatureExtractionPipeline): boolean {
  if (!o.bundled || o.pooling !== 'mean') return false;
  const names = (extractor as unknown as PipelineParts).model.sessions?.model?.outputNames;
  return names?.includes('sentence_embedding') === true;
}

/**
 * An {@link Embedder} on `@huggingface/transformers` (ONNX Runtime: CPU in Node, WASM or WebGPU in
 * browsers). Runs in the calling thread: in a page, host it in a worker with
 * `@zerda/embeddings/worker` so the UI never freezes.
 *
 * - Texts longer than the tokenizer's limit ({@link TransformersEmbedder.maxTokens}; 128 for the
 *   bundled model) are truncated.
 * - Empty or whitespace-only texts give the zero vector without touching the model.
 * - Failures reject with `ZerdaError` `EMBEDDING`; cancelled calls with `ABORTED`; calls after
 *   `close()` with `CLOSED`; bad arguments with `VALIDATION`.
 */
export class TransformersEmbedder implements Embedder {
  /** Identifies the embedding space (model, dtype, pooling unless overridden). */
  readonly modelId: string;
  readonly #options: ResolvedOptions;
  readonly #onProgress: ((progress: ModelLoadProgress) => void) | undefined;
  #loaded: Loaded | undefined;
  #loading: Promise<Loaded> | undefined;
  /** Model calls run one at a time (one inference session). */
  readonly #queue = new KeyedMutex<'model'>();
  #closed = false;
  #virtualPath: string | undefined;

  /** Validates `options` (throws `VALIDATION`); the model loads on `ready()` or the first `embed()`. */
  constructor(options: TransformersEmbedderOptions = {}) {
    if (options !== undefined && (typeof options !== 'object' || options === null))
      invalid('options', 'an object', options);
    const { onProgress, ...rest } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') invalid('onProgress', 'a function', onProgress);
    this.#options = resolveOptions(rest);
    this.#onProgress = onProgress;
    this.modelId = this.#options.modelId;
  }

  /** Vector dimension; 0 until `ready()` resolves. */
  get dim(): number {
    return this.#loaded?.dim ?? 0;
  }

  /** The device the model runs on, once loaded. */
  get device(): Exclude<EmbeddingDevice, 'auto'> | undefined {
    return this.#loaded?.device;
  }

  /** Tokens kept per text (longer input is truncated), once loaded; `undefined` when unlimited. */
  get maxTokens(): number | undefined {
    return this.#loaded?.maxTokens;
  }

  /** Whether the bundled model runs its integer-product graph (`quantizeActivations`), once loaded. */
  get int8Activations(): boolean | undefined {
    return this.#loaded?.int8Activations;
  }

  /** Texts per model call. */
  get batchSize(): number {
    return this.#options.batchSize;
  }

  /** Loads the model (once). Rejects with `EMBEDDING` when it cannot be loaded; a later call retries. */
  async ready(): Promise<void> {
    await this.#load();
  }

  #load(): Promise<Loaded> {
    if (this.#closed) return Promise.reject(new ZerdaError('CLOSED', 'Embedder is closed'));
    if (this.#loaded) return Promise.resolve(this.#loaded);
    if (!this.#loading) {
      this.#loading = serializeLoad(() => this.#loadModel()).then(
        async (loaded) => {
          if (this.#closed) {
            await loaded.extractor.dispose().catch(() => undefined);
            throw new ZerdaError('CLOSED', 'Embedder was closed while the model was loading');
          }
          this.#loaded = loaded;
          return loaded;
        },
        (e: unknown) => {
          this.#loading = undefined;
          throw wrapError('EMBEDDING', `Could not load embedding model "${this.#options.model}"`, e);
        },
      );
    }
    return this.#loading;
  }

  async #loadModel(): Promise<Loaded> {
    const o = this.#options;
    let localModelPath = o.localModelPath;
    let modelFiles = o.modelFiles;
    if (o.bundled && localModelPath === undefined && modelFiles === undefined) {
      const files = useLiteModelFiles();
      const configUrl = files['config.json']!;
      if (configUrl.startsWith('file:')) localModelPath = fileUrlToFolder(configUrl, `${USE_LITE.name}/config.json`);
      else modelFiles = files;
    }
    if (modelFiles) {
      if (this.#virtualPath) unregisterModelFiles(this.#virtualPath);
      this.#virtualPath = registerModelFiles(modelFiles);
      localModelPath = this.#virtualPath;
    }
    // A remote model with no local location is not looked up on the app's origin first (a
    // wasted request per file, and SPA servers answer unknown paths with index.html).
    env.allowLocalModels = !(
      o.allowRemoteModels &&
      !o.bundled &&
      localModelPath === undefined &&
      modelFiles === undefined
    );
    env.allowRemoteModels = o.allowRemoteModels;
    env.remoteHost = o.remoteHost ?? DEFAULT_REMOTE_HOST;
    env.remotePathTemplate = o.remotePathTemplate ?? DEFAULT_REMOTE_PATH_TEMPLATE;
    env.localModelPath = localModelPath ?? DEFAULT_LOCAL_MODEL_PATH;
    env.useBrowserCache = o.browserCache;
    env.useWasmCache = o.browserCache;
    if (IS_NODE) {
      env.useFS = modelFiles === undefined;
      // The file-system cache would key `modelFiles` by their virtual path, the same in every
      // process: one app's file could be served to another load (a stale or wrong model).
      env.useFSCache = modelFiles === undefined;
    }
    const wasm = env.backends.onnx.wasm;
    if (wasm && !IS_NODE) {
      setOrtWasmPaths(wasm, o.wasmPaths);
      wasm.numThreads = o.numThreads ?? defaultWasmThreads(globalThis);
    }
    const progress_callback = this.#onProgress
      ? (info: ProgressInfo) => {
          try {
            this.#onProgress?.(toProgress(info));
          } catch {
            /* a listener's bug must not fail the load */
          }
        }
      : undefined;

    try {
      return await withFetchReport(() => this.#loadOnDevices(o, progress_callback));
    } finally {
      if (this.#virtualPath) releaseModelFileBodies(this.#virtualPath);
    }
  }

  async #loadOnDevices(
    o: ResolvedOptions,
    progress_callback: ((info: ProgressInfo) => void) | undefined,
  ): Promise<Loaded> {
    let lastError: unknown;
    for (const { device, dtype } of loadAttempts(o, await pickDevice(o.device))) {
      try {
        const extractor = (await pipeline('feature-extraction', o.model, {
          dtype,
          device,
          session_options: sessionOptions(o, device),
          ...(progress_callback ? { progress_callback } : {}),
        })) as FeatureExtractionPipeline;
        // Probe once: the output size is the truth (some models project away from hidden_size),
        // and a model that cannot run should fail here rather than on the first real call.
        const probe = await extractor(['dimension probe'], { pooling: o.pooling, normalize: o.normalize });
        const dim = probe.dims[probe.dims.length - 1] ?? 0;
        if (probe.dims.length !== 2 || dim < 1) {
          await extractor.dispose().catch(() => undefined);
          throw new ZerdaError(
            'EMBEDDING',
            `Model "${o.model}" does not produce sentence vectors (output dims ${JSON.stringify(probe.dims)})`,
          );
        }
        const limit = (extractor.tokenizer as unknown as { model_max_length?: number }).model_max_length;
        return {
          extractor,
          dim,
          device,
          int8Activations: dtype !== o.dtype,
          maxTokens: typeof limit === 'number' && limit < 1e6 ? limit : undefined,
          pooled: pooledOutput(o, extractor),
        };
      } catch (e) {
        lastError = e;
      }
    }
    throw lastError;
  }

  /**
   * Embed `texts` in batches of `batchSize` (texts of similar length together, so little padding),
   * returned in input order. Reports `onProgress(done, total)` after each batch and checks `signal`
   * between batches (it also rejects at once when aborted mid-batch).
   */
  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    checkEmbedArgs(texts, options);
    const { signal, onProgress } = options;
    if (this.#closed) throw new ZerdaError('CLOSED', 'Embedder is closed');
    throwIfAborted(signal);
    const loaded = await abortable(this.#load(), signal);

    const out: Float32Array[] = new Array<Float32Array>(texts.length);
    const todo: number[] = [];
    texts.forEach((t, i) => {
      if (t.trim() === '') out[i] = new Float32Array(loaded.dim);
      else todo.push(i);
    });
    // Batches of similar length: a batch is padded to its longest text, so mixing a one-liner
    // with a 128-token turn makes the one-liner cost 128 tokens. Rows go back to input order.
    todo.sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
    let done = texts.length - todo.length;
    for (let start = 0; start < todo.length; start += this.#options.batchSize) {
      // A WASM inference blocks its thread, so between batches yield one macrotask: an abort (or a
      // worker's abort message) queued during the batch gets handled before the next one starts.
      if (start > 0) await yieldToEventLoop();
      if (this.#closed) throw new ZerdaError('CLOSED', 'Embedder was closed during embedding');
      throwIfAborted(signal);
      const batch = todo.slice(start, start + this.#options.batchSize);
      const rows = await abortable(
        this.#run(
          loaded,
          batch.map((i) => texts[i]!),
        ),
        signal,
      );
      batch.forEach((textIndex, row) => {
        out[textIndex] = rows[row]!;
      });
      done += batch.length;
      onProgress?.(done, texts.length);
    }
    if (todo.length === 0 && texts.length > 0) onProgress?.(done, texts.length);
    return out;
  }

  /** One model call; calls are queued because an ONNX session runs one inference at a time. */
  #run(loaded: Loaded, batch: string[]): Promise<Float32Array[]> {
    const task = async (): Promise<Float32Array[]> => {
      if (this.#closed) throw new ZerdaError('CLOSED', 'Embedder was closed during embedding');
      let data: Float32Array;
      let dims: readonly number[];
      try {
        const tensor = loaded.pooled
          ? await pooledVectors(loaded.extractor, batch, this.#options.normalize)
          : await loaded.extractor(batch, { pooling: this.#options.pooling, normalize: this.#options.normalize });
        data = tensor.data instanceof Float32Array ? tensor.data : Float32Array.from(tensor.data as ArrayLike<number>);
        dims = tensor.dims;
      } catch (e) {
        throw wrapError('EMBEDDING', `Embedding failed (${batch.length} texts)`, e);
      }
      if (dims[0] !== batch.length || dims[1] !== loaded.dim) {
        throw new ZerdaError(
          'EMBEDDING',
          `Model returned dims ${JSON.stringify(dims)} for ${batch.length} texts of dim ${loaded.dim}`,
        );
      }
      const rows: Float32Array[] = [];
      for (let r = 0; r < batch.length; r++) {
        // One buffer per row, so rows can be transferred independently.
        const row = data.slice(r * loaded.dim, (r + 1) * loaded.dim);
        for (let k = 0; k < row.length; k++) {
          if (!Number.isFinite(row[k]!)) {
            throw new ZerdaError('EMBEDDING', `Model produced a non-finite vector for text ${r} of the batch`);
          }
        }
        rows.push(row);
      }
      return rows;
    };
    return this.#queue.run('model', task);
  }

  /** Releases the model. Pending batches finish; later calls reject with `CLOSED`. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.idle('model');
    const loaded = this.#loaded;
    this.#loaded = undefined;
    if (this.#virtualPath) unregisterModelFiles(this.#virtualPath);
    if (loaded) await loaded.extractor.dispose().catch(() => undefined);
  }
}

/** The pipeline's steps with the model's own pooled output in place of its pooling (see `pooledOutput`). */
async function pooledVectors(
  extractor: FeatureExtractionPipeline,
  batch: string[],
  normalize: boolean,
): Promise<Tensor> {
  const parts = extractor as unknown as PipelineParts;
  const outputs = await parts.model(parts.tokenizer(batch, { padding: true, truncation: true }));
  const pooled = outputs.sentence_embedding;
  if (!pooled) throw new ZerdaError('EMBEDDING', 'The model gave no sentence_embedding output');
  return normalize ? pooled.normalize(2, -1) : pooled;
}

/** Create a {@link TransformersEmbedder}. With no options it uses the bundled offline model. */
export function createTransformersEmbedder(options: TransformersEmbedderOptions = {}): TransformersEmbedder {
  return new TransformersEmbedder(options);
}

/**
 * onnxruntime-node's session options: `numThreads` intra-op threads, 1 by default. ORT's own default
 * (one per core, spinning while idle) made a query embedding of the bundled model 2× slower on a
 * busy 2-core machine and batches no faster (test/bench/embeddings-node.ts `--threads`); a model
 * this small has too little work per operator to share between threads.
 */
export function nodeSessionOptions(numThreads: number | undefined): Record<string, unknown> {
  return { intraOpNumThreads: numThreads ?? 1, interOpNumThreads: 1 };
}

/**
 * ONNX Runtime session options of a load. `foldWeights` (default for the bundled model, which is
 * weight-only quantised: int8 weights, `DequantizeLinear` into float `MatMul`s) turns ORT's QDQ
 * handling off, so it folds each dequantised weight into a float constant once at load instead of
 * fusing the pairs into `MatMulNBits` (test/bench/embeddings-browser.ts prints both, same run).
 */
export function sessionOptions(
  o: Pick<ResolvedOptions, 'foldWeights' | 'numThreads'>,
  device: Exclude<EmbeddingDevice, 'auto'>,
): Record<string, unknown> {
  return {
    ...(device === 'cpu' ? nodeSessionOptions(o.numThreads) : {}),
    ...(o.foldWeights ? { extra: { session: { disable_quant_qdq: '1' } } } : {}),
  };
}

/**
 * ORT's WASM thread count when `numThreads` is not given: `min(4, hardwareConcurrency)` where
 * threads can run (cross-origin isolated, with SharedArrayBuffer: WebKitGTK is isolated without
 * it), else 1. Firefox (Gecko, told by its user-agent token) gets 1: ORT's threaded start-up
 * hangs intermittently there (the load never settles; measured in test/e2e/engines on a busy
 * 2-core machine: 4 of 6 loads hung with 2 threads, none of 11 with 1).
 */
export function defaultWasmThreads(scope: {
  crossOriginIsolated?: boolean;
  SharedArrayBuffer?: unknown;
  navigator?: { hardwareConcurrency?: number; userAgent?: string };
}): number {
  const threads = scope.crossOriginIsolated === true && typeof scope.SharedArrayBuffer === 'function';
  if (!threads || /\bFirefox\//.test(scope.navigator?.userAgent ?? '')) return 1;
  return Math.max(1, Math.min(4, scope.navigator?.hardwareConcurrency ?? 1));
}
