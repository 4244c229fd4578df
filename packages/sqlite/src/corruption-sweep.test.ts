import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import type { MemoryEntry } from '@zerda/core';
import { seededRandom } from '@zerda/core/testing';
import { FilePersistence, parseBase, scanLog } from './file-persistence.js';
import { decodeRecord } from './record-codec.js';
import { SqliteStorage } from './sqlite-storage.js';
import { useTempDirs } from '../test/temp-dirs.js';

// Seeded, deterministic damage sweeps over the files of a small database: one flipped bit in every
// byte of the log and of the snapshot, and the files cut at every length. Damage must give either
// a valid prefix of the history (reported as dropped records) or a typed STORAGE error that says
// what to do — never a silently smaller database and never a record that comes back.

const T0 = 1_700_000_000_000;
/**
 * `ZERDA_FULL_SWEEP=1` runs every trial (every byte and every length of both files, through a real
 * open each); the default run keeps the test command short: every log byte, every 5th log length
 * (plus every record boundary and its neighbours), and the snapshot's header, record framing, last
 * bytes and a seeded sample, with the checksum-level check over every 16th snapshot byte.
 */
const FULL = process.env.ZERDA_FULL_SWEEP === '1';
const tempDir = useTempDirs('sweep');

function fact(i: number): MemoryEntry {
  return createEntry('t1', { content: { title: `n${i}`, text: `sweep memory ${i}` } }, T0 + i);
}

interface Fixture {
  template: string;
  log: Uint8Array;
  base: Uint8Array;
  /** Ids after each prefix of the log: states[k] = after k records. */
  states: string[][];
}

/** 3 memories in the snapshot, a backup of them, then a log of 4 records (put, put, delete, put). */
async function buildFixture(): Promise<Fixture> {
  const template = await tempDir();
  const s = await SqliteStorage.open({
    persistence: new FilePersistence({ dir: template }),
    backups: { enabled: false },
  });
  const es = Array.from({ length: 6 }, (_, i) => fact(i));
  await s.putMany(es.slice(0, 3));
  await s.compact();
  await s.createBackup();
  const ids = (set: MemoryEntry[]) => set.map((e) => e.id).sort();
  const states = [ids(es.slice(0, 3))];
  await s.put(es[3]!);
  states.push(ids(es.slice(0, 4)));
  await s.put(es[4]!);
  states.push(ids(es.slice(0, 5)));
  await s.delete('t1', es[0]!.id);
  states.push(ids(es.slice(1, 5)));
  await s.put(es[5]!);
  states.push(ids(es.slice(1, 6)));
  await s.close();
  return {
    template,
    log: new Uint8Array(await readFile(join(template, 'main.log'))),
    base: new Uint8Array(await readFile(join(template, 'main.base'))),
    states,
  };
}

type Outcome = 'prefix' | 'boundary prefix' | 'whole' | 'storage-error';

/**
 * Open `dir` and classify what came out; fails the test on anything else. `boundary`: the log was
 * cut exactly between two records, which looks like (and is) a log whose later appends never
 * happened, so that prefix cannot be reported.
 */
async function check(dir: string, f: Fixture, what: string, boundary = false): Promise<Outcome> {
  let s: SqliteStorage;
  try {
    s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
  } catch (e) {
    expect(isZerdaError(e, 'STORAGE'), `${what}: ${String(e)}`).toBe(true);
    // The way out is in the message.
    expect((e as Error).message, what).toMatch(/restoreFrom|importJson/);
    return 'storage-error';
  }
  try {
    const ids = (await s.query({ tenantId: 't1' })).map((e) => e.id).sort();
    const k = f.states.findIndex((st) => JSON.stringify(st) === JSON.stringify(ids));
    expect(k, `${what}: opened with ids that are no prefix of the history`).toBeGreaterThanOrEqual(0);
    if (k === f.states.length - 1) return 'whole';
    if (boundary && s.openReport.droppedLogRecords === 0) return 'boundary prefix';
    // A smaller database is never silent.
    expect(s.openReport.droppedLogRecords, `${what}: lost ${f.states.length - 1 - k} records silently`).toBeGreaterThan(
      0,
    );
    return 'prefix';
  } finally {
    await s.close();
  }
}

