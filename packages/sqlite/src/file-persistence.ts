import { mkdir, open, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ZerdaError, invalid } from '@zerda/core';
import { byCreated, persistenceError } from './persistence.js';
import type { AppendRecord, BackupInfo, FullState, LogRecord, Persistence, StreamName, StreamState } from './persistence.js';

/** Options of {@link FilePersistence}. */
export interface FilePersistenceOptions {
  /** Directory holding the database (created when missing). */
  dir: string;
  /** fsync after every append (default true). Turning it off trades crash safety for speed. */
  fsync?: boolean;
}

const BASE_MAGIC = 0x3153425a; // "ZBS1"
const FRAME = 12; // uint32 length + float64 seq
const LOCK = 'lock';
/** Directories open in this process (the pid lock cannot tell two instances of one process apart). */
const OPEN_DIRS = new Set<string>();

interface Frame {
  seq: number;
  offset: number;
  length: number;
}

interface Scan {
  frames: Frame[];
  /** Byte offset just past the last complete frame. */
  end: number;
  torn: boolean;
}

/**
 * {@link Persistence} on files, for Node. Layout of `dir`:
 *
 * - `meta` — the meta record.
 * - `<stream>.base` — `"ZBS1"`, uint32 count, float64 upto, then `count` × (uint32 length, bytes).
 *   Written to a temp file, fsynced, renamed over the old one, directory fsynced.
 * - `<stream>.log` — append-only frames: uint32 length, float64 seq, bytes; fsynced per append.
 *   An incomplete frame at the end (a torn append) is reported and cut before the next append.
 * - `backups/<id>.bak` — uint32 info length, info JSON, bytes.
 * - `lock` — the pid of the process that has the directory open; a second live process (or a second
 *   instance in this process) is refused with `CONFLICT`.
 *
 * An append that touches both streams writes `vectors.log` then `main.log` (two files, two
 * fsyncs; not atomic together). Compaction writes the new base first, then rewrites the log without the covered records; if the
 * process dies in between, the covered records are skipped on read because their seq <= upto.
 * `replaceAll` (passphrase change) renames several files one after another: it is not atomic
 * across files (see the README).
 */
export class FilePersistence implements Persistence {
  readonly description: string;
  readonly #dir: string;
  readonly #fsync: boolean;
  readonly #scans = new Map<StreamName, Scan>();
  readonly #handles = new Map<StreamName, FileHandle>();
  #ready: Promise<void> | undefined;

  constructor(options: FilePersistenceOptions) {
    if (typeof options !== 'object' || options === null) invalid('options', 'an object {dir}', options);
    for (const k of Object.keys(options)) if (k !== 'dir' && k !== 'fsync') invalid(`options.${k}`, 'one of dir, fsync', k);
    if (typeof options.dir !== 'string' || options.dir === '') invalid('options.dir', 'a directory path', options.dir);
    if (options.fsync !== undefined && typeof options.fsync !== 'boolean') invalid('options.fsync', 'a boolean', options.fsync);
    this.#dir = options.dir;
    this.#fsync = options.fsync ?? true;
    this.description = `file:${options.dir}`;
  }

