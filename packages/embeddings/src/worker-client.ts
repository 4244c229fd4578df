/** @module @zerda/embeddings/worker-client */
// The main thread's side of the worker embedder, and the wire protocol. It never imports the
// model runtime, so a page (or a server-side render of it) that only talks to a worker does not
// pull transformers.js into its bundle; the worker's side is `exposeEmbedder` in worker.ts.
import * as Comlink from 'comlink';
import { isZerdaError, ZerdaError, type EmbedOptions, type Embedder } from '@zerda/core';
import {
  checkEmbedArgs,
  deserializeZerdaError,
  invalid,
  isSerializedZerdaError,
  serializeZerdaError,
  wrapError,
} from '@zerda/core/adapter';
import {
  resolveOptions,
  type ModelLoadProgress,
  type SerializableEmbedderOptions,
  type TransformersEmbedderOptions,
} from './options.js';

/** What the worker reports once its model is loaded. */
export interface WorkerEmbedderInfo {
  modelId: string;
  dim: number;
  maxTokens: number | undefined;
  device: string | undefined;
  /** Whether the bundled model runs its integer-product graph (`quantizeActivations`). */
  int8Activations?: boolean | undefined;
}

/** The object a worker exposes over Comlink (the wire protocol of {@link createWorkerEmbedder}). */
export interface EmbedderHost {
  /** Load the model with the main thread's options layered over the worker's defaults. */
  init(
    options: SerializableEmbedderOptions,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<WorkerEmbedderInfo>;
  /** Embed; `callId` names the call for {@link EmbedderHost.abort}. Rows come back transferred. */
  embed(
    callId: number,
    texts: string[],
    onProgress?: (done: number, total: number) => unknown,
  ): Promise<Float32Array[]>;
  /** Cancel call `callId` before its next batch. Unknown ids are ignored. */
  abort(callId: number): void;
  /** Release the model. */
  close(): Promise<void>;
}

/** A `postMessage` endpoint: a `Worker`, a worker's `self`, a `MessagePort`. */
export type MessageEndpoint = Comlink.Endpoint;

const HANDLER_MARK = Symbol.for('@zerda/embeddings:throw-handler');

/**
 * Make Comlink carry `ZerdaError`s across a worker hop with their `code` and `details`, so
 * `isZerdaError(e, 'EMBEDDING')` holds on the other side. Other errors keep Comlink's behaviour.
 * Needed on both sides; `exposeEmbedder` and {@link createWorkerEmbedder} call it.
 * Idempotent.
 */
export function registerZerdaErrorTransfer(): void {
  const original = Comlink.transferHandlers.get('throw') as
    | (Comlink.TransferHandler<unknown, unknown> & { [HANDLER_MARK]?: true })
    | undefined;
  if (!original || original[HANDLER_MARK]) return;
  const handler: Comlink.TransferHandler<unknown, unknown> & { [HANDLER_MARK]: true } = {
    [HANDLER_MARK]: true,
    canHandle: (value: unknown): value is unknown => original.canHandle(value),
    serialize(thrown: unknown): [unknown, Transferable[]] {
      const value = (thrown as { value?: unknown }).value;
      if (!isZerdaError(value)) return original.serialize(thrown);
      return [serializeZerdaError(value), []];
    },
    deserialize(serialized: unknown): unknown {
      if (isSerializedZerdaError(serialized)) throw deserializeZerdaError(serialized);
      return original.deserialize(serialized);
    },
  };
  Comlink.transferHandlers.set('throw', handler);
}

/** Options of {@link createWorkerEmbedder}: where the worker is, plus the embedder's options. */
export interface WorkerEmbedderOptions extends TransformersEmbedderOptions {
  /** A running worker (or any endpoint) that called `exposeEmbedder`. Not terminated by `close()`. */
  worker?: MessageEndpoint;
  /** URL of a module worker script that calls `exposeEmbedder`; the embedder owns and terminates it. */
  workerUrl?: string | URL;
}

function abortError(): ZerdaError {
  return new ZerdaError('ABORTED', 'Embedding was aborted');
}

function toZerdaError(e: unknown, message: string): ZerdaError {
  // A Zerda-shaped plain object (from a peer without the transfer handler) becomes a real instance.
  if (e instanceof ZerdaError) return e;
  if (isZerdaError(e)) return deserializeZerdaError(serializeZerdaError(e));
  return wrapError('EMBEDDING', message, e);
}

/**
 * An {@link Embedder} whose model runs in a dedicated worker. Same interface as the in-thread
 * `TransformersEmbedder`; vectors come back as transferred buffers.
 */
export class WorkerEmbedder implements Embedder {
  #modelId: string;
  #info: WorkerEmbedderInfo | undefined;
  #loading: Promise<WorkerEmbedderInfo> | undefined;
  #closed = false;
  #failure: ZerdaError | undefined;
  #nextCall = 1;
  readonly #pending = new Set<(error: ZerdaError) => void>();
  readonly #remote: Comlink.Remote<EmbedderHost>;
  readonly #options: SerializableEmbedderOptions;
  readonly #onLoadProgress: ((progress: ModelLoadProgress) => void) | undefined;
  readonly #ownedWorker: Worker | undefined;

