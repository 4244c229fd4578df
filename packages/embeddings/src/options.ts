import { checkOptionKeys, invalid } from '@zerda/core/adapter';

/** Where the model runs. `auto`: WebGPU when a GPU adapter is available, WASM otherwise; CPU in Node. */
export type EmbeddingDevice = 'auto' | 'wasm' | 'webgpu' | 'cpu';

/** Weight precision to load (the ONNX file variant). `q8` is the bundled model's only variant. */
export type EmbeddingDtype = 'auto' | 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';

/** How token vectors become one sentence vector. */
export type EmbeddingPooling = 'mean' | 'cls' | 'first_token' | 'eos' | 'last_token';

/** Model-loading progress, a plain subset of transformers.js' progress events. */
export interface ModelLoadProgress {
  /** `initiate` / `download` / `progress` / `done` per file, `progress_total` overall, `ready` at the end. */
  status: string;
  /** Model name as transformers.js sees it. */
  name?: string;
  /** File within the model folder (e.g. `onnx/model_quantized.onnx`). */
  file?: string;
  /** Percent 0..100 (for `progress` and `progress_total`). */
  progress?: number;
  /** Bytes loaded so far. */
  loaded?: number;
  /** Bytes in total. */
  total?: number;
}

/** URLs of ONNX Runtime's WASM build, served from the app's own origin. */
export interface OrtWasmPaths {
  /** URL of `ort-wasm-simd-threaded.wasm`. */
  wasm: string;
  /** URL of `ort-wasm-simd-threaded.mjs`. */
  mjs: string;
}

/**
 * Options of {@link createTransformersEmbedder}. Every field is plain data except `onProgress`, so
 * the same object (minus the callback) can be sent to a worker.
 */
export interface TransformersEmbedderOptions {
  /**
   * A transformers.js feature-extraction model: a Hugging Face id (`Xenova/all-MiniLM-L6-v2`), a
   * folder name under `localModelPath`, or a path/URL of a model folder. Default: the bundled
   * offline model `use-lite` (Universal Sentence Encoder Lite, 512-d, q8), loaded from this package.
   */
  model?: string;
  /** Folder (Node) or URL path (browser) that contains model folders. Ignored when `modelFiles` is set. */
  localModelPath?: string;
  /**
   * Explicit URL of every model file, keyed by its path inside the model folder
   * (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model_quantized.onnx`).
   * For bundlers that hash asset names; see `useLiteModelFiles` (`@zerda/embeddings`).
   */
  modelFiles?: Record<string, string>;
  /**
   * Allow downloading the model from a hub (`remoteHost`) when it is not found locally. Default
   * `false`. Downloaded files are kept in Cache Storage (see `browserCache`), so later loads work
   * offline. With no `localModelPath`/`modelFiles`, a remote model is not looked up locally first.
   */
  allowRemoteModels?: boolean;
  /**
   * The hub to download from when `allowRemoteModels` is on: an `http(s)` URL such as your own
   * mirror or CDN. Default `https://huggingface.co/`. Files are fetched from
   * `<remoteHost>/<remotePathTemplate>/<file>`; the host must allow CORS from your origin.
   */
  remoteHost?: string;
  /** Path of a model's files on `remoteHost`; `{model}` and `{revision}` are replaced. Default `{model}/resolve/{revision}/` (the hub's layout). */
  remotePathTemplate?: string;
  /** Weight precision. Default `q8` for the bundled model, `auto` (the model's default) otherwise. */
  dtype?: EmbeddingDtype;
  /** Default `auto`. */
  device?: EmbeddingDevice;
  /**
   * Texts per model call. Default 8: the bundled model is compute-bound per token, so batches of 8
   * embed LoCoMo turns at least as fast as batches of 32 (1.08–1.63× in test/bench/embeddings-browser.ts) while
   * a query or a formation check that arrives during a bulk import waits behind 8 texts, not 32.
   */
  batchSize?: number;
  /** Default `mean`. */
  pooling?: EmbeddingPooling;
  /**
   * L2-normalise vectors. Default `true`. The `Embedder` contract requires unit vectors; set
   * `false` only for a model whose output is already unit length.
   */
  normalize?: boolean;
  /**
   * Override the embedding-space id. Default: derived from model, dtype and pooling, so vectors of
   * different models or settings are never compared.
   */
  modelId?: string;
  /**
   * ONNX Runtime's WASM files served from the app's own origin (browser): a folder URL, or the two
   * URLs. Default: the copy the bundler emits next to ONNX Runtime's bundled code (webpack 5,
   * Turbopack, Parcel, Vite); never transformers.js' default, a CDN.
   */
  wasmPaths?: OrtWasmPaths | string;
  /**
   * Inference threads. Browser (WASM): default `min(4, hardwareConcurrency)` when the page is
   * cross-origin isolated (COOP/COEP) and has SharedArrayBuffer, else 1 (threads need
   * SharedArrayBuffer; WebKitGTK is isolated without it). Firefox gets 1 by default: ORT's threaded
   * start-up there hangs intermittently (the model load never settles); set this to opt in anyway.
   * Node (onnxruntime-node): ORT's intra-op threads, default 1 (see `nodeSessionOptions`).
   */
  numThreads?: number;
  /**
   * Fold weight-only quantisation into float weights at load: ONNX Runtime's QDQ handling off, so
   * each `DequantizeLinear` of a constant weight is computed once and the model runs float
   * `MatMul`s, its exact float semantics, instead of ORT's fused int8 `MatMulNBits` kernel (slower
   * here, and in Node it quantises the activations too). Default `true` for the bundled model,
   * `false` for others: a model quantised with activations too (Q/DQ around every op) would run
   * slower with it on.
   */
  foldWeights?: boolean;
  /**
   * Bundled model only: run its matrix products in integers, the activations quantised per call
   * (`onnx/model_int8.onnx`: the same int8 weights as `model_quantized.onnx`, each float `MatMul`
   * rewritten as `DynamicQuantizeLinear` + `MatMulInteger`). ONNX Runtime's WASM build runs it
   * about 2× faster (a query and a batch of chat turns alike; test/bench/query-embed-browser.ts),
   * and its vectors stay within cosine 0.9993 of the float path, so the embedding space and
   * `modelId` are the same. Default: on for WASM (browser), off for WebGPU and for Node's CPU
   * (onnxruntime-node's integer kernels are slower than its float ones for this model). When on by
   * default and the file cannot be loaded (an app that copied only `model_quantized.onnx`), the
   * float path loads instead. `true` with another model is rejected (pick its `dtype` instead).
   */
  quantizeActivations?: boolean;
  /**
   * Keep model and WASM files in Cache Storage (browser). Default `false` for local files (they
   * would go stale across deploys), `true` when `allowRemoteModels` is on.
   */
  browserCache?: boolean;
  /** Model-loading progress. */
  onProgress?: (progress: ModelLoadProgress) => void;
}

