import type { Database, SqlValue, Statement } from 'sql.js';
import { ZerdaError, entryText } from '@zerda/core';
import { ENTRY_COLUMNS, entryColumnValues, entryData, entryFromRow } from '@zerda/core/adapter';
import { backfillChange, localChange, stampRecordId } from '@zerda/core/adapter';
import type { MemoryEntry, UserProfile } from '@zerda/core';
import type { SyncKind } from '@zerda/core';
import type { ChangeRow, EntryRow } from '@zerda/core/adapter';
import { ftsTerms } from './lexical.js';

// SQL apply: the logical records of both streams (what the log holds) and how each one changes
// the database. Used by replay at open and by every write, so both apply the same way.

/** A change stamp as the log holds it (record id prefix, clock, device); absent in records older than the change log. */
export interface LogStamp {
  r: string;
  h: string;
  d: string;
}

/**
 * A main-stream record: entries, profiles, tenant clears and imports, and sync: `sync` writes merge
 * results resolved before the record was written (so replay writes the same), `pushed` clears
 * pending flags, `backfill` gives the tenant's entities without a change row one (core's
 * `backfillChange`; the same rows on replay, as it runs on the same state).
 */
export type MainOp =
  | { o: 'put'; e: MemoryEntry[]; st?: LogStamp }
  | { o: 'del'; t: string; ids: string[]; st?: LogStamp }
  | { o: 'prof'; p: UserProfile; st?: LogStamp }
  | { o: 'clear'; t: string; st?: LogStamp }
  | { o: 'import'; replace: boolean; ts?: string[]; e: MemoryEntry[]; p: UserProfile[] }
  | {
      o: 'sync';
      t: string;
      rows: ChangeRow[];
      put: MemoryEntry[];
      del: string[];
      pput: UserProfile[];
      pdel: string[];
      cur?: string;
      hz: string;
    }
  | { o: 'pushed'; t: string; r: string[] }
  | { o: 'backfill'; t: string; st: LogStamp };

const LOG_COLUMNS = 'tenant_id, kind, key, record_id, op, hlc, device_id, pending, clock, counters';

/** A change row from a `sync_log` row selected with {@link LOG_COLUMNS}. */
export function rowToChange(r: SqlValue[]): ChangeRow {
  const [tenantId, kind, key, recordId, op, hlc, deviceId, pending, clock, counters] = r;
  const row: ChangeRow = {
    tenantId: tenantId as string,
    kind: kind as SyncKind,
    key: key as string,
    recordId: recordId as string,
    op: op as 'put' | 'delete',
    hlc: hlc as string,
    deviceId: deviceId as string,
    clock: JSON.parse(clock as string),
    pending: Number(pending) === 1,
  };
  if (counters !== null) row.counters = JSON.parse(counters as string);
  return row;
}

export { LOG_COLUMNS };

/** A vector-stream record. */
export type VecOp =
  | { o: 'vput'; t: string; m: string; d: number; ids: string[] }
  | { o: 'vdel'; t?: string; m?: string; ids?: string[] };

/**
 * A vector record to write, with its rows (`vput`) as stored: `encodeVectorRows` bytes, float32 or
 * int8 (the length tells which), exactly what the record's tail and each `vec.vectors` row hold.
 */
export interface VecWrite {
  op: VecOp;
  bytes?: Uint8Array;
}

/** Rebuild an entry from a row selected with core's `ENTRY_COLUMNS` (its `data` is JSON text here). */
export function rowToEntry(r: SqlValue[]): MemoryEntry {
  const [tenant_id, id, user_id, tier, kind, created_at, last_access, importance, data] = r;
  return entryFromRow({
    tenant_id,
    id,
    user_id,
    tier,
    kind,
    created_at,
    last_access,
    importance,
    data: JSON.parse(data as string),
  } as EntryRow);
}