  /** Prefer {@link createWorkerEmbedder}. */
  constructor(options: WorkerEmbedderOptions) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object', options);
    const { worker, workerUrl, onProgress, ...rest } = options;
    if ((worker === undefined) === (workerUrl === undefined))
      invalid('worker', 'exactly one of worker or workerUrl', options);
    if (onProgress !== undefined && typeof onProgress !== 'function') invalid('onProgress', 'a function', onProgress);
    this.#modelId = resolveOptions(rest).modelId;
    this.#options = rest;
    this.#onLoadProgress = onProgress;
    registerZerdaErrorTransfer();
    let endpoint: MessageEndpoint;
    if (workerUrl !== undefined) {
      if (typeof Worker === 'undefined')
        throw new ZerdaError('UNSUPPORTED', 'Web Workers are not available here; pass `worker`');
      this.#ownedWorker = new Worker(workerUrl, { type: 'module' });
      endpoint = this.#ownedWorker;
    } else {
      endpoint = worker!;
    }
    // A worker whose script fails to load, or that throws outside a call, would leave every
    // pending call waiting forever; fail them instead, and every later call too.
    endpoint.addEventListener('error', (event: Event) => {
      const detail = (event as ErrorEvent).message;
      this.#fail(
        new ZerdaError(
          'EMBEDDING',
          `The embedding worker failed${detail ? `: ${detail}` : ' (script error or failed to load)'}`,
        ),
      );
    });
    this.#remote = Comlink.wrap<EmbedderHost>(endpoint);
  }

  /** The embedding space id; the worker's own value once `ready()` resolved. */
  get modelId(): string {
    return this.#modelId;
  }

  /** Vector dimension; 0 until `ready()` resolves. */
  get dim(): number {
    return this.#info?.dim ?? 0;
  }

  /** Tokens kept per text, once loaded. */
  get maxTokens(): number | undefined {
    return this.#info?.maxTokens;
  }

  /** The device the worker's model runs on, once loaded. */
  get device(): string | undefined {
    return this.#info?.device;
  }

  /** Whether the worker's bundled model runs its integer-product graph (`quantizeActivations`), once loaded. */
  get int8Activations(): boolean | undefined {
    return this.#info?.int8Activations;
  }

  #fail(error: ZerdaError): void {
    this.#failure ??= error;
    for (const reject of [...this.#pending]) reject(error);
  }

  #assertUsable(): void {
    if (this.#closed) throw new ZerdaError('CLOSED', 'Embedder is closed');
    if (this.#failure) throw this.#failure;
  }

  /**
   * Settle with `call`, unless the worker fails, the embedder is closed or `signal` fires first
   * (then `onAbort` tells the worker to stop).
   */
  #track<T>(call: Promise<T>, message: string, signal?: AbortSignal, onAbort?: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const abortListener = (): void => {
        onAbort?.();
        fail(abortError());
      };
      const cleanup = (): void => {
        this.#pending.delete(fail);
        signal?.removeEventListener('abort', abortListener);
      };
      const fail = (error: ZerdaError): void => {
        cleanup();
        reject(error);
      };
      this.#pending.add(fail);
      signal?.addEventListener('abort', abortListener, { once: true });
      call.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (e: unknown) => fail(toZerdaError(e, message)),
      );
    });
  }

  /** Loads the model in the worker (once; a failed load is retried by the next call). */
  async ready(): Promise<void> {
    await this.#load();
  }

  #load(): Promise<WorkerEmbedderInfo> {
    try {
      this.#assertUsable();
    } catch (e) {
      return Promise.reject(e);
    }
    if (this.#info) return Promise.resolve(this.#info);
    if (!this.#loading) {
      const progress = this.#onLoadProgress ? Comlink.proxy(this.#onLoadProgress) : undefined;
      this.#loading = this.#track(
        this.#remote.init(this.#options, progress),
        'Could not load the embedding model in the worker',
      ).then(
        (info) => {
          this.#info = info;
          this.#modelId = info.modelId;
          return info;
        },
        (e: unknown) => {
          this.#loading = undefined;
          throw e;
        },
      );
    }
    return this.#loading;
  }

  /** Embed in the worker. `signal` cancels the worker's remaining batches and rejects with `ABORTED` at once. */
  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    checkEmbedArgs(texts, options);
    const { signal, onProgress } = options;
    this.#assertUsable();
    if (signal?.aborted) throw abortError();
    // Once loaded, the request is posted in the caller's own task: a search that starts its query
    // embedding and then ranks lexically gets the worker started before the ranking takes the thread.
    if (!this.#info) await this.#track(this.#load(), 'Could not load the embedding model in the worker', signal);
    if (texts.length === 0) return [];
    const callId = this.#nextCall++;
    const call = this.#remote.embed(callId, texts, onProgress ? Comlink.proxy(onProgress) : undefined);
    return this.#track(call, 'Embedding failed in the worker', signal, () => void this.#remote.abort(callId));
  }

  /**
   * Releases the worker's model (pending calls reject with `CLOSED`); terminates the worker when it
   * was created from `workerUrl`. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new ZerdaError('CLOSED', 'Embedder was closed');
    for (const reject of [...this.#pending]) reject(closed);
    if (!this.#failure) {
      try {
        await this.#remote.close();
      } catch {
        // The worker may already be gone; closing must still succeed.
      }
    }
    this.#remote[Comlink.releaseProxy]();
    this.#ownedWorker?.terminate();
  }
}

/**
 * Create an {@link Embedder} whose model runs in a dedicated worker.
 *
 * ```ts
 * const embedder = createWorkerEmbedder({
 *   worker: new Worker(new URL('./embed-worker.ts', import.meta.url), { type: 'module' }),
 * });
 * await embedder.ready();
 * ```
 */
export function createWorkerEmbedder(options: WorkerEmbedderOptions): WorkerEmbedder {
  return new WorkerEmbedder(options);
}