describe('damage sweeps over a small file database (seeded)', () => {
  let f: Fixture;
  let dir: string;
  const tally: Record<string, Record<Outcome, number>> = {};
  const count = (kind: string, o: Outcome) => {
    tally[kind] ??= { prefix: 0, 'boundary prefix': 0, whole: 0, 'storage-error': 0 };
    tally[kind][o]++;
  };
  beforeAll(async () => {
    f = await buildFixture();
    dir = await tempDir();
    await rm(dir, { recursive: true });
    await cp(f.template, dir, { recursive: true });
  });
  afterAll(() => {
    console.info(`[corruption-sweep] trials by outcome: ${JSON.stringify(tally)}`);
  });

  async function trial(
    file: 'main.log' | 'main.base',
    bytes: Uint8Array,
    what: string,
    boundary = false,
  ): Promise<Outcome> {
    // Opening only ever rewrites main.log (dropping a damaged tail) and the lock: restore both files.
    await writeFile(join(dir, 'main.log'), file === 'main.log' ? bytes : f.log);
    await writeFile(join(dir, 'main.base'), file === 'main.base' ? bytes : f.base);
    return check(dir, f, what, boundary);
  }

  it(`one flipped bit in ${FULL ? 'every byte' : 'every frame-header byte and every 4th payload byte'} of the log: a reported prefix or a STORAGE error, never a resurrected record`, async () => {
    const rnd = seededRandom(11);
    const headers = new Set([
      0,
      1,
      2,
      3,
      ...scanLog(f.log).frames.flatMap((fr) => Array.from({ length: 16 }, (_, k) => fr.offset + k)),
    ]);
    for (let i = 0; i < f.log.length; i++) {
      const bit = 1 << Math.floor(rnd() * 8);
      if (!FULL && !headers.has(i) && i % 4 !== 0) continue;
      const bytes = f.log.slice();
      bytes[i]! ^= bit;
      const o = await trial('main.log', bytes, `log byte ${i}`);
      // Only the 4-byte file header may be damaged without losing anything (frames carry their own checksums).
      if (i >= 4) expect(o, `log byte ${i}`).not.toBe('whole');
      count('log bit flips', o);
    }
  }, 300_000);

  it(`the log cut at ${FULL ? 'every length' : 'every 5th length and around every record boundary'}: the prefix of whole records, reported`, async () => {
    const boundaries = new Set([0, 4, ...scanLog(f.log).frames.map((fr) => fr.offset)]);
    for (let len = 0; len < f.log.length; len++) {
      if (!FULL && len % 5 !== 0 && ![...boundaries].some((b) => Math.abs(b - len) <= 1)) continue;
      const o = await trial('main.log', f.log.slice(0, len), `log cut at ${len}`, boundaries.has(len));
      expect(o, `log cut at ${len}`).not.toBe('storage-error');
      count('log truncations', o);
    }
  }, 300_000);

  it(`${FULL ? 'every byte' : 'the header and every 16th byte'} of the snapshot (driver and record checksums): any one flipped bit is detected`, async () => {
    const rnd = seededRandom(12);
    let detected = 0;
    for (let i = 0; i < f.base.length; i++) {
      const bit = 1 << Math.floor(rnd() * 8);
      if (!FULL && i % 16 !== 0 && i >= 128) continue;
      const bytes = f.base.slice();
      bytes[i]! ^= bit;
      const parsed = parseBase(bytes, 'main.base');
      if (parsed.corrupt !== undefined) detected++;
      else {
        expect(parsed.base).toHaveLength(1);
        await expect(decodeRecord(parsed.base[0]!, undefined), `snapshot byte ${i}`).rejects.toThrow(/checksum/);
        detected++;
      }
    }
    expect(detected).toBe(FULL ? f.base.length : 128 + Math.ceil((f.base.length - 128) / 16));
    tally['snapshot bit flips (driver + record checksums)'] = {
      prefix: 0,
      'boundary prefix': 0,
      whole: 0,
      'storage-error': detected,
    };
  }, 300_000);

  it('the snapshot cut at every length is reported corrupt, never read as a smaller snapshot', () => {
    for (let len = 0; len < f.base.length; len++)
      expect(parseBase(f.base.subarray(0, len), 'main.base').corrupt, `cut at ${len}`).toBeDefined();
    tally['snapshot truncations (driver)'] = {
      prefix: 0,
      'boundary prefix': 0,
      whole: 0,
      'storage-error': f.base.length,
    };
  });

  it('the snapshot damaged in its header, record framing and a seeded sample of its payload: STORAGE error, and restoreFrom restores the backup and replays the newer log records', async () => {
    const rnd = seededRandom(13);
    const positions = new Set<number>();
    for (let i = 0; i < 96; i++) positions.add(i);
    for (let i = f.base.length - 16; i < f.base.length; i++) positions.add(i);
    while (positions.size < 96 + 16 + (FULL ? 1024 : 32)) positions.add(Math.floor(rnd() * f.base.length));
    const cuts = [0, 3, 10, 19, 20, 25, f.base.length >> 1, f.base.length - 1];
    const cases: [string, Uint8Array][] = [
      ...[...positions]
        .sort((a, b) => a - b)
        .map((i): [string, Uint8Array] => {
          const bytes = f.base.slice();
          bytes[i]! ^= 1 << Math.floor(rnd() * 8);
          return [`snapshot byte ${i}`, bytes];
        }),
      ...cuts.map((len): [string, Uint8Array] => [`snapshot cut at ${len}`, f.base.slice(0, len)]),
    ];
    for (const [what, bytes] of cases) {
      const o = await trial('main.base', bytes, what);
      expect(o, what).toBe('storage-error');
      count('snapshot damage (open)', o);
      const r = await SqliteStorage.open({ persistence: new FilePersistence({ dir }), restoreFrom: 'latest' });
      expect(r.openReport.restoredFrom, what).toBeDefined();
      expect(r.openReport.replayed, what).toBe(4);
      expect((await r.query({ tenantId: 't1' })).map((e) => e.id).sort(), what).toEqual(f.states.at(-1));
      await r.close();
      // The restored database opens normally afterwards.
      const again = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
      expect(await again.count({ tenantId: 't1' }), what).toBe(5);
      await again.close();
      count('restoreFrom after snapshot damage', 'whole');
    }
  }, 300_000);
});

