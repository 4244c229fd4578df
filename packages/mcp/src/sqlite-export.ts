import initSqlJs from 'sql.js';
import type { MemoryEntry } from '@zerda/core';

/**
 * A standalone SQLite database (file bytes) of the given memories, in a flat, self-describing
 * schema any SQLite tool can open (`sqlite3 memories.db 'select title from memories'`):
 * `memories(id, title, content, memory_type, tags JSON, importance 1..10, timestamp, last_accessed,
 * access_count, version, metadata JSON, entry JSON)`. The `entry` column holds the full Zerda
 * entry, so nothing is lost.
 */
export async function buildSqliteCopy(entries: readonly MemoryEntry[], exportedAt: number): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    db.run(`CREATE TABLE memories (
      id TEXT PRIMARY KEY, title TEXT NOT NULL, content TEXT NOT NULL, memory_type TEXT NOT NULL,
      tags TEXT NOT NULL, importance REAL NOT NULL, timestamp TEXT NOT NULL, last_accessed TEXT NOT NULL,
      access_count INTEGER NOT NULL, version INTEGER NOT NULL, metadata TEXT NOT NULL, entry TEXT NOT NULL);
      CREATE INDEX idx_memories_timestamp ON memories(timestamp);
      CREATE INDEX idx_memories_type ON memories(memory_type);
      CREATE TABLE export_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    db.run('BEGIN');
    const stmt = db.prepare('INSERT INTO memories VALUES (?,?,?,?,?,?,?,?,?,?,?,?)');
    for (const e of entries) {
      const c = e.content;
      stmt.run([
        e.id,
        'title' in c ? c.title : c.input,
        'text' in c ? c.text : c.output,
        e.kind,
        JSON.stringify(e.tags),
        Math.round(e.importance * 100) / 10,
        new Date(e.createdAt).toISOString(),
        new Date(e.lastAccess).toISOString(),
        e.accessCount,
        e.version,
        JSON.stringify(e.metadata),
        JSON.stringify(e),
      ]);
    }
    stmt.free();
    const info = db.prepare('INSERT INTO export_info VALUES (?, ?)');
    info.run(['format', 'zerda-mcp-sqlite-copy']);
    info.run(['version', '1']);
    info.run(['exported_at', new Date(exportedAt).toISOString()]);
    info.run(['memories', String(entries.length)]);
    info.free();
    db.run('COMMIT');
    return db.export();
  } finally {
    db.close();
  }
}