/** {@link TransformersEmbedderOptions} without the callback: what crosses a worker boundary. */
export type SerializableEmbedderOptions = Omit<TransformersEmbedderOptions, 'onProgress'>;

/** The bundled model's name (its folder under `model/`). */
export const BUNDLED_MODEL = 'use-lite';

/** Every option name of {@link TransformersEmbedderOptions}: a typo such as `batchsize` is rejected, not ignored. */
const OPTION_KEYS = [
  'model',
  'localModelPath',
  'modelFiles',
  'allowRemoteModels',
  'remoteHost',
  'remotePathTemplate',
  'dtype',
  'device',
  'batchSize',
  'pooling',
  'normalize',
  'modelId',
  'wasmPaths',
  'numThreads',
  'foldWeights',
  'quantizeActivations',
  'browserCache',
  'onProgress',
] as const satisfies readonly (keyof TransformersEmbedderOptions)[];

const DEVICES: readonly EmbeddingDevice[] = ['auto', 'wasm', 'webgpu', 'cpu'];
const DTYPES: readonly EmbeddingDtype[] = ['auto', 'fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16'];
const POOLINGS: readonly EmbeddingPooling[] = ['mean', 'cls', 'first_token', 'eos', 'last_token'];

/** Options after defaults and validation. */
export interface ResolvedOptions {
  model: string;
  bundled: boolean;
  localModelPath: string | undefined;
  modelFiles: Record<string, string> | undefined;
  allowRemoteModels: boolean;
  remoteHost: string | undefined;
  remotePathTemplate: string | undefined;
  dtype: EmbeddingDtype;
  device: EmbeddingDevice;
  batchSize: number;
  pooling: EmbeddingPooling;
  normalize: boolean;
  modelId: string;
  wasmPaths: OrtWasmPaths | string | undefined;
  numThreads: number | undefined;
  foldWeights: boolean;
  /** `undefined`: the default for the device (see `TransformersEmbedderOptions.quantizeActivations`). */
  quantizeActivations: boolean | undefined;
  browserCache: boolean;
}

function optionalString(field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') invalid(field, 'a non-empty string', value);
  return value;
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T)) invalid(field, `one of ${allowed.join(', ')}`, value);
  return value as T;
}

