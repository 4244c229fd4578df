import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import type { Clock, JsonValue, MemoryEntry, StorageAdapter } from '@zerda/core';
import { normalizeTags, validateEntry } from '@zerda/core/adapter';

/** File name of the Python "long-term memory MCP" database inside its `memory_db/` folder. */
export const LEGACY_DB_FILE = 'memories.db';

/** What {@link importLegacyDatabase} did. */
export interface LegacyImportReport {
  /** Rows imported. */
  imported: number;
  /** Rows skipped because a field could not be read (reasons in `errors`, first 10). */
  skipped: number;
  errors: string[];
}

type Row = Record<string, unknown>;

/**
 * Import the memories of the Python "long-term memory MCP" (its SQLite `memories` table: id, title,
 * content, timestamp, tags JSON, importance 1..10, memory_type, metadata JSON, last_accessed) into
 * `tenantId`. Ids are kept, so ids the assistant saw before keep working; importance maps 1..10 to
 * 0.1..1.0; naive timestamps are read as UTC. Unreadable rows are skipped and reported, never
 * half-imported; entries are written in all-or-nothing batches. The legacy file is only read.
 */
export async function importLegacyDatabase(
  storage: StorageAdapter,
  tenantId: string,
  file: string,
): Promise<LegacyImportReport> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(await readFile(file));
  const report: LegacyImportReport = { imported: 0, skipped: 0, errors: [] };
  try {
    const result = db.exec('SELECT * FROM memories ORDER BY timestamp ASC')[0];
    if (!result) return report;
    const entries: MemoryEntry[] = [];
    for (const values of result.values) {
      const row: Row = Object.fromEntries(result.columns.map((c, i) => [c, values[i]]));
      try {
        entries.push(toEntry(row, tenantId));
      } catch (err) {
        report.skipped++;
        if (report.errors.length < 10) report.errors.push(`${String(row.id)}: ${(err as Error).message}`);
      }
    }
    for (let i = 0; i < entries.length; i += 500) {
      const batch = entries.slice(i, i + 500);
      await storage.putMany(batch);
      report.imported += batch.length;
    }
    return report;
  } finally {
    db.close();
  }
}

/** Record that the legacy import ran (so deleting every memory later never re-imports them). */
export async function writeImportMarker(
  file: string,
  source: string,
  report: LegacyImportReport,
  now: number,
): Promise<void> {
  const marker = { source, imported_at: new Date(now).toISOString(), ...report };
  await writeFile(file, JSON.stringify(marker, null, 2));
}

function toEntry(row: Row, tenantId: string): MemoryEntry {
  const id = String(row.id ?? '');
  const createdAt = parseTime(row.timestamp ?? row.created_at, 'timestamp');
  const lastAccess = row.last_accessed ? Math.max(createdAt, parseTime(row.last_accessed, 'last_accessed')) : createdAt;
  const importance = Number(row.importance ?? 5);
  if (!Number.isFinite(importance)) throw new Error(`importance ${String(row.importance)} is not a number`);
  const metadata = parseJson(row.metadata, {}) as Record<string, JsonValue>;
  const tags = parseJson(row.tags, []) as unknown;
  return validateEntry({
    id,
    tenantId,
    content: { title: String(row.title ?? ''), text: String(row.content ?? '') },
    tier: 'long_term',
    kind: String(row.memory_type || 'conversation').toLowerCase(),
    createdAt,
    lastAccess,
    importance: Math.min(1, Math.max(0.1, importance / 10)),
    accessCount: 0,
    tags: normalizeTags(Array.isArray(tags) ? tags.map((t) => String(t).toLowerCase()) : []),
    metadata: { ...dynamicsState(isPlainObject(metadata) ? metadata : {}), legacy_import: true },
    version: 1,
  });
}

/**
 * The original's dynamics state in its metadata (`reinforcement_accum` on its 1..10 scale,
 * `last_decay_at` as ISO text) under the keys core's reinforcement rule reads, so accumulated
 * reinforcement and the decay rate limit carry over.
 */
function dynamicsState(metadata: Record<string, JsonValue>): Record<string, JsonValue> {
  const { reinforcement_accum: accum, last_decay_at: decayed, ...rest } = metadata;
  const out: Record<string, JsonValue> = { ...rest };
  if (typeof accum === 'number' && Number.isFinite(accum) && accum > 0)
    out.reinforcementAccum = Math.round(accum * 1e8) / 1e9;
  if (typeof decayed === 'string') {
    try {
      out.lastDecayAt = parseTime(decayed, 'last_decay_at');
    } catch {
      // An unreadable time only loses the rate limit of the next decay write-back.
    }
  }
  return out;
}

/**
 * First start on a data directory of the Python "long-term memory MCP" (`AI_COMPANION_DATA_DIR`):
 * import its `memory_db/memories.db` once, while `tenantId` is still empty. Runs on the storage
 * before the server's `MemoryManager` is created over it (no manager is writing yet).
 */
export async function importLegacyOnce(
  storage: StorageAdapter,
  tenantId: string,
  dataDir: string,
  clock: Clock,
  log: (message: string) => void,
): Promise<void> {
  const source = join(dataDir, 'memory_db', LEGACY_DB_FILE);
  const marker = join(dataDir, 'legacy-import.json');
  if (!(await exists(source)) || (await exists(marker))) return;
  if ((await storage.count({ tenantId })) > 0) return;
  const report = await importLegacyDatabase(storage, tenantId, source);
  await writeImportMarker(marker, source, report, clock());
  log(
    `imported ${report.imported} memories from ${source}${report.skipped ? ` (${report.skipped} unreadable rows skipped)` : ''}`,
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function parseTime(value: unknown, field: string): number {
  let text = String(value ?? '').trim();
  // Python's isoformat() without an offset is naive; the tool wrote UTC.
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) text = `${text.replace(' ', 'T')}Z`;
  const t = Date.parse(text);
  if (!Number.isFinite(t)) throw new Error(`${field} ${JSON.stringify(value)} is not a date`);
  return t;
}

function parseJson(value: unknown, fallback: unknown): unknown {
  if (typeof value !== 'string' || !value.trim()) return fallback;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return fallback;
  }
}

function isPlainObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
