import type { Database, SqlValue } from 'sql.js';
import { entryText, ZerdaError } from '@zerda/core';
import type { MemoryContent } from '@zerda/core';
import { ftsTerms } from './lexical.js';

/**
 * Main-database schema. `rid` links an entry to its FTS4 row and its tags; identity is
 * `(tenant_id, id)`. `data` holds only the fields without a column (content, accessCount, tags,
 * metadata, version), so no value is stored twice.
 * `text_lc` (lowercased text) serves the substring `text` filter. The FTS4 table is
 * external-content over `entries.terms` (added in version 2), so the analysed terms are stored once. Tags live in their own table (exact, indexed), never as `LIKE` over JSON.
 */
const V1 = `
CREATE TABLE entries (
  rid INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT,
  tier TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at REAL NOT NULL,
  last_access REAL NOT NULL,
  importance REAL NOT NULL,
  doc_len INTEGER NOT NULL,
  text_lc TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (tenant_id, id)
);
CREATE INDEX entries_created ON entries (tenant_id, created_at);
CREATE INDEX entries_access ON entries (tenant_id, last_access);
CREATE INDEX entries_importance ON entries (tenant_id, importance);
CREATE INDEX entries_kind ON entries (tenant_id, kind, created_at);
CREATE INDEX entries_tier ON entries (tenant_id, tier, created_at);
CREATE TABLE entry_tags (
  tag TEXT NOT NULL,
  rid INTEGER NOT NULL,
  PRIMARY KEY (tag, rid)
) WITHOUT ROWID;
CREATE INDEX entry_tags_rid ON entry_tags (rid);
CREATE VIRTUAL TABLE entries_fts USING fts4 (content="entries", text_lc, tokenize=porter);
CREATE TABLE profiles (
  tenant_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (tenant_id, user_id)
) WITHOUT ROWID;
`;

/**
 * Version 2: the FTS table indexes core's analysed terms (`entries.terms`, see lexical.ts) with
 * the `simple` tokenizer instead of the raw text with `porter`, so CJK, accents and stemming match
 * the in-memory index. Existing rows are analysed from their stored content and the index rebuilt.
 */
function v2(db: Database): void {
  db.exec(`
ALTER TABLE entries ADD COLUMN terms TEXT NOT NULL DEFAULT '';
DROP TABLE entries_fts;
CREATE VIRTUAL TABLE entries_fts USING fts4 (content="entries", terms, tokenize=simple);
`);
  const read = db.prepare('SELECT rid, data FROM entries');
  const write = db.prepare('UPDATE entries SET terms = ?, doc_len = ? WHERE rid = ?');
  try {
    while (read.step()) {
      const [rid, data] = read.get();
      const content = (JSON.parse(data as string) as { content: MemoryContent }).content;
      const terms = ftsTerms(entryText({ content }));
      write.run([terms.join(' '), terms.length, rid as number]);
    }
  } finally {
    read.free();
    write.free();
  }
  db.exec(`INSERT INTO entries_fts (entries_fts) VALUES ('rebuild')`);
}

/**
 * Version 3: the change log for sync. One row per entity (entry or profile) that changed since the
 * row's tombstone expired: its latest version's record id, clock and device, the version vector and
 * counters (JSON), and whether it still has to be pushed. `sync_cursor` holds each tenant's server
 * cursor; `sync_device` this database's device id, written with the first stamped write.
 */
const V3 = `
CREATE TABLE sync_log (
  seq INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  record_id TEXT NOT NULL,
  op TEXT NOT NULL,
  hlc TEXT NOT NULL,
  device_id TEXT NOT NULL,
  pending INTEGER NOT NULL,
  clock TEXT NOT NULL,
  counters TEXT,
  UNIQUE (tenant_id, kind, key)
);
CREATE INDEX sync_log_pending ON sync_log (tenant_id, pending, seq);
CREATE INDEX sync_log_record ON sync_log (tenant_id, record_id);
CREATE TABLE sync_cursor (
  tenant_id TEXT PRIMARY KEY,
  cursor TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE sync_device (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  device_id TEXT NOT NULL
);
`;

