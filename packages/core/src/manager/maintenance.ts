/** The manager's tenant-level work: forgetting and compression, stats, clearing, re-indexing. */
import { MemoryCompressor, type CompressionBatch, type CompressionReport } from '../dynamics/compressor.js';
import type { MemoryEntry } from '../model/types.js';
import type { ReindexOptions, ReindexReport } from '../tiers/semantic-memory.js';
import type { ManagerState } from './state.js';
import type { MaintenancePreview, MaintenanceReport, ManagerStats } from './types.js';

/** What maintenance decides for one tenant at one time; both the preview and the run use it. */
interface MaintenancePlan {
  examined: number;
  forget: MemoryEntry[];
  compress: CompressionBatch[] | null;
  shortTerm: number;
  compressor: MemoryCompressor;
}

/**
 * The one place maintenance decides what to do: forget the entries the forgetting policy selects
 * at `now`, compress the rest when the tenant is over the trigger (the batches the compressor
 * plans, oldest first), evict faded short-term entries. Reads only. Call inside `s.serial`.
 */
async function plan(s: ManagerState, tenantId: string, now: number): Promise<MaintenancePlan> {
  const all = await s.storage.query({ tenantId, orderBy: 'createdAt', order: 'asc' });
  const forget = s.forgetting.selectForDeletion(all, now);
  const gone = new Set(forget.map((e) => e.id));
  const remaining = all.filter((e) => !gone.has(e.id));
  const compressor = new MemoryCompressor({
    config: s.config,
    clock: s.clock,
    counter: s.counter,
    ...(s.llm ? { llm: s.llm } : {}),
  });
  const compress = compressor.shouldCompress(remaining.length)
    ? compressor.plan(
        remaining.filter((e) => e.tier === 'long_term'),
        now,
      )
    : null;
  let shortTerm = 0;
  for (const stm of s.shortTermsOf(tenantId)) shortTerm += stm.below(s.config.minImportance, now).length;
  return { examined: all.length, forget, compress, shortTerm, compressor };
}

/** See `MemoryManager.previewMaintenance`. Background work has been flushed. */
export async function previewMaintenance(s: ManagerState, tenantId: string, now: number): Promise<MaintenancePreview> {
  return s.serial(tenantId, async () => {
    const p = await plan(s, tenantId, now);
    return {
      tenantId,
      at: now,
      examined: p.examined,
      deletionThreshold: s.config.deletionThreshold,
      forget: p.forget.map((entry) => ({ entry, effectiveImportance: s.forgetting.effective(entry, now) })),
      compress: p.compress,
      shortTermEvict: p.shortTerm,
    };
  });
}

/** See `MemoryManager.runMaintenance`. Background work has been flushed. */
export async function runMaintenance(
  s: ManagerState,
  tenantId: string,
  started: number,
  t0: number,
): Promise<MaintenanceReport> {
  return s.serial(tenantId, async () => {
    const p = await plan(s, tenantId, started);
    const deleted = p.forget.map((e) => e.id);
    if (deleted.length) {
      await s.storage.deleteMany(tenantId, deleted);
      if (s.semantic) await s.semantic.remove(tenantId, deleted);
    }
    let compression: CompressionReport | null = null;
    if (p.compress) {
      compression = await p.compressor.merge(s.longTerm(tenantId), p.compress, { now: started });
      if (s.semantic && compression.removed.length) await s.semantic.remove(tenantId, compression.removed);
      for (const summary of compression.summaries) s.index.enqueue(summary);
    }
    let shortTermEvicted = 0;
    for (const stm of s.shortTermsOf(tenantId))
      shortTermEvicted += stm.evictBelow(s.config.minImportance, started).length;
    await s.index.drain();
    const changed =
      deleted.length + (compression?.summaries.length ?? 0) + (compression?.removed.length ?? 0) + shortTermEvicted;
    return {
      tenantId,
      examined: p.examined,
      deleted,
      compression,
      shortTermEvicted,
      noop: changed === 0,
      durationMs: Math.round((performanceNow() - t0) * 100) / 100,
    };
  });
}

/** See `MemoryManager.stats`. */
export async function stats(s: ManagerState, tenantId: string): Promise<ManagerStats> {
  const storage = await s.storage.stats(tenantId);
  const windows = s.shortTermsOf(tenantId);
  const workings = s.workingMemoriesOf(tenantId);
  return {
    tenantId,
    storage,
    shortTerm: { users: windows.length, entries: windows.reduce((n, stm) => n + stm.size, 0) },
    working: {
      users: workings.length,
      entries: workings.reduce((n, wm) => n + wm.size, 0),
      tokens: workings.reduce((n, wm) => n + wm.tokenCount, 0),
    },
    profiles: storage.profiles,
    embedder: s.embedder ? { modelId: s.embedder.modelId, dim: s.embedder.dim } : null,
    pendingIndexing: s.index.pending(tenantId),
    indexedVectors: s.semantic ? await s.semantic.vectorCount(tenantId) : 0,
    config: structuredClone(s.config),
  };
}

/** See `MemoryManager.clearTenant`. */
export async function clearTenant(s: ManagerState, tenantId: string): Promise<{ entries: number }> {
  return s.serial(tenantId, async () => {
    await s.index.forgetTenant(tenantId);
    const entries = await s.storage.clearTenant(tenantId);
    if (s.semantic) s.semantic.unload(tenantId);
    s.dropTiers(tenantId);
    return { entries };
  });
}

/** See `MemoryManager.reindex`. Background work has been flushed. */
export async function reindex(s: ManagerState, tenantId: string, options: ReindexOptions): Promise<ReindexReport> {
  const semantic = s.semantic;
  if (!semantic) return { total: 0, embedded: 0, removed: 0 };
  // Reload the vectors from storage first: after an import or a restore done on the storage
  // directly, the cached index still holds the vectors of before.
  return s.index.exclusive(async () => {
    semantic.unload(tenantId);
    return semantic.reindex(tenantId, options);
  });
}

/** A monotonic millisecond clock for durations (falls back to `Date.now`). */
export function performanceNow(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
