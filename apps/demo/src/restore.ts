import { buildExport, type MemoryEntry } from '@zerda/core';
import type { DemoApp } from './app.js';

/**
 * Put memories back exactly as they were — id, content, kind, importance, tags, metadata, times —
 * through the library's public import (a `zerda-export` document of just these entries, merged).
 * Their vectors are computed again by the import. The Undo of a delete and of a maintenance run.
 */
export async function restoreEntries(app: DemoApp, entries: readonly MemoryEntry[]): Promise<number> {
  if (!entries.length) return 0;
  const doc = buildExport({ exportedAt: app.manager.now(), entries: [...entries], profiles: [] });
  const report = await app.memory.importJson(doc, { mode: 'merge' });
  return report.entries;
}
