import { ZerdaError, createCipher, isZerdaError } from '@zerda/core';
import { fromBase64, invalid, toBase64, validateSyncChange } from '@zerda/core/adapter';
import type { Cipher, MemoryManager, SyncTarget } from '@zerda/core';
import type { ApplyReport, SyncChange } from '@zerda/core';
import type {} from '@zerda/core/adapter';
import { KEY_CHECK_TEXT, keyAssociatedData, recordAssociatedData, tenantPath } from './protocol.js';
import type { KeyCheck, PullResponse, PushResponse, WireRecord } from './protocol.js';

/** Options of {@link startSync}. */
export interface SyncOptions {
  /** The manager whose memory syncs (applied records are indexed for recall). One of `manager` or `storage`. */
  manager?: MemoryManager;
  /** A storage to sync directly (no manager). */
  storage?: SyncTarget;
  /** The sync server's base URL (`https://sync.example.com`). */
  url: string;
  tenantId: string;
  /** Bearer token, or a function returning the current one (called before every request: refresh there). */
  token: string | (() => string | Promise<string>);
  /** The sync passphrase: records are encrypted on this device with a key derived from it. */
  passphrase: string;
  /** PBKDF2 iterations of the key (default core's 600,000). */
  iterations?: number;
  /** Tests only: allow fewer than 100,000 iterations. */
  allowWeakIterations?: boolean;
  /**
   * When this context may sync. Default: the store's own `isOwner` (with several tabs on one
   * `SharedSqliteStorage`, e.g. `openBrowserMemory`'s, only the tab that owns it syncs, and the
   * next owner takes over when it closes), else always.
   */
  isOwner?: () => boolean;
  /** Records per push or pull request. Default 200. */
  batchSize?: number;
  /** Time between background syncs. Default 10 s. */
  intervalMs?: number;
  /** First and longest retry delay while the server cannot be reached. Default 1 s and 60 s. */
  backoff?: { minMs?: number; maxMs?: number };
  /** `fetch` to use (default `globalThis.fetch`). */
  fetch?: typeof fetch;
  /** Start the first sync at once (default true). */
  autoStart?: boolean;
}

/** Where a sync stands. */
export interface SyncStatus {
  state: 'idle' | 'syncing' | 'offline' | 'error' | 'follower' | 'stopped';
  /** Local changes not yet acknowledged by the server. */
  pending: number;
  /** When the last sync cycle finished without error (epoch ms). */
  lastSyncedAt: number | undefined;
  /** During a pull: records applied and records still on the server. */
  progress: { pulled: number; remaining: number } | undefined;
  lastError: ZerdaError | undefined;
}

/** What one sync cycle did. */
export interface SyncReport {
  pushed: number;
  pulled: number;
  applied: number;
  merged: number;
  skipped: number;
  /** Records refused (tampered, foreign, malformed): each also reported as an `error` event. */
  refused: number;
}

/** Events of a running sync. */
export type SyncEvent =
  | { type: 'status'; status: SyncStatus }
  | { type: 'error'; error: ZerdaError }
  | { type: 'progress'; pulled: number; remaining: number }
  | { type: 'applied'; report: ApplyReport };

/** A running sync: see {@link startSync}. */
export interface SyncHandle {
  readonly status: SyncStatus;
  /** Subscribe to events; returns the unsubscribe function. */
  on(listener: (event: SyncEvent) => void): () => void;
  /** Push and pull now; resolves with what was done, rejects with the cycle's `ZerdaError`. */
  syncNow(): Promise<SyncReport>;
  /** Stop background syncing (a cycle in progress finishes first). */
  stop(): Promise<void>;
}

/** How often a follower checks whether it has become the owner. */
const OWNER_POLL_MS = 1000;

const OPTION_KEYS = [
  'manager',
  'storage',
  'url',
  'tenantId',
  'token',
  'passphrase',
  'iterations',
  'allowWeakIterations',
  'isOwner',
  'batchSize',
  'intervalMs',
  'backoff',
  'fetch',
  'autoStart',
];

/**
 * Sync one tenant of a store with the server at `url`, end-to-end encrypted: local changes (the
 * store's change log) are encrypted here and pushed in batches; records of other devices are pulled
 * from the stored cursor, decrypted, checked and applied by the store's merge rules, the cursor
 * saved in the same transaction (so a sync stopped anywhere resumes, and a record applied twice
 * changes nothing). Runs in the background every `intervalMs`, retries with backoff while the server
 * cannot be reached (and at once when the runtime reports it is back online), and only while
 * `isOwner()` holds: by default while this context owns the store, so with several tabs on one
 * browser memory one tab syncs, and another takes over within a second when it closes. A wrong
 * passphrase stops it with `DECRYPTION` before anything is applied; a record that fails to decrypt
 * or check is refused (an `error` event) and the rest goes on.
 */
