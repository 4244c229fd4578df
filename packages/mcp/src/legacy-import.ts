import { readFile, writeFile } from 'node:fs/promises';
import initSqlJs from 'sql.js';
import { normalizeTags, validateEntry, type JsonValue, type MemoryEntry, type StorageAdapter } from '@zerda/core';

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
export async function importLegacyDatabase(storage: StorageAdapter, tenantId: string, file: string): Promise<LegacyImportReport> {
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
export async function writeImportMarker(file: string, source: string, report: LegacyImportReport, now: number): Promise<void> {
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
    metadata: { ...(isPlainObject(metadata) ? metadata : {}), legacy_import: true },
    version: 1,
  });
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