  #init(): Promise<void> {
    this.#ready ??= this.#lock().catch((e: unknown) => {
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
    const path = join(this.#dir, LOCK);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await writeFile(path, String(process.pid), { flag: 'wx' });
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== 'EEXIST') throw e;
        const pid = Number(await readFile(path, 'utf8').catch(() => ''));
        if (pid === process.pid || !alive(pid)) {
          await rm(path, { force: true });
          continue;
        }
        throw new ZerdaError('CONFLICT', `${this.#dir} is open in another process (pid ${pid})`);
      }
    }
    throw new ZerdaError('STORAGE', `Cannot lock ${this.#dir}`);
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
      const { base, upto } = await this.#readBase(stream);
      const log = await this.#readLog(stream);
      return { base, upto, log: log.records, ...(log.torn ? { torn: true } : {}) };
    });
  }

  async head(stream: StreamName): Promise<number> {
    return this.#wrap(`read ${stream}`, async () => {
      const scan = await this.#scan(stream);
      const header = await this.#baseHeader(stream);
      return Math.max(header?.upto ?? 0, scan.frames.at(-1)?.seq ?? 0);
    });
  }

  async append(records: AppendRecord[]): Promise<void> {
    await this.#wrap('append', async () => {
      // Vectors first: if the process dies between the two files, a delete has removed the
      // vectors of an entry that still exists (re-embeddable) rather than leaving orphan vectors.
      for (const stream of ['vectors', 'main'] as const) {
        const mine = records.filter((r) => r.stream === stream);
        if (mine.length === 0) continue;
        const scan = await this.#scan(stream);
        const fh = await this.#handle(stream);
        const size = mine.reduce((n, r) => n + FRAME + r.bytes.length, 0);
        const buf = new Uint8Array(size);
        const dv = new DataView(buf.buffer);
        let at = 0;
        const frames: Frame[] = [];
        for (const r of mine) {
          dv.setUint32(at, r.bytes.length, true);
          dv.setFloat64(at + 4, r.seq, true);
          buf.set(r.bytes, at + FRAME);
          frames.push({ seq: r.seq, offset: scan.end + at, length: r.bytes.length });
          at += FRAME + r.bytes.length;
        }
        try {
          await fh.write(buf, 0, buf.length, scan.end);
          if (this.#fsync) await fh.datasync();
        } catch (e) {
          // Leave the file as it was so the next append does not follow garbage.
          await fh.truncate(scan.end).catch(() => undefined);
          throw e;
        }
        scan.frames.push(...frames);
        scan.end += buf.length;
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

  async truncate(stream: StreamName, from: number): Promise<void> {
    await this.#wrap(`truncate ${stream}`, async () => {
      const scan = await this.#scan(stream);
      const cut = scan.frames.find((f) => f.seq >= from)?.offset ?? scan.end;
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
      for (const stream of ['main', 'vectors'] as const) {
        await this.#writeBase(stream, state[stream].base, state[stream].upto);
        await this.#rewriteLog(stream, []);
      }
      for (const b of state.backups) await this.putBackup(b.info, b.bytes);
      await this.#atomicWrite('meta', state.meta);
    });
  }

  async putBackup(info: BackupInfo, bytes: Uint8Array): Promise<void> {
    await this.#wrap('write a backup', async () => {
      const json = new TextEncoder().encode(JSON.stringify(info));
      const buf = new Uint8Array(4 + json.length + bytes.length);
      new DataView(buf.buffer).setUint32(0, json.length, true);
      buf.set(json, 4);
      buf.set(bytes, 4 + json.length);
      await this.#atomicWrite(join('backups', `${safeId(info.id)}.bak`), buf);
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
      if (await ready.then(() => true, () => false)) {
        await rm(this.#path(LOCK), { force: true });
        OPEN_DIRS.delete(resolve(this.#dir));
      }
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
    const frames: Frame[] = [];
    const head = new Uint8Array(FRAME);
    const dv = new DataView(head.buffer);
    let at = 0;
    let torn = false;
    while (at < size) {
      if (size - at < FRAME) {
        torn = true;
        break;
      }
      await fh.read(head, 0, FRAME, at);
      const length = dv.getUint32(0, true);
      const seq = dv.getFloat64(4, true);
      if (at + FRAME + length > size || !Number.isInteger(seq) || seq < 1) {
        torn = true;
        break;
      }
      frames.push({ seq, offset: at, length });
      at += FRAME + length;
    }
    scan = { frames, end: at, torn };
    this.#scans.set(stream, scan);
    return scan;
  }

  async #readLog(stream: StreamName): Promise<{ records: LogRecord[]; torn: boolean }> {
    const scan = await this.#scan(stream);
    const fh = await this.#handle(stream);
    const records: LogRecord[] = [];
    for (const f of scan.frames) {
      const bytes = new Uint8Array(f.length);
      await fh.read(bytes, 0, f.length, f.offset + FRAME);
      records.push({ seq: f.seq, bytes });
    }
    return { records, torn: scan.torn };
  }

  async #rewriteLog(stream: StreamName, records: LogRecord[]): Promise<void> {
    const size = records.reduce((n, r) => n + FRAME + r.bytes.length, 0);
    const buf = new Uint8Array(size);
    const dv = new DataView(buf.buffer);
    const frames: Frame[] = [];
    let at = 0;
    for (const r of records) {
      dv.setUint32(at, r.bytes.length, true);
      dv.setFloat64(at + 4, r.seq, true);
      buf.set(r.bytes, at + FRAME);
      frames.push({ seq: r.seq, offset: at, length: r.bytes.length });
      at += FRAME + r.bytes.length;
    }
    await this.#handles.get(stream)?.close();
    this.#handles.delete(stream);
    await this.#atomicWrite(`${stream}.log`, buf);
    this.#scans.set(stream, { frames, end: at, torn: false });
  }

  async #baseHeader(stream: StreamName): Promise<{ count: number; upto: number } | undefined> {
    const fh = await open(this.#path(`${stream}.base`), 'r').catch(missing);
    if (!fh) return undefined;
    try {
      const head = new Uint8Array(16);
      const { bytesRead } = await fh.read(head, 0, 16, 0);
      const dv = new DataView(head.buffer);
      if (bytesRead < 16 || dv.getUint32(0, true) !== BASE_MAGIC) throw new ZerdaError('STORAGE', `${stream}.base is corrupt (bad header)`);
      return { count: dv.getUint32(4, true), upto: dv.getFloat64(8, true) };
    } finally {
      await fh.close();
    }
  }

  async #readBase(stream: StreamName): Promise<{ base: Uint8Array[]; upto: number }> {
    const buf = await readFile(this.#path(`${stream}.base`)).catch(missing);
    if (!buf) return { base: [], upto: 0 };
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (buf.length < 16 || dv.getUint32(0, true) !== BASE_MAGIC) throw new ZerdaError('STORAGE', `${stream}.base is corrupt (bad header)`);
    const count = dv.getUint32(4, true);
    const upto = dv.getFloat64(8, true);
    const base: Uint8Array[] = [];
    let at = 16;
    for (let i = 0; i < count; i++) {
      // A short base file cannot come from a torn write (it is renamed into place); hand back what
      // is there and let the record checksums reject it.
      if (at + 4 > buf.length) break;
      const len = dv.getUint32(at, true);
      base.push(new Uint8Array(buf.subarray(at + 4, Math.min(buf.length, at + 4 + len))));
      at += 4 + len;
    }
    return { base, upto };
  }

  async #writeBase(stream: StreamName, base: Uint8Array[], upto: number): Promise<void> {
    const size = 16 + base.reduce((n, b) => n + 4 + b.length, 0);
    const buf = new Uint8Array(size);
    const dv = new DataView(buf.buffer);
    dv.setUint32(0, BASE_MAGIC, true);
    dv.setUint32(4, base.length, true);
    dv.setFloat64(8, upto, true);
    let at = 16;
    for (const b of base) {
      dv.setUint32(at, b.length, true);
      buf.set(b, at + 4);
      at += 4 + b.length;
    }
    await this.#atomicWrite(`${stream}.base`, buf);
  }

  /** Write to a temp file, fsync, rename over `name`, fsync the directory. */
  async #atomicWrite(name: string, bytes: Uint8Array): Promise<void> {
    const path = this.#path(name);
    const tmp = `${path}.tmp`;
    const fh = await open(tmp, 'w');
    try {
      await fh.write(bytes, 0, bytes.length, 0);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
    const dir = await open(join(path, '..'), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}

/** Create a {@link FilePersistence}. */
export function createFilePersistence(options: FilePersistenceOptions): FilePersistence {
  return new FilePersistence(options);
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