export function startSync(options: SyncOptions): SyncHandle {
  return new SyncClient(options);
}

class SyncClient implements SyncHandle {
  readonly #target: SyncTarget;
  readonly #isOwner: () => boolean;
  readonly #cipher: Cipher;
  readonly #tenantId: string;
  readonly #base: string;
  readonly #token: () => Promise<string>;
  readonly #fetch: typeof fetch;
  readonly #batch: number;
  readonly #interval: number;
  readonly #backoff: { minMs: number; maxMs: number };
  readonly #listeners = new Set<(event: SyncEvent) => void>();
  #status: SyncStatus = {
    state: 'idle',
    pending: 0,
    lastSyncedAt: undefined,
    progress: undefined,
    lastError: undefined,
  };
  #cycle: Promise<SyncReport> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failures = 0;
  #keyChecked = false;
  #fatal: ZerdaError | undefined;
  #stopped = false;
  #offOnline: (() => void) | undefined;

  constructor(o: SyncOptions) {
    if (typeof o !== 'object' || o === null) invalid('options', 'an object', o);
    for (const k of Object.keys(o)) if (!OPTION_KEYS.includes(k)) invalid(`options.${k}`, OPTION_KEYS.join(', '), k);
    if ((o.manager === undefined) === (o.storage === undefined))
      invalid('options', 'exactly one of manager or storage');
    if (typeof o.url !== 'string' || !/^https?:\/\//.test(o.url)) invalid('url', 'an http(s) URL', o.url);
    if (typeof o.tenantId !== 'string' || o.tenantId === '') invalid('tenantId', 'a non-empty string', o.tenantId);
    if (typeof o.token !== 'string' && typeof o.token !== 'function')
      invalid('token', 'a string or a function', o.token);
    if (typeof o.passphrase !== 'string' || o.passphrase === '')
      invalid('passphrase', 'a non-empty sync passphrase (records are end-to-end encrypted with it)', o.passphrase);
    const batch = o.batchSize ?? 200;
    if (!Number.isInteger(batch) || batch < 1 || batch > 1000) invalid('batchSize', 'an integer in [1, 1000]', batch);
    const interval = o.intervalMs ?? 10_000;
    if (!Number.isFinite(interval) || interval < 10) invalid('intervalMs', 'a number of milliseconds >= 10', interval);
    const f = o.fetch ?? globalThis.fetch;
    if (typeof f !== 'function') throw new ZerdaError('UNSUPPORTED', 'No fetch in this runtime: pass options.fetch');
    this.#target = o.manager ? o.manager.changeLog() : o.storage!;
    const target = this.#target;
    this.#isOwner = o.isOwner ?? (() => target.isOwner !== false);
    this.#cipher = createCipher({
      passphrase: o.passphrase,
      ...(o.iterations === undefined ? {} : { iterations: o.iterations }),
      ...(o.allowWeakIterations === undefined ? {} : { allowWeakIterations: o.allowWeakIterations }),
    });
    this.#tenantId = o.tenantId;
    this.#base = o.url.replace(/\/+$/, '') + tenantPath(o.tenantId);
    const token = o.token;
    this.#token = async () => (typeof token === 'string' ? token : await token());
    // Called without a receiver: a browser's fetch refuses to run as a method of another object (Illegal invocation).
    this.#fetch = (input, init) => f(input, init);
    this.#batch = batch;
    this.#interval = interval;
    this.#backoff = { minMs: o.backoff?.minMs ?? 1000, maxMs: o.backoff?.maxMs ?? 60_000 };
    const g = globalThis as {
      addEventListener?: (t: string, l: () => void) => void;
      removeEventListener?: (t: string, l: () => void) => void;
    };
    if (typeof g.addEventListener === 'function') {
      const online = () => this.#schedule(0);
      g.addEventListener('online', online);
      this.#offOnline = () => g.removeEventListener?.('online', online);
    }
    if (o.autoStart !== false) this.#schedule(0);
  }

  get status(): SyncStatus {
    return { ...this.#status };
  }

  on(listener: (event: SyncEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  syncNow(): Promise<SyncReport> {
    if (this.#stopped) return Promise.reject(new ZerdaError('CLOSED', 'This sync is stopped'));
    return this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#offOnline?.();
    await this.#cycle?.catch(() => undefined);
    this.#setStatus({ state: 'stopped' });
  }

  /** One cycle at a time: a call during a cycle waits for it, then runs its own. */
  async #run(): Promise<SyncReport> {
    while (this.#cycle) await this.#cycle.catch(() => undefined);
    const cycle = this.#once();
    this.#cycle = cycle;
    try {
      const report = await cycle;
      this.#failures = 0;
      // A follower looks often (a getter, no request) whether its tab now owns the store, to take over soon.
      this.#schedule(this.#status.state === 'follower' ? Math.min(this.#interval, OWNER_POLL_MS) : this.#interval);
      return report;
    } catch (e) {
      const err = isZerdaError(e) ? e : new ZerdaError('STORAGE', 'Sync failed', { cause: e });
      const offline = err.details?.offline === true;
      this.#setStatus({ state: offline ? 'offline' : 'error', lastError: err });
      this.#emit({ type: 'error', error: err });
      if (!this.#fatal) this.#schedule(offline ? this.#retryDelay() : this.#interval);
      throw err;
    } finally {
      this.#cycle = undefined;
    }
  }

  #schedule(ms: number): void {
    if (this.#stopped || this.#fatal) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#run().catch(() => undefined);
    }, ms);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #retryDelay(): number {
    const { minMs, maxMs } = this.#backoff;
    const d = Math.min(maxMs, minMs * 2 ** this.#failures++);
    return d / 2 + Math.random() * (d / 2);
  }

  async #once(): Promise<SyncReport> {
    if (this.#fatal) throw this.#fatal;
    const report: SyncReport = { pushed: 0, pulled: 0, applied: 0, merged: 0, skipped: 0, refused: 0 };
    if (!this.#isOwner()) {
      if (this.#status.state !== 'follower') this.#setStatus({ state: 'follower' });
      return report;
    }
    this.#setStatus({ state: 'syncing' });
    await this.#checkKey();
    const { deviceId } = await this.#target.syncState(this.#tenantId);
    let pushError: ZerdaError | undefined;
    try {
      report.pushed = await this.#push(deviceId);
    } catch (e) {
      // A full quota (or a refused batch) must not stop this device from receiving the others' records.
      if (!isZerdaError(e) || e.details?.offline === true || e.code === 'ACCESS_DENIED') throw e;
      pushError = e;
    }
    await this.#pull(deviceId, report);
    const { pending } = await this.#target.syncState(this.#tenantId);
    if (pushError) throw pushError;
    this.#setStatus({ state: 'idle', pending, lastSyncedAt: Date.now(), progress: undefined, lastError: undefined });
    return report;
  }

  /** The tenant's key check: stored by the first device, verified by every other before it applies anything. */
  async #checkKey(): Promise<void> {
    if (this.#keyChecked) return;
    const ad = keyAssociatedData(this.#tenantId);
    let stored = await this.#request<KeyCheck | undefined>('GET', '/key', undefined, true);
    if (!stored) {
      const mine: KeyCheck = { check: toBase64(await this.#cipher.encryptText(KEY_CHECK_TEXT, ad)) };
      stored = await this.#request<KeyCheck>('PUT', '/key', mine);
    }
    let text: string | undefined;
    try {
      text = await this.#cipher.decryptText(fromBase64(stored!.check), ad);
    } catch {
      text = undefined;
    }
    if (text !== KEY_CHECK_TEXT) {
      this.#fatal = new ZerdaError(
        'DECRYPTION',
        `Wrong sync passphrase for tenant ${this.#tenantId}: its records were encrypted with another one; nothing was applied`,
      );
      throw this.#fatal;
    }
    this.#keyChecked = true;
  }

  async #push(deviceId: string): Promise<number> {
    let pushed = 0;
    for (;;) {
      const changes = await this.#target.pendingChanges(this.#tenantId, this.#batch);
      if (changes.length === 0) return pushed;
      const records = await Promise.all(changes.map((c) => this.#seal(c, deviceId)));
      await this.#request<PushResponse>('POST', '/records', { records });
      await this.#target.markPushed(
        this.#tenantId,
        changes.map((c) => c.recordId),
      );
      pushed += changes.length;
      this.#setStatus({ pending: (await this.#target.syncState(this.#tenantId)).pending });
      if (changes.length < this.#batch) return pushed;
    }
  }

  async #pull(deviceId: string, report: SyncReport): Promise<void> {
    let cursor = (await this.#target.syncState(this.#tenantId)).cursor ?? '0';
    for (;;) {
      const q = `?after=${encodeURIComponent(cursor)}&limit=${this.#batch}&exclude=${encodeURIComponent(deviceId)}`;
      const page = await this.#request<PullResponse>('GET', `/records${q}`);
      const changes: SyncChange[] = [];
      for (const r of page.records) {
        try {
          changes.push(await this.#open(r));
        } catch (e) {
          report.refused++;
          this.#emit({ type: 'error', error: refusal(r, e) });
        }
      }
      const applied = await this.#target.applyChanges(this.#tenantId, changes, page.cursor);
      cursor = page.cursor;
      report.pulled += changes.length;
      report.applied += applied.applied;
      report.merged += applied.merged;
      report.skipped += applied.skipped;
      if (changes.length) this.#emit({ type: 'applied', report: applied });
      this.#setStatus({ progress: { pulled: report.pulled, remaining: page.remaining } });
      this.#emit({ type: 'progress', pulled: report.pulled, remaining: page.remaining });
      if (!page.more) return;
    }
  }

  async #seal(change: SyncChange, deviceId: string): Promise<WireRecord> {
    const head = { id: change.recordId, device: deviceId, hlc: change.hlc };
    const data = await this.#cipher.encryptJson(change, recordAssociatedData(this.#tenantId, head));
    return { ...head, data: toBase64(data) };
  }

  async #open(r: WireRecord): Promise<SyncChange> {
    const change = await this.#cipher.decryptJson<SyncChange>(
      fromBase64(r.data),
      recordAssociatedData(this.#tenantId, r),
    );
    const valid = validateSyncChange(change, this.#tenantId);
    if (valid.recordId !== r.id || valid.hlc !== r.hlc)
      invalid('record', `a change with record id ${r.id} and clock ${r.hlc}`, `${valid.recordId} at ${valid.hlc}`);
    return valid;
  }

  async #request<T>(method: string, path: string, body?: unknown, allowMissing = false): Promise<T> {
    const send = async () =>
      this.#fetch(this.#base + path, {
        method,
        headers: {
          authorization: `Bearer ${await this.#token()}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    let res: Response;
    try {
      try {
        res = await send();
      } catch (e) {
        // A kept-alive socket the server closed while idle fails the next request before any answer:
        // the server is up, so one new attempt now (every request is idempotent) rather than a backoff.
        if (!droppedConnection(e)) throw e;
        res = await send();
      }
    } catch (e) {
      throw new ZerdaError('STORAGE', `The sync server at ${this.#base} cannot be reached`, {
        cause: e,
        details: { offline: true },
      });
    }
    if (allowMissing && res.status === 404) return undefined as T;
    let payload: unknown;
    try {
      payload = await res.json();
    } catch (e) {
      payload = undefined;
      if (res.ok)
        throw new ZerdaError('STORAGE', `The sync server answered ${method} ${path} with no JSON`, { cause: e });
    }
    if (res.ok) return payload as T;
    const err = (payload as { error?: { code?: string; message?: string } } | undefined)?.error;
    const offline = res.status >= 500 && res.status !== 507;
    throw new ZerdaError(
      (offline ? 'STORAGE' : (err?.code ?? 'STORAGE')) as ZerdaError['code'],
      `Sync server: ${err?.message ?? `HTTP ${res.status}`}`,
      { details: { status: res.status, ...(offline ? { offline: true } : {}) } },
    );
  }

  #setStatus(patch: Partial<SyncStatus>): void {
    this.#status = { ...this.#status, ...patch };
    this.#emit({ type: 'status', status: this.status });
  }

  #emit(event: SyncEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure is its own; sync goes on.
      }
    }
  }
}

/** Codes and messages of a connection reset by the peer (Node's undici, its sockets; browsers retry such requests themselves). */
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const DROPPED_MESSAGE = /socket hang up|other side closed|ECONNRESET|EPIPE/i;

/** True when a fetch failed because its connection was reset or closed by the server (not refused, not aborted). */
function droppedConnection(e: unknown): boolean {
  for (let c = e, depth = 0; c instanceof Error && depth < 4; c = c.cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if ((typeof code === 'string' && DROPPED_CODES.has(code)) || DROPPED_MESSAGE.test(c.message)) return true;
  }
  return false;
}

function refusal(r: WireRecord, cause: unknown): ZerdaError {
  const code = isZerdaError(cause, 'VALIDATION') ? 'VALIDATION' : 'DECRYPTION';
  return new ZerdaError(
    code,
    code === 'DECRYPTION'
      ? `Sync record ${r.id} was refused: it does not decrypt for this tenant (tampered, replayed from another tenant, or sealed for another context); the rest syncs`
      : `Sync record ${r.id} was refused: ${(cause as Error).message}; the rest syncs`,
    { cause, details: { recordId: r.id, device: r.device } },
  );
}