describe('format 1 files (before checksummed frames and headers)', () => {
  it('migrate on open: same memories, vectors and backups; written again in format 2; later writes survive', async () => {
    const raw = JSON.parse(
      gunzipSync(await readFile(new URL('../test/fixtures/file-format1.json.gz', import.meta.url))).toString('utf8'),
    ) as Record<string, string>;
    const dir = await tempDir();
    await rm(dir, { recursive: true });
    for (const [name, b64] of Object.entries(raw)) {
      const path = join(dir, name);
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, Buffer.from(b64, 'base64'));
    }
    expect((await readFile(join(dir, 'main.base'))).readUInt32LE(0)).toBe(0x3153425a);
    const s = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    // The fixture: m0..m4 in the snapshot, then m5, m6 put, m2 deleted, a backup, m7 put; vectors of m0, m1, m7.
    expect((await s.query({ tenantId: 't1' })).map((e) => e.id).sort()).toEqual([
      'm0',
      'm1',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
    expect(s.openReport.droppedLogRecords).toBe(0);
    expect((await s.loadVectors('t1', 'vm'))?.ids).toEqual(['m0', 'm1', 'm7']);
    const [backup] = await s.listBackups();
    expect(backup).toBeDefined();
    expect((await readFile(join(dir, 'main.base'))).readUInt32LE(0)).toBe(0x3253425a);
    expect((await readFile(join(dir, 'main.log'))).readUInt32LE(0)).toBe(0x32474c5a);
    // The fixture's schema is older than this build's: opening migrated it and folds the log into a
    // fresh snapshot in the write queue (exportJson runs after it), so no record is left to replay.
    await s.exportJson();
    expect(scanLog(new Uint8Array(await readFile(join(dir, 'main.log')))).frames.length).toBe(0);
    await s.put({ ...fact(8), id: 'm8' });
    await s.close();
    const again = await SqliteStorage.open({ persistence: new FilePersistence({ dir }) });
    expect(await again.count({ tenantId: 't1' })).toBe(8);
    expect((await again.restoreBackup(backup!.id)).added).toBe(6);
    await again.close();
  });
});