/** Run `fn` in one SQLite transaction (rolled back when it throws). */
export function transaction(db: Database, fn: () => void): void {
  db.exec('BEGIN');
  try {
    fn();
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
}

export type Applier = ((op: MainOp) => number) & { free(): void };

/** The function that applies main-stream ops to a database; returns entries added (not updated). */
export function createApplier(db: Database): Applier {
  const cache = new Map<string, Statement>();
  const prepared = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const run = (sql: string, params: SqlValue[]) => {
    prepared(sql).run(params);
  };
  const all = (sql: string, params: SqlValue[]) => {
    const s = prepared(sql);
    try {
      s.bind(params);
      const out: SqlValue[][] = [];
      while (s.step()) out.push(s.get());
      return out;
    } finally {
      s.reset();
    }
  };
  const one = (sql: string, params: SqlValue[]) => {
    const s = prepared(sql);
    try {
      s.bind(params);
      return s.step() ? s.get() : undefined;
    } finally {
      s.reset();
    }
  };
  // Upsert a batch: existing rows are found with one query and removed (FTS first: external-content
  // FTS4 reads the old text from `entries` to unindex it), new rows go in through one prepared
  // statement, and the FTS index is filled with one INSERT … SELECT over the new rowids.
  const KEYS = "SELECT json_extract(value, '$[0]') AS t, json_extract(value, '$[1]') AS i FROM json_each(?)";
  const upsertMany = (list: MemoryEntry[]): number => {
    if (list.length === 0) return 0;
    const latest = new Map<string, MemoryEntry>();
    for (const e of list) {
      const key = `${e.tenantId}\u0000${e.id}`;
      latest.delete(key);
      latest.set(key, e);
    }
    const entries = [...latest.values()];
    const keys = JSON.stringify(entries.map((e) => [e.tenantId, e.id]));
    const existing = all(
      `SELECT e.rid, e.tenant_id, e.id FROM (${KEYS}) k CROSS JOIN entries e ON e.tenant_id = k.t AND e.id = k.i`,
      [keys],
    );
    for (const [rid] of existing) {
      run('DELETE FROM entries_fts WHERE docid = ?', [rid!]);
      run('DELETE FROM entry_tags WHERE rid = ?', [rid!]);
      run('DELETE FROM entries WHERE rid = ?', [rid!]);
    }
    const before = Number(one('SELECT coalesce(max(rid), 0) FROM entries', [])![0]);
    for (const e of entries) {
      const text = entryText(e);
      const terms = ftsTerms(text);
      run(
        'INSERT INTO entries (tenant_id, id, user_id, tier, kind, created_at, last_access, importance, doc_len, text_lc, terms, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          e.tenantId,
          ...entryColumnValues(e),
          terms.length,
          text.toLowerCase(),
          terms.join(' '),
          JSON.stringify(entryData(e)),
        ],
      );
      // WITHOUT ROWID inserts leave last_insert_rowid() alone, so it still names the entry.
      for (const tag of e.tags)
        run('INSERT OR IGNORE INTO entry_tags (tag, rid) VALUES (?, last_insert_rowid())', [tag]);
    }
    run('INSERT INTO entries_fts (docid, terms) SELECT rid, terms FROM entries WHERE rid > ?', [before]);
    return entries.length - existing.length;
  };
  const remove = (t: string, id: string) => {
    const old = one('SELECT rid FROM entries WHERE tenant_id = ? AND id = ?', [t, id]);
    if (!old) return;
    run('DELETE FROM entries_fts WHERE docid = ?', [Number(old[0])]);
    run('DELETE FROM entries WHERE rid = ?', [Number(old[0])]);
    run('DELETE FROM entry_tags WHERE rid = ?', [Number(old[0])]);
  };
  const readRow = (t: string, kind: SyncKind, key: string): ChangeRow | undefined => {
    const r = one(`SELECT ${LOG_COLUMNS} FROM sync_log WHERE tenant_id = ? AND kind = ? AND key = ?`, [t, kind, key]);
    return r && rowToChange(r);
  };
  const writeRow = (row: ChangeRow) => {
    run(`INSERT OR REPLACE INTO sync_log (${LOG_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      row.tenantId,
      row.kind,
      row.key,
      row.recordId,
      row.op,
      row.hlc,
      row.deviceId,
      row.pending ? 1 : 0,
      JSON.stringify(row.clock),
      row.counters ? JSON.stringify(row.counters) : null,
    ]);
  };
  /** The change row of a local write, stamped `st` (entity `i` of the operation). */
  const logLocal = (
    st: LogStamp | undefined,
    t: string,
    kind: SyncKind,
    key: string,
    op: 'put' | 'delete',
    i: number,
    e?: MemoryEntry,
  ) => {
    if (!st) return;
    const stamp = { recordId: st.r, hlc: st.h, deviceId: st.d };
    writeRow(localChange(readRow(t, kind, key), { tenantId: t, kind, key }, op, stamp, stampRecordId(stamp, i), e));
  };
  const noteDevice = (st: LogStamp | undefined) => {
    if (st) run('INSERT OR IGNORE INTO sync_device (one, device_id) VALUES (1, ?)', [st.d]);
  };
  const profile = (p: UserProfile) =>
    run('INSERT OR REPLACE INTO profiles (tenant_id, user_id, data) VALUES (?, ?, ?)', [
      p.tenantId,
      p.userId,
      JSON.stringify(p),
    ]);
  const apply = (op: MainOp): number => {
    switch (op.o) {
      case 'put': {
        const added = upsertMany(op.e);
        if (op.st) {
          noteDevice(op.st);
          const latest = new Map<string, MemoryEntry>();
          for (const e of op.e) latest.set(`${e.tenantId}\u0000${e.id}`, e);
          [...latest.values()].forEach((e, i) => logLocal(op.st, e.tenantId, 'entry', e.id, 'put', i, e));
        }
        return added;
      }
      case 'del':
        noteDevice(op.st);
        op.ids.forEach((id, i) => {
          remove(op.t, id);
          logLocal(op.st, op.t, 'entry', id, 'delete', i);
        });
        return 0;
      case 'prof':
        noteDevice(op.st);
        profile(op.p);
        logLocal(op.st, op.p.tenantId, 'profile', op.p.userId, 'put', 0);
        return 0;
      case 'sync':
        for (const id of op.del) remove(op.t, id);
        upsertMany(op.put);
        for (const u of op.pdel) run('DELETE FROM profiles WHERE tenant_id = ? AND user_id = ?', [op.t, u]);
        for (const p of op.pput) profile(p);
        for (const row of op.rows) writeRow(row);
        run("DELETE FROM sync_log WHERE tenant_id = ? AND op = 'delete' AND pending = 0 AND hlc < ?", [op.t, op.hz]);
        if (op.cur !== undefined)
          run('INSERT OR REPLACE INTO sync_cursor (tenant_id, cursor) VALUES (?, ?)', [op.t, op.cur]);
        return 0;
      case 'pushed':
        run(
          'UPDATE sync_log SET pending = 0 WHERE tenant_id = ? AND pending = 1 AND record_id IN (SELECT value FROM json_each(?))',
          [op.t, JSON.stringify(op.r)],
        );
        return 0;
      case 'clear':
        if (op.st) {
          noteDevice(op.st);
          const ids = all('SELECT id FROM entries WHERE tenant_id = ? ORDER BY id', [op.t]).map((r) => r[0] as string);
          const users = all('SELECT user_id FROM profiles WHERE tenant_id = ? ORDER BY user_id', [op.t]).map(
            (r) => r[0] as string,
          );
          ids.forEach((id, i) => logLocal(op.st, op.t, 'entry', id, 'delete', i));
          users.forEach((u, i) => logLocal(op.st, op.t, 'profile', u, 'delete', ids.length + i));
        }
        run('DELETE FROM entries_fts WHERE docid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [op.t]);
        run('DELETE FROM entry_tags WHERE rid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [op.t]);
        run('DELETE FROM entries WHERE tenant_id = ?', [op.t]);
        run('DELETE FROM profiles WHERE tenant_id = ?', [op.t]);
        return 0;
      case 'import': {
        if (op.replace && op.ts) {
          for (const t of op.ts) {
            run('DELETE FROM entries_fts WHERE docid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [t]);
            run('DELETE FROM entry_tags WHERE rid IN (SELECT rid FROM entries WHERE tenant_id = ?)', [t]);
            run('DELETE FROM entries WHERE tenant_id = ?', [t]);
            run('DELETE FROM profiles WHERE tenant_id = ?', [t]);
          }
        } else if (op.replace) {
          run('DELETE FROM entries_fts', []);
          run('DELETE FROM entries', []);
          run('DELETE FROM entry_tags', []);
          run('DELETE FROM profiles', []);
        }
        const added = upsertMany(op.e);
        for (const p of op.p) profile(p);
        return added;
      }
      case 'backfill': {
        noteDevice(op.st);
        const stamp = { recordId: op.st.r, hlc: op.st.h, deviceId: op.st.d };
        const entries = all(
          `SELECT ${ENTRY_COLUMNS} FROM entries e WHERE e.tenant_id = ? AND NOT EXISTS
             (SELECT 1 FROM sync_log l WHERE l.tenant_id = e.tenant_id AND l.kind = 'entry' AND l.key = e.id) ORDER BY e.id`,
          [op.t],
        ).map(rowToEntry);
        const users = all(
          `SELECT p.user_id FROM profiles p WHERE p.tenant_id = ? AND NOT EXISTS
             (SELECT 1 FROM sync_log l WHERE l.tenant_id = p.tenant_id AND l.kind = 'profile' AND l.key = p.user_id) ORDER BY p.user_id`,
          [op.t],
        ).map((r) => r[0] as string);
        entries.forEach((e, i) =>
          writeRow(backfillChange({ tenantId: op.t, kind: 'entry', key: e.id }, stamp, stampRecordId(stamp, i), e)),
        );
        users.forEach((u, i) =>
          writeRow(
            backfillChange(
              { tenantId: op.t, kind: 'profile', key: u },
              stamp,
              stampRecordId(stamp, entries.length + i),
            ),
          ),
        );
        return 0;
      }
      default:
        throw new ZerdaError('STORAGE', `Unknown log record type ${(op as { o: unknown }).o}`);
    }
  };
  return Object.assign(apply, {
    free() {
      for (const s of cache.values()) s.free();
      cache.clear();
    },
  });
}

/** The dim of the tenant's stored vectors of `modelId` (one row by the primary key: every row of a model has one dim), or `undefined` when none. */
export function storedDim(db: Database, tenantId: string, modelId: string): number | undefined {
  const found = db.exec('SELECT dim FROM vec.vectors WHERE tenant_id = ? AND model_id = ? LIMIT 1', [
    tenantId,
    modelId,
  ])[0]?.values[0]?.[0];
  return found === undefined ? undefined : Number(found);
}

/** Apply one vector-stream record to `vec.vectors`. */
export function applyVec(db: Database, op: VecOp, bytes: Uint8Array | undefined): void {
  if (op.o === 'vput') {
    const stmt = db.prepare(
      'INSERT OR REPLACE INTO vec.vectors (tenant_id, model_id, dim, id, data) VALUES (?, ?, ?, ?, ?)',
    );
    try {
      // A model's dim may change only through a full delete; drop stale rows of another dim. Every
      // row of a tenant's model has one dim (this keeps it so), so one row tells: scanning them all
      // for another dim read the whole model's vectors on every write.
      const dim = storedDim(db, op.t, op.m);
      if (dim !== undefined && dim !== op.d)
        db.run('DELETE FROM vec.vectors WHERE tenant_id = ? AND model_id = ? AND dim <> ?', [op.t, op.m, op.d]);
      const rowBytes = bytes!.byteLength / op.ids.length;
      op.ids.forEach((id, i) => {
        stmt.run([op.t, op.m, op.d, id, bytes!.slice(i * rowBytes, (i + 1) * rowBytes)]);
      });
    } finally {
      stmt.free();
    }
    return;
  }
  if (op.t === undefined) db.run('DELETE FROM vec.vectors');
  else if (op.ids)
    db.run(
      'DELETE FROM vec.vectors WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))' +
        (op.m ? ' AND model_id = ?' : ''),
      [op.t, JSON.stringify(op.ids), ...(op.m ? [op.m] : [])],
    );
  else if (op.m) db.run('DELETE FROM vec.vectors WHERE tenant_id = ? AND model_id = ?', [op.t, op.m]);
  else db.run('DELETE FROM vec.vectors WHERE tenant_id = ?', [op.t]);
}