function optionalBoolean(field: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') invalid(field, 'a boolean', value);
  return value;
}

function positiveInt(field: string, value: unknown, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    invalid(field, `an integer from 1 to ${max}`, value);
  }
  return value;
}

/**
 * The embedding-space id for a model and its settings. Normalisation is not part of it: the
 * contract makes every vector unit length.
 */
export function deriveModelId(model: string, dtype: EmbeddingDtype, pooling: EmbeddingPooling): string {
  return `transformers:${model}:${dtype}:${pooling}`;
}

/** Validate options and apply defaults. Throws `VALIDATION` naming the bad field. */
export function resolveOptions(options: SerializableEmbedderOptions = {}): ResolvedOptions {
  checkOptionKeys(options, OPTION_KEYS, 'options');
  const model = optionalString('model', options.model) ?? BUNDLED_MODEL;
  const bundled = options.model === undefined;
  const localModelPath = optionalString('localModelPath', options.localModelPath);
  let modelFiles: Record<string, string> | undefined;
  if (options.modelFiles !== undefined) {
    const files = options.modelFiles as unknown;
    if (typeof files !== 'object' || files === null || Array.isArray(files)) {
      invalid('modelFiles', 'an object mapping file paths to URLs', files);
    }
    modelFiles = {};
    for (const [file, url] of Object.entries(files as Record<string, unknown>)) {
      if (typeof url !== 'string' || url === '') invalid(`modelFiles["${file}"]`, 'a URL string', url);
      modelFiles[file.replace(/^\/+/, '')] = url;
    }
    if (!('config.json' in modelFiles)) invalid('modelFiles', 'an entry for config.json', Object.keys(modelFiles));
  }
  const allowRemoteModels = optionalBoolean('allowRemoteModels', options.allowRemoteModels) ?? false;
  const remoteHost = optionalString('remoteHost', options.remoteHost);
  if (remoteHost !== undefined && !/^https?:\/\/[^/]/.test(remoteHost))
    invalid('remoteHost', 'an http(s) URL', remoteHost);
  const remotePathTemplate = optionalString('remotePathTemplate', options.remotePathTemplate);
  if (remotePathTemplate !== undefined && !remotePathTemplate.includes('{model}'))
    invalid('remotePathTemplate', 'a path containing {model}', remotePathTemplate);
  const dtype = oneOf('dtype', options.dtype, DTYPES, bundled ? 'q8' : 'auto');
  const device = oneOf('device', options.device, DEVICES, 'auto');
  const batchSize = positiveInt('batchSize', options.batchSize, 4096) ?? 8;
  const pooling = oneOf('pooling', options.pooling, POOLINGS, 'mean');
  const normalize = optionalBoolean('normalize', options.normalize) ?? true;
  const modelId = optionalString('modelId', options.modelId) ?? deriveModelId(model, dtype, pooling);
  let wasmPaths: OrtWasmPaths | string | undefined;
  if (options.wasmPaths !== undefined) {
    const w = options.wasmPaths as unknown;
    if (typeof w === 'string' && w !== '') wasmPaths = w;
    else if (
      typeof w === 'object' &&
      w !== null &&
      typeof (w as OrtWasmPaths).wasm === 'string' &&
      typeof (w as OrtWasmPaths).mjs === 'string'
    ) {
      wasmPaths = { wasm: (w as OrtWasmPaths).wasm, mjs: (w as OrtWasmPaths).mjs };
    } else invalid('wasmPaths', 'a URL prefix or { wasm, mjs } URLs', w);
  }
  const numThreads = positiveInt('numThreads', options.numThreads, 64);
  const foldWeights = optionalBoolean('foldWeights', options.foldWeights) ?? bundled;
  const quantizeActivations = optionalBoolean('quantizeActivations', options.quantizeActivations);
  if (quantizeActivations === true && !bundled)
    invalid('quantizeActivations', 'unset or false for a model other than the bundled one (choose its dtype)', true);
  const browserCache = optionalBoolean('browserCache', options.browserCache) ?? allowRemoteModels;
  return {
    model,
    bundled,
    localModelPath,
    modelFiles,
    allowRemoteModels,
    remoteHost,
    remotePathTemplate,
    dtype,
    device,
    batchSize,
    pooling,
    normalize,
    modelId,
    wasmPaths,
    numThreads,
    foldWeights,
    quantizeActivations,
    browserCache,
  };
}

/** `value` without its `undefined` fields (so spreading it over defaults keeps the defaults). */
export function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
