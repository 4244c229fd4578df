import { randomUUID } from 'node:crypto';
import { link, mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { ZerdaError } from '@zerda/core';
import { invalid } from '@zerda/core/adapter';
import { byCreated, persistenceError } from './persistence.js';
import type { AppendRecord, BackupInfo, FullState, LogRecord, Persistence, StreamName } from './persistence.js';
import type { StreamState } from './persistence.js';
import { crc32, recordChecksumOk } from './record-codec.js';

/** Options of {@link FilePersistence}. */
export interface FilePersistenceOptions {
  /** Directory holding the database (created when missing). */
  dir: string;
  /** fsync after every append (default true). Turning it off trades crash safety for speed. */
  fsync?: boolean;
}

const BASE_MAGIC_V1 = 0x3153425a; // "ZBS1"
const BASE_MAGIC = 0x3253425a; // "ZBS2"
const LOG_MAGIC = 0x32474c5a; // "ZLG2"
const LOG_HEADER = 4;
const FRAME_V1 = 12; // uint32 length + float64 seq
const FRAME = 16; // uint32 crc + uint32 length + float64 seq
const LOCK_PREFIX = 'lock.';
const LEGACY_LOCK = 'lock';
const PENDING = 'replace.pending';
const STAGING_PREFIX = '.replace-';
const TMP_MARK = '.tmp-';
/** Directories open in this process (the lock file cannot tell two instances of one process apart). */
const OPEN_DIRS = new Set<string>();

/**
 * Test-only fault injection: called before each step of `replaceAll` (`name` says which); a test
 * child process kills itself there to check that a crash at any step loses nothing. Not exported
 * by the package.
 */
export const replaceAllHooks: { beforeStep?: (name: string) => void } = {};

interface Frame {
  seq: number;
  offset: number;
  length: number;
}

interface Scan {
  frames: Frame[];
  /** Byte offset just past the last valid frame. */
  end: number;
  /** An incomplete or damaged frame follows `end`. */
  torn: boolean;
}

/** Who holds the directory (written into the lock file before the lock counts). */
interface Holder {
  pid: number;
  host: string;
  token: string;
  since: number;
}

/**
 * {@link Persistence} on files, for Node. Layout of `dir` (format 2):
 *
 * - `meta` — the meta record.
 * - `<stream>.base` — `"ZBS2"`, uint32 count, float64 upto, count × uint32 record length, uint32
 *   CRC-32 of everything before it, then the records (each carries its own checksum). A damaged
 *   header is reported as a corrupt base (the storage then fails with `STORAGE` and points to
 *   `restoreFrom`), never read as a smaller one. Written to a temp file, checked to be complete,
 *   fsynced, renamed over the old one, directory fsynced.
 * - `<stream>.log` — `"ZLG2"`, then append-only frames: uint32 CRC-32 of the rest of the frame,
 *   uint32 length, float64 seq, bytes; fsynced per append. Reading stops at the first frame that
 *   is incomplete or fails its checksum (a flipped sequence number or length included): the valid
 *   prefix is replayed and the rest reported as dropped.
 * - `backups/<id>.bak` — uint32 info length, info JSON, bytes.
 * - `lock.<n>` — who has the directory open: `{pid, host, token, since}`, written completely to a
 *   temp file and then hard-linked into place, so a lock file never exists half-written, and
 *   creating `lock.<n>` can succeed for one process only. The holder is the highest `n`; a stale
 *   holder (dead pid) is taken over by creating `lock.<n+1>`, which only one of several racing
 *   processes can do. Losers get `CONFLICT` naming the holder.
 *
 * Format 1 files (`"ZBS1"` bases without a header checksum, logs of uint32 length + float64 seq
 * frames, a `lock` file holding a pid) are migrated to format 2 when the directory is opened.
 *
 * Every write checks that all its bytes were written; a failed or short write (disk full:
 * `QUOTA_EXCEEDED`) is undone — an append is cut off again, a temp file removed — so nothing
 * partial is acknowledged or renamed into place.
 *
 * An append that touches both streams writes `vectors.log` then `main.log`; if the second fails,
 * the first is cut back too. Compaction writes the new base first, then rewrites the log without
 * the covered records; if the process dies in between, the covered records are skipped on read
 * because their seq <= upto. `replaceAll` (passphrase change) writes every new file into a staging
 * directory, commits it with one rename (`replace.pending`), then moves the files into place; a
 * crash before the commit leaves the old database, a crash after it is finished on the next open.
 */
export class FilePersistence implements Persistence {
  readonly description: string;
  readonly #dir: string;
  readonly #fsync: boolean;
  readonly #scans = new Map<StreamName, Scan>();
  readonly #handles = new Map<StreamName, FileHandle>();
  #ready: Promise<void> | undefined;
  #lockName: string | undefined;
  #token: string | undefined;

  constructor(options: FilePersistenceOptions) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object {dir}', options);
    for (const k of Object.keys(options))
      if (k !== 'dir' && k !== 'fsync') invalid(`options.${k}`, 'one of dir, fsync', k);
    if (typeof options.dir !== 'string' || options.dir === '') invalid('options.dir', 'a directory path', options.dir);
    if (options.fsync !== undefined && typeof options.fsync !== 'boolean')
      invalid('options.fsync', 'a boolean', options.fsync);
    this.#dir = options.dir;
    this.#fsync = options.fsync ?? true;
    this.description = `file:${options.dir}`;
  }

  #init(): Promise<void> {
    this.#ready ??= this.#lock()
      .then(() => this.#recover())
      .catch(async (e: unknown) => {
        await this.#unlock().catch(() => undefined);
        this.#ready = undefined;
        throw persistenceError(`Cannot open ${this.#dir}`, e);
      });
    return this.#ready;
  }

  async #lock(): Promise<void> {
    const key = resolve(this.#dir);
    if (OPEN_DIRS.has(key)) throw new ZerdaError('CONFLICT', `${this.#dir} is already open in this process`);
    OPEN_DIRS.add(key);
    try {
      await this.#lockFile();
    } catch (e) {
      OPEN_DIRS.delete(key);
      throw e;
    }
  }

  async #lockFile(): Promise<void> {
    await mkdir(join(this.#dir, 'backups'), { recursive: true });
    // A format-1 lock file (a pid) of a process still running an older version.
    const legacy = await readFile(this.#path(LEGACY_LOCK), 'utf8').catch(missing);
    if (legacy !== undefined) {
      const pid = Number(legacy);
      if (pid !== process.pid && alive(pid))
        throw conflict(this.#dir, LEGACY_LOCK, { pid, host: hostname(), token: '', since: 0 });
    }
    const token = randomUUID();
    const me: Holder = { pid: process.pid, host: hostname(), token, since: Date.now() };
    const tmp = this.#path(`lock${TMP_MARK}${token}`);
    await this.#writeComplete(tmp, new TextEncoder().encode(JSON.stringify(me)));
    try {
      for (let attempt = 0; attempt < 20; attempt++) {
        const top = (await this.#locks())[0];
        if (top && this.#live(top.holder)) throw conflict(this.#dir, `${LOCK_PREFIX}${top.n}`, top.holder!);
        const n = (top?.n ?? 0) + 1;
        const name = `${LOCK_PREFIX}${n}`;
        try {
          // link() fails when the name exists: of several processes taking over the same stale
          // holder, exactly one creates lock.<n+1>. The file is complete before it has this name.
          await link(tmp, this.#path(name));
        } catch (e) {
          if ((e as { code?: string }).code === 'EEXIST') continue;
          throw e;
        }
        const now = await this.#locks();
        if (now[0]!.n !== n) {
          // A higher lock appeared (a holder that started meanwhile): it wins; re-evaluate it.
          await rm(this.#path(name), { force: true });
          continue;
        }
        this.#lockName = name;
        this.#token = token;
        await syncDir(this.#dir);
        for (const l of now.slice(1)) await rm(this.#path(`${LOCK_PREFIX}${l.n}`), { force: true });
        if (legacy !== undefined) await rm(this.#path(LEGACY_LOCK), { force: true });
        return;
      }
      throw new ZerdaError(
        'CONFLICT',
        `${this.#dir}: could not take the lock (other processes keep taking it over); try again`,
      );
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Lock files, highest first, with their holders (`undefined` when unreadable). */
  async #locks(): Promise<{ n: number; holder: Holder | undefined }[]> {
    const out: { n: number; holder: Holder | undefined }[] = [];
    for (const name of await readdir(this.#dir)) {
      if (!name.startsWith(LOCK_PREFIX) || !/^\d+$/.test(name.slice(LOCK_PREFIX.length))) continue;
      const text = await readFile(this.#path(name), 'utf8').catch(missing);
      if (text === undefined) continue;
      let holder: Holder | undefined;
      try {
        holder = JSON.parse(text) as Holder;
      } catch {
        holder = undefined;
      }
      out.push({ n: Number(name.slice(LOCK_PREFIX.length)), holder });
    }
    return out.sort((a, b) => b.n - a.n);
  }

  /** Whether a lock holder may still be running (unknown hosts count as running). */
  #live(h: Holder | undefined): boolean {
    if (!h || typeof h.pid !== 'number') return false;
    if (h.host !== hostname()) return true;
    // This process's own stale lock (an instance that did not close): OPEN_DIRS guards the live ones.
    if (h.pid === process.pid) return false;
    return alive(h.pid);
  }

  async #unlock(): Promise<void> {
    const name = this.#lockName;
    if (name === undefined) return;
    this.#lockName = undefined;
    const text = await readFile(this.#path(name), 'utf8').catch(() => undefined);
    if (text?.includes(this.#token!)) await rm(this.#path(name), { force: true });
    OPEN_DIRS.delete(resolve(this.#dir));
  }

  /** After taking the lock: finish or drop an interrupted replaceAll, remove temp files, migrate format 1. */
  async #recover(): Promise<void> {
    for (const name of await readdir(this.#dir)) {
      if (name.startsWith(STAGING_PREFIX) || name.includes(TMP_MARK))
        await rm(this.#path(name), { recursive: true, force: true });
    }
    for (const name of await readdir(this.#path('backups')))
      if (name.includes(TMP_MARK)) await rm(join(this.#dir, 'backups', name), { force: true });
    await this.#finishReplace();
    for (const stream of ['main', 'vectors'] as const) await this.#migrate(stream);
  }

  async #migrate(stream: StreamName): Promise<void> {
    const base = await readFile(this.#path(`${stream}.base`)).catch(missing);
    if (base && base.length >= 4 && base.readUInt32LE(0) === BASE_MAGIC_V1) {
      const v1 = parseBaseV1(new Uint8Array(base.buffer, base.byteOffset, base.byteLength));
      await this.#writeBase(stream, v1.base, v1.upto);
    }
    const log = await readFile(this.#path(`${stream}.log`)).catch(missing);
    if (log && log.length > 0 && !(log.length >= 4 && log.readUInt32LE(0) === LOG_MAGIC)) {
      const bytes = new Uint8Array(log.buffer, log.byteOffset, log.byteLength);
      const v1 = parseLogV1(bytes);
      // Only a clean format-1 log is migrated; anything else is a format-2 log with a damaged
      // header, read from its frames (each has its own checksum).
      if (v1.records.length > 0) await this.#rewriteLog(stream, v1.records);
    }
  }

  #path(name: string): string {
    return join(this.#dir, name);
  }

  async #wrap<T>(what: string, fn: () => Promise<T>): Promise<T> {
    await this.#init();
    try {
      return await fn();
    } catch (e) {
      throw persistenceError(`Failed to ${what} in ${this.#dir}`, e);
    }
  }

  async readMeta(): Promise<Uint8Array | undefined> {
    return this.#wrap('read meta', async () => {
      const b = await readFile(this.#path('meta')).catch(missing);
      return b && new Uint8Array(b);
    });
  }

  async writeMeta(bytes: Uint8Array): Promise<void> {
    await this.#wrap('write meta', () => this.#atomicWrite('meta', bytes));
  }

  async read(stream: StreamName): Promise<StreamState> {
    return this.#wrap(`read ${stream}`, async () => {
      const b = await this.#readBase(stream);
      const log = await this.#readLog(stream);
      return {
        base: b.base,
        upto: b.upto,
        log: log.records,
        ...(log.torn ? { torn: true } : {}),
        ...(b.corrupt !== undefined ? { corrupt: b.corrupt } : {}),
      };
    });
  }

  async head(stream: StreamName): Promise<number> {
    return this.#wrap(`read ${stream}`, async () => {
      const scan = await this.#scan(stream);
      return scan.frames.reduce((max, f) => Math.max(max, f.seq), await this.#baseUpto(stream));
    });
  }

  async append(records: AppendRecord[]): Promise<void> {
    await this.#wrap('append', async () => {
      const done: { stream: StreamName; end: number; frames: number }[] = [];
      try {
        // Vectors first: if the process dies between the two files, a delete has removed the
        // vectors of an entry that still exists (re-embeddable) rather than leaving orphan vectors.
        for (const stream of ['vectors', 'main'] as const) {
          const mine = records.filter((r) => r.stream === stream);
          if (mine.length === 0) continue;
          const scan = await this.#scan(stream);
          const fh = await this.#handle(stream);
          const start = Math.max(scan.end, LOG_HEADER);
          const { buf, frames } = encodeFrames(mine, start);
          const mark = { stream, end: scan.end, frames: scan.frames.length };
          done.push(mark);
          if (scan.end < LOG_HEADER) await writeFully(fh, logHeader(), 0);
          await writeFully(fh, buf, start);
          if (this.#fsync) await fh.datasync();
          scan.frames.push(...frames);
          scan.end = start + buf.length;
        }
      } catch (e) {
        // Leave every file as it was, so nothing partial is acknowledged or followed by the next append.
        for (const m of done.reverse()) {
          const scan = this.#scans.get(m.stream)!;
          const fh = await this.#handle(m.stream);
          await fh.truncate(m.end).catch(() => undefined);
          if (this.#fsync) await fh.datasync().catch(() => undefined);
          scan.frames.length = m.frames;
          scan.end = m.end;
        }
        throw e;
      }
    });
  }

  async compact(stream: StreamName, base: Uint8Array[], upto: number): Promise<void> {
    await this.#wrap(`compact ${stream}`, async () => {
      await this.#writeBase(stream, base, upto);
      const log = await this.#readLog(stream);
      await this.#rewriteLog(
        stream,
        log.records.filter((r) => r.seq > upto),
      );
    });
  }

  async truncateLog(stream: StreamName, keep: number): Promise<void> {
    await this.#wrap(`truncate ${stream}`, async () => {
      const scan = await this.#scan(stream);
      const cut = scan.frames[keep]?.offset ?? scan.end;
      const fh = await this.#handle(stream);
      await fh.truncate(cut);
      await fh.datasync();
      scan.frames = scan.frames.filter((f) => f.offset < cut);
      scan.end = cut;
      scan.torn = false;
    });
  }

  async replaceAll(state: FullState): Promise<void> {
    await this.#wrap('rewrite the database', async () => {
      const step = (name: string) => replaceAllHooks.beforeStep?.(name);
      const staging = this.#path(`${STAGING_PREFIX}${randomUUID().slice(0, 8)}`);
      await mkdir(join(staging, 'backups'), { recursive: true });
      try {
        for (const stream of ['main', 'vectors'] as const) {
          step(`stage ${stream}`);
          await this.#writeComplete(
            join(staging, `${stream}.base`),
            encodeBase(state[stream].base, state[stream].upto),
          );
          await this.#writeComplete(join(staging, `${stream}.log`), logHeader());
        }
        for (const b of state.backups)
          await this.#writeComplete(
            join(staging, 'backups', `${safeId(b.info.id)}.bak`),
            encodeBackup(b.info, b.bytes),
          );
        // Meta last: it decides which key opens the database, so it moves into place last too.
        await this.#writeComplete(join(staging, 'meta'), state.meta);
        await syncDir(join(staging, 'backups'));
        await syncDir(staging);
        step('commit');
        await rename(staging, this.#path(PENDING));
        await syncDir(this.#dir);
      } catch (e) {
        await rm(staging, { recursive: true, force: true }).catch(() => undefined);
        throw e;
      }
      for (const fh of this.#handles.values()) await fh.close().catch(() => undefined);
      this.#handles.clear();
      this.#scans.clear();
      await this.#finishReplace();
    });
  }

  /** Move the files of a committed replaceAll into place (idempotent: resumes where a crash stopped). */
  async #finishReplace(): Promise<void> {
    const pending = this.#path(PENDING);
    const names = await readdir(pending).catch(missing);
    if (names === undefined) return;
    const step = (name: string) => replaceAllHooks.beforeStep?.(name);
    for (const name of await readdir(join(pending, 'backups')).catch(() => [] as string[])) {
      step(`move backups/${name}`);
      await rename(join(pending, 'backups', name), join(this.#dir, 'backups', name));
    }
    await syncDir(join(this.#dir, 'backups'));
    for (const name of ['main.base', 'main.log', 'vectors.base', 'vectors.log', 'meta']) {
      if (!names.includes(name)) continue;
      step(`move ${name}`);
      await rename(join(pending, name), this.#path(name)).catch(missing);
    }
    await syncDir(this.#dir);
    step('cleanup');
    await rm(pending, { recursive: true, force: true });
    await syncDir(this.#dir);
  }

  async putBackup(info: BackupInfo, bytes: Uint8Array): Promise<void> {
    await this.#wrap('write a backup', async () => {
      await this.#atomicWrite(join('backups', `${safeId(info.id)}.bak`), encodeBackup(info, bytes));
    });
  }

  async listBackups(): Promise<BackupInfo[]> {
    return this.#wrap('list backups', async () => {
      const out: BackupInfo[] = [];
      for (const name of await readdir(this.#path('backups'))) {
        if (!name.endsWith('.bak')) continue;
        const fh = await open(join(this.#dir, 'backups', name), 'r');
        try {
          const head = new Uint8Array(4);
          await fh.read(head, 0, 4, 0);
          const len = new DataView(head.buffer).getUint32(0, true);
          const json = new Uint8Array(len);
          await fh.read(json, 0, len, 4);
          out.push(JSON.parse(new TextDecoder().decode(json)) as BackupInfo);
        } catch {
          // An unreadable backup file is skipped rather than hiding the others.
        } finally {
          await fh.close();
        }
      }
      return out.sort(byCreated);
    });
  }

  async getBackup(id: string): Promise<Uint8Array | undefined> {
    return this.#wrap('read a backup', async () => {
      const b = await readFile(join(this.#dir, 'backups', `${safeId(id)}.bak`)).catch(missing);
      if (!b) return undefined;
      const len = b.readUInt32LE(0);
      return new Uint8Array(b.subarray(4 + len));
    });
  }

  async deleteBackup(id: string): Promise<void> {
    await this.#wrap('delete a backup', () => rm(join(this.#dir, 'backups', `${safeId(id)}.bak`), { force: true }));
  }

  async close(): Promise<void> {
    for (const fh of this.#handles.values()) await fh.close().catch(() => undefined);
    this.#handles.clear();
    this.#scans.clear();
    if (this.#ready) {
      const ready = this.#ready;
      this.#ready = undefined;
      if (
        await ready.then(
          () => true,
          () => false,
        )
      )
        await this.#unlock();
    }
  }

  async #handle(stream: StreamName): Promise<FileHandle> {
    let fh = this.#handles.get(stream);
    if (!fh) {
      fh = await open(this.#path(`${stream}.log`), 'r+').catch(async (e: unknown) => {
        if ((e as { code?: string }).code !== 'ENOENT') throw e;
        return open(this.#path(`${stream}.log`), 'w+');
      });
      this.#handles.set(stream, fh);
    }
    return fh;
  }

  async #scan(stream: StreamName): Promise<Scan> {
    let scan = this.#scans.get(stream);
    if (scan) return scan;
    const fh = await this.#handle(stream);
    const size = (await fh.stat()).size;
    const bytes = new Uint8Array(size);
    await readFully(fh, bytes, 0);
    scan = scanLog(bytes);
    this.#scans.set(stream, scan);
    return scan;
  }

  async #readLog(stream: StreamName): Promise<{ records: LogRecord[]; torn: boolean }> {
    const scan = await this.#scan(stream);
    const fh = await this.#handle(stream);
    const records: LogRecord[] = [];
    for (const f of scan.frames) {
      const bytes = new Uint8Array(f.length);
      await readFully(fh, bytes, f.offset + FRAME);
      records.push({ seq: f.seq, bytes });
    }
    return { records, torn: scan.torn };
  }

  async #rewriteLog(stream: StreamName, records: LogRecord[]): Promise<void> {
    const { buf, frames } = encodeFrames(records, LOG_HEADER);
    const file = new Uint8Array(LOG_HEADER + buf.length);
    file.set(logHeader(), 0);
    file.set(buf, LOG_HEADER);
    await this.#handles.get(stream)?.close();
    this.#handles.delete(stream);
    this.#scans.delete(stream);
    await this.#atomicWrite(`${stream}.log`, file);
    this.#scans.set(stream, { frames, end: file.length, torn: false });
  }

  async #readBase(stream: StreamName): Promise<{ base: Uint8Array[]; upto: number; corrupt?: string }> {
    const buf = await readFile(this.#path(`${stream}.base`)).catch(missing);
    if (!buf) return { base: [], upto: 0 };
    return parseBase(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), `${stream}.base`);
  }

  /** The base's `upto` from its header alone (0 when there is no base or its header is damaged). */
  async #baseUpto(stream: StreamName): Promise<number> {
    const fh = await open(this.#path(`${stream}.base`), 'r').catch(missing);
    if (!fh) return 0;
    try {
      const size = (await fh.stat()).size;
      const head = new Uint8Array(Math.min(size, 20));
      await readFully(fh, head, 0);
      const dv = new DataView(head.buffer);
      if (head.length < 16) return 0;
      if (dv.getUint32(0, true) === BASE_MAGIC_V1) return dv.getFloat64(8, true);
      const headLen = 16 + 4 * dv.getUint32(4, true) + 4;
      if (dv.getUint32(0, true) !== BASE_MAGIC || headLen > size) return 0;
      const header = new Uint8Array(headLen);
      await readFully(fh, header, 0);
      return new DataView(header.buffer).getUint32(headLen - 4, true) === crc32(header.subarray(0, headLen - 4))
        ? dv.getFloat64(8, true)
        : 0;
    } finally {
      await fh.close();
    }
  }

  async #writeBase(stream: StreamName, base: Uint8Array[], upto: number): Promise<void> {
    await this.#atomicWrite(`${stream}.base`, encodeBase(base, upto));
  }

  /** Write a new file completely (every byte checked) and fsync it; on failure it is removed. */
  async #writeComplete(path: string, bytes: Uint8Array): Promise<void> {
    const fh = await open(path, 'w');
    try {
      await writeFully(fh, bytes, 0);
      await fh.sync();
    } catch (e) {
      await fh.close().catch(() => undefined);
      // A partial file frees its space and is never renamed into place.
      await rm(path, { force: true }).catch(() => undefined);
      throw e;
    }
    await fh.close();
  }

  /** Write to a temp file (complete, fsynced), rename over `name`, fsync the directory. */
  async #atomicWrite(name: string, bytes: Uint8Array): Promise<void> {
    const path = this.#path(name);
    const tmp = `${path}${TMP_MARK}${randomUUID().slice(0, 8)}`;
    await this.#writeComplete(tmp, bytes);
    try {
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
    await syncDir(join(path, '..'));
  }
}

/** Create a {@link FilePersistence}. */
export function createFilePersistence(options: FilePersistenceOptions): FilePersistence {
  return new FilePersistence(options);
}

/** Write all of `bytes` at `position`, looping over short writes; a write that makes no progress is ENOSPC. */
async function writeFully(fh: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten <= 0)
      throw Object.assign(new Error(`short write (${done} of ${bytes.length} bytes)`), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

async function readFully(fh: FileHandle, into: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await fh.read(into, done, into.length - done, position + done);
    if (bytesRead <= 0) throw new Error(`unexpected end of file (${done} of ${into.length} bytes)`);
    done += bytesRead;
  }
}

async function syncDir(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

function logHeader(): Uint8Array {
  const h = new Uint8Array(LOG_HEADER);
  new DataView(h.buffer).setUint32(0, LOG_MAGIC, true);
  return h;
}

/** Frames for `records`, the first at file offset `start`. */
function encodeFrames(
  records: { seq: number; bytes: Uint8Array }[],
  start: number,
): { buf: Uint8Array; frames: Frame[] } {
  const buf = new Uint8Array(records.reduce((n, r) => n + FRAME + r.bytes.length, 0));
  const dv = new DataView(buf.buffer);
  const frames: Frame[] = [];
  let at = 0;
  for (const r of records) {
    dv.setUint32(at + 4, r.bytes.length, true);
    dv.setFloat64(at + 8, r.seq, true);
    buf.set(r.bytes, at + FRAME);
    dv.setUint32(at, crc32(buf.subarray(at + 4, at + FRAME + r.bytes.length)), true);
    frames.push({ seq: r.seq, offset: start + at, length: r.bytes.length });
    at += FRAME + r.bytes.length;
  }
  return { buf, frames };
}

/** The valid frames of a format-2 log (a damaged header is skipped: every frame has its own checksum). */
export function scanLog(bytes: Uint8Array): Scan {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: Frame[] = [];
  if (bytes.length === 0) return { frames, end: 0, torn: false };
  if (bytes.length < LOG_HEADER) return { frames, end: 0, torn: true };
  let at = LOG_HEADER;
  let torn = false;
  let prev = 0;
  while (at < bytes.length) {
    if (bytes.length - at < FRAME) {
      torn = true;
      break;
    }
    const length = dv.getUint32(at + 4, true);
    const seq = dv.getFloat64(at + 8, true);
    if (
      at + FRAME + length > bytes.length ||
      dv.getUint32(at, true) !== crc32(bytes.subarray(at + 4, at + FRAME + length)) ||
      !Number.isInteger(seq) ||
      seq <= prev
    ) {
      torn = true;
      break;
    }
    frames.push({ seq, offset: at, length });
    prev = seq;
    at += FRAME + length;
  }
  return { frames, end: at, torn };
}

/** A format-1 log: frames up to the first incomplete or implausible one, kept only when each record's own checksum holds. */
function parseLogV1(bytes: Uint8Array): { records: LogRecord[] } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: LogRecord[] = [];
  let at = 0;
  while (bytes.length - at >= FRAME_V1) {
    const length = dv.getUint32(at, true);
    const seq = dv.getFloat64(at + 4, true);
    if (at + FRAME_V1 + length > bytes.length || !Number.isInteger(seq) || seq < 1) break;
    const rec = bytes.slice(at + FRAME_V1, at + FRAME_V1 + length);
    if (!recordChecksumOk(rec)) break;
    records.push({ seq, bytes: rec });
    at += FRAME_V1 + length;
  }
  return { records };
}

function encodeBase(base: Uint8Array[], upto: number): Uint8Array {
  const headLen = 16 + 4 * base.length + 4;
  const buf = new Uint8Array(headLen + base.reduce((n, b) => n + b.length, 0));
  const dv = new DataView(buf.buffer);
  dv.setUint32(0, BASE_MAGIC, true);
  dv.setUint32(4, base.length, true);
  dv.setFloat64(8, upto, true);
  base.forEach((b, i) => dv.setUint32(16 + 4 * i, b.length, true));
  dv.setUint32(headLen - 4, crc32(buf.subarray(0, headLen - 4)), true);
  let at = headLen;
  for (const b of base) {
    buf.set(b, at);
    at += b.length;
  }
  return buf;
}

/** A base file: format 2 (header checked), or format 1 (read as it is, then migrated); a damaged header is reported, never guessed. */
export function parseBase(buf: Uint8Array, what: string): { base: Uint8Array[]; upto: number; corrupt?: string } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const bad = (why: string) => ({ base: [], upto: 0, corrupt: `${what} is corrupt (${why})` });
  if (buf.length < 4) return bad('too short');
  const magic = dv.getUint32(0, true);
  if (magic === BASE_MAGIC_V1) return parseBaseV1(buf);
  if (magic !== BASE_MAGIC) return bad('bad header');
  if (buf.length < 20) return bad('header cut short');
  const count = dv.getUint32(4, true);
  const headLen = 16 + 4 * count + 4;
  if (headLen > buf.length) return bad('header cut short or record count damaged');
  if (dv.getUint32(headLen - 4, true) !== crc32(buf.subarray(0, headLen - 4))) return bad('header checksum mismatch');
  const upto = dv.getFloat64(8, true);
  const base: Uint8Array[] = [];
  let at = headLen;
  for (let i = 0; i < count; i++) {
    const len = dv.getUint32(16 + 4 * i, true);
    if (at + len > buf.length) return bad('cut short');
    base.push(buf.slice(at, at + len));
    at += len;
  }
  if (at !== buf.length) return bad('trailing bytes');
  return { base, upto };
}

function parseBaseV1(buf: Uint8Array): { base: Uint8Array[]; upto: number } {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length < 16) return { base: [], upto: 0 };
  const count = dv.getUint32(4, true);
  const upto = dv.getFloat64(8, true);
  const base: Uint8Array[] = [];
  let at = 16;
  for (let i = 0; i < count; i++) {
    if (at + 4 > buf.length) break;
    const len = dv.getUint32(at, true);
    base.push(buf.slice(at + 4, Math.min(buf.length, at + 4 + len)));
    at += 4 + len;
  }
  return { base, upto };
}

function encodeBackup(info: BackupInfo, bytes: Uint8Array): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(info));
  const buf = new Uint8Array(4 + json.length + bytes.length);
  new DataView(buf.buffer).setUint32(0, json.length, true);
  buf.set(json, 4);
  buf.set(bytes, 4 + json.length);
  return buf;
}

function conflict(dir: string, lock: string, h: Holder): ZerdaError {
  const since = h.since ? `, since ${new Date(h.since).toISOString()}` : '';
  return new ZerdaError(
    'CONFLICT',
    `${dir} is open in another process (pid ${h.pid} on ${h.host}${since}); close it there first ` +
      `(if that process is not using this database, delete ${join(dir, lock)})`,
    {
      details: { pid: h.pid, host: h.host },
    },
  );
}

function missing(e: unknown): undefined {
  if ((e as { code?: string }).code === 'ENOENT') return undefined;
  throw e;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

function safeId(id: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(id)) invalid('backup id', 'letters, digits, ".", "_" or "-"', id);
  return id;
}