/** Forward migrations: `MIGRATIONS[i]` takes a database from version `i` to `i + 1`. */
const MIGRATIONS: readonly (string | ((db: Database) => void))[] = [V1, v2, V3];

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Bring `db` up to {@link SCHEMA_VERSION} (`PRAGMA user_version`), in one transaction, and return
 * the version it had (0 for a new database). A database from a newer build fails with `STORAGE`
 * instead of being misread.
 */
export function migrate(db: Database): number {
  const version = Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
  if (version > SCHEMA_VERSION)
    throw new ZerdaError(
      'STORAGE',
      `Database schema version ${version} is newer than this build supports (${SCHEMA_VERSION}); upgrade @zerda/sqlite`,
    );
  if (version === SCHEMA_VERSION) return version;
  db.exec('BEGIN');
  try {
    for (let v = version; v < SCHEMA_VERSION; v++) {
      const step = MIGRATIONS[v]!;
      if (typeof step === 'string') db.exec(step);
      else step(db);
    }
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (e) {
    db.exec('ROLLBACK');
    throw e;
  }
  return version;
}

/**
 * Connection settings (not stored in the file, so applied after every open). The database is in
 * WASM memory: an in-memory rollback journal and no syncs cost nothing in safety (durability comes
 * from the persistence log), and a larger page cache avoids copying pages out of MEMFS.
 */
export function tune(db: Database): void {
  db.exec(
    'PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;',
  );
}

/**
 * Each tenant's entry count and total document length (the BM25 corpus statistics), kept by
 * triggers in the connection's temp schema: never in the file, so no schema version. A tenant's row
 * is added the first time it is needed ({@link tenantStats}) and from then on follows every insert
 * and delete, inside the same transaction; without it each lexical search read every tenant row.
 */
export function trackTenantStats(db: Database): void {
  db.exec(`
CREATE TEMP TABLE tenant_stats (tenant_id TEXT PRIMARY KEY, n INTEGER NOT NULL, len INTEGER NOT NULL) WITHOUT ROWID;
CREATE TEMP TRIGGER tenant_stats_add AFTER INSERT ON main.entries BEGIN
  UPDATE tenant_stats SET n = n + 1, len = len + NEW.doc_len WHERE tenant_id = NEW.tenant_id;
END;
CREATE TEMP TRIGGER tenant_stats_drop AFTER DELETE ON main.entries BEGIN
  UPDATE tenant_stats SET n = n - 1, len = len - OLD.doc_len WHERE tenant_id = OLD.tenant_id;
END;
CREATE TEMP TRIGGER tenant_stats_change AFTER UPDATE OF tenant_id, doc_len ON main.entries BEGIN
  UPDATE tenant_stats SET n = n - 1, len = len - OLD.doc_len WHERE tenant_id = OLD.tenant_id;
  UPDATE tenant_stats SET n = n + 1, len = len + NEW.doc_len WHERE tenant_id = NEW.tenant_id;
END;
`);
}

/** Runs one statement and returns its rows (the store's cached statements). */
export interface SqlRows {
  /** The rows of `sql` with `params` bound. */
  rows(sql: string, params: SqlValue[]): SqlValue[][];
}

/** `tenantId`'s entry count and total document length (see {@link trackTenantStats}). */
export function tenantStats(db: SqlRows, tenantId: string): { n: number; totalLength: number } {
  const kept = db.rows('SELECT n, len FROM temp.tenant_stats WHERE tenant_id = ?', [tenantId])[0];
  if (kept) return { n: Number(kept[0]), totalLength: Number(kept[1]) };
  // One statement, so the row holds the count as of the same moment the triggers take over.
  db.rows(
    `INSERT INTO temp.tenant_stats (tenant_id, n, len)
     SELECT ?1, count(*), coalesce(sum(doc_len), 0) FROM main.entries WHERE tenant_id = ?1`,
    [tenantId],
  );
  return tenantStats(db, tenantId);
}

/** The vector table lives in an attached in-memory database, so `db.export()` (main only) never includes it. */
export function attachVectors(db: Database): void {
  db.exec(`
ATTACH DATABASE ':memory:' AS vec;
CREATE TABLE vec.vectors (
  tenant_id TEXT NOT NULL,
  model_id TEXT NOT NULL,
  dim INTEGER NOT NULL,
  id TEXT NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (tenant_id, model_id, id)
) WITHOUT ROWID;
CREATE INDEX vec.vectors_entry ON vectors (tenant_id, id);
`);
}
