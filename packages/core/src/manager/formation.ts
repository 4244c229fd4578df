/** The manager's formation step: a stored turn → memories (see `core/src/formation/README.md`). */
import { createEntry } from '../model/entry.js';
import { ZerdaError } from '../model/errors.js';
import type { JsonValue, MemoryEntry } from '../model/types.js';
import { OfflineExtractor, FORMED_KINDS } from '../formation/offline-extractor.js';
import type { FormationContext, FormationOp, FormationPlan, FormationTurn } from '../formation/types.js';
import type { FormedStatement, MemoryExtractor } from '../formation/types.js';
import { SOURCES_KEY } from '../formation/types.js';
import type { TurnReading } from '../language/turn-reading.js';
import { formedFields } from '../formation/consolidation.js';
import { historyRecord } from './history.js';
import { cosine } from '../retrieval/cosine.js';
import type { ManagerState } from './state.js';

/** How the manager forms memories: an extractor, or `null` for `formation: 'turns'` (every turn is a memory, as said). */
export type Formation = MemoryExtractor | null;

const offline = new OfflineExtractor();

/** Title of a formed memory: whom it is about, and the slot when there is one. */
export function formedTitle(s: Pick<FormedStatement, 'about' | 'attribute'>): string {
  return s.attribute ? `${s.about} · ${s.attribute}` : s.about;
}

/** The {@link FormationContext} the manager gives an extractor for one tenant. */
export function formationContext(s: ManagerState, tenantId: string): FormationContext {
  const embedder = s.embedder;
  return {
    async similar(query, limit = 8) {
      const out = new Map<string, MemoryEntry>();
      if (query.about !== undefined && query.attribute !== undefined) {
        const slot = await s.storage.query({
          tenantId,
          kinds: [...FORMED_KINDS],
          text: formedTitle({ about: query.about, attribute: query.attribute }),
          limit,
        });
        for (const e of slot) if (e.metadata[SOURCES_KEY] !== undefined) out.set(e.id, e);
      }
      if (query.text.trim() && out.size < limit) {
        const hits = await s.storage.lexicalSearch({
          tenantId,
          query: query.text,
          limit,
          filter: { kinds: [...FORMED_KINDS] },
        });
        const ids = hits.map((h) => h.id).filter((id) => !out.has(id));
        if (ids.length) {
          const byId = new Map((await s.storage.getMany(tenantId, ids)).map((e) => [e.id, e]));
          for (const id of ids) {
            const e = byId.get(id);
            if (e && e.metadata[SOURCES_KEY] !== undefined) out.set(id, e);
          }
        }
      }
      return [...out.values()].slice(0, limit);
    },
    ...(embedder
      ? {
          async similarity(text: string, others: string[]) {
            const [a, ...bs] = await embedder.embed([text, ...others]);
            return bs.map((b) => cosine(a!, b));
          },
        }
      : {}),
  };
}

/**
 * Apply a plan for `turn` (stored as `turnEntry`) inside the tenant lock, as of `now` (the turn's
 * time when it was imported with one). Returns the memories it added, updated or reinforced (as
 * stored now).
 */
export async function applyPlan(
  s: ManagerState,
  turnEntry: MemoryEntry,
  plan: FormationPlan,
  formedBy: string,
  now = s.clock(),
): Promise<MemoryEntry[]> {
  const out: MemoryEntry[] = [];
  for (const op of plan.ops) {
    const done = await applyOp(s, turnEntry, op, formedBy, now);
    if (done) out.push(done);
  }
  return out;
}

async function applyOp(
  s: ManagerState,
  turnEntry: MemoryEntry,
  op: FormationOp,
  formedBy: string,
  now: number,
): Promise<MemoryEntry | undefined> {
  const { tenantId, id: turnId } = turnEntry;
  if (op.op === 'add') {
    const metadata: Record<string, JsonValue> = { [SOURCES_KEY]: [turnId], ...slotFields(op.statement), formedBy };
    const entry = createEntry(
      tenantId,
      {
        content: { title: formedTitle(op.statement), text: op.statement.text },
        kind: op.statement.kind,
        tier: 'long_term',
        importance: turnEntry.importance,
        metadata,
        ...(op.statement.tags?.length ? { tags: [...op.statement.tags] } : {}),
        ...(turnEntry.userId !== undefined ? { userId: turnEntry.userId } : {}),
      },
      now,
    );
    await s.storage.put(entry);
    s.index.enqueue(entry);
    return entry;
  }
  const current = await s.storage.get(tenantId, op.id);
  // Gone meanwhile (deleted by the user or forgotten): nothing to consolidate with.
  if (!current) return undefined;
  if (op.op === 'delete') {
    // Asked to forget: the turns it was formed from go too, so that no recall finds it there.
    const ids = [op.id, ...(op.sources ? sourceIds(current.metadata[SOURCES_KEY]) : [])];
    for (const id of ids) {
      s.index.drop(tenantId, id);
      await s.storage.delete(tenantId, id);
    }
    if (s.semantic) await s.semantic.remove(tenantId, ids);
    return undefined;
  }
  const sources = withSource(current.metadata[SOURCES_KEY], turnId);
  if (op.op === 'reinforce') {
    const next = s.forgetting.reinforce(current, now);
    next.metadata = { ...next.metadata, [SOURCES_KEY]: sources };
    // Said again by another name ("My sister Ana lives in Lisbon" after "My sister lives in
    // Lisbon"): the memory is about whom consolidation named, by every name it goes by.
    const renamed = op.statement.about !== current.metadata.about || op.statement.aka?.length;
    if (renamed) {
      const { aka: _aka, ...rest } = next.metadata;
      next.metadata = {
        ...rest,
        about: op.statement.about,
        ...(op.statement.aka?.length ? { aka: [...op.statement.aka] } : {}),
      };
      next.content = {
        ...next.content,
        title: formedTitle({ about: op.statement.about, attribute: formedFields(current).attribute }),
      } as MemoryEntry['content'];
    }
    await s.storage.put(next);
    if (renamed) s.index.enqueue(next);
    return next;
  }
  const next: MemoryEntry = {
    ...structuredClone(current),
    content: { title: formedTitle(op.statement), text: op.statement.text },
    kind: op.statement.kind,
    ...(op.statement.tags?.length ? { tags: [...new Set([...(current.tags ?? []), ...op.statement.tags])] } : {}),
    importance: Math.max(current.importance, turnEntry.importance),
    lastAccess: Math.max(current.lastAccess, now),
    metadata: {
      ...withoutSlot(current.metadata),
      ...slotFields(op.statement),
      [SOURCES_KEY]: sources,
      formedBy,
      history: [
        ...(Array.isArray(current.metadata.history) ? current.metadata.history : []),
        historyRecord(current, now),
      ],
    },
    version: current.version + 1,
  };
  await s.storage.put(next);
  s.index.enqueue(next);
  return next;
}

function slotFields(st: FormedStatement): Record<string, JsonValue> {
  return {
    about: st.about,
    ...(st.aka?.length ? { aka: [...st.aka] } : {}),
    ...(st.attribute !== undefined ? { attribute: st.attribute } : {}),
    ...(st.value !== undefined ? { value: st.value } : {}),
    ...(st.at !== undefined ? { at: st.at } : {}),
  };
}

function withoutSlot(m: Record<string, JsonValue>): Record<string, JsonValue> {
  const { attribute: _a, value: _v, at: _t, aka: _k, ...rest } = m;
  return rest;
}

function sourceIds(sources: JsonValue | undefined): string[] {
  return Array.isArray(sources) ? sources.filter((x): x is string => typeof x === 'string') : [];
}

function withSource(sources: JsonValue | undefined, turnId: string): string[] {
  const list = sourceIds(sources);
  return list.includes(turnId) ? list : [...list, turnId];
}

/** The turn as an extractor sees it. */
export function formationTurn(entry: MemoryEntry): FormationTurn {
  const c = entry.content as { input?: string; output?: string };
  return {
    id: entry.id,
    tenantId: entry.tenantId,
    userId: entry.userId ?? '',
    input: c.input ?? '',
    output: c.output ?? '',
    createdAt: entry.createdAt,
  };
}

/**
 * Plan a stored-to-be turn's memories with an inline extractor (the offline default):
 * deterministic and fast, done before `saveInteraction` resolves, from the reading the write
 * path made. A failing inline extractor rejects the save with `FORMATION` (nothing stored yet).
 */
export async function formInline(
  s: ManagerState,
  extractor: MemoryExtractor,
  turnEntry: MemoryEntry,
  reading: TurnReading,
): Promise<FormationPlan> {
  try {
    return await extractor.extract({ ...formationTurn(turnEntry), reading }, formationContext(s, turnEntry.tenantId));
  } catch (err) {
    if (err instanceof ZerdaError && err.code === 'FORMATION') throw err;
    throw new ZerdaError('FORMATION', `Extractor ${extractor.name} failed`, { cause: err });
  }
}

/**
 * Form memories with `extractor` in the background (an LLM): runs in the tenant lock after the
 * save, tracked so `flush()` awaits it. When the extractor fails (or answers something invalid)
 * the offline extractor forms the memories instead, and the failure is handed to `report` (which
 * `flush()` rethrows): never swallowed. `stored` says whether the turn is in long-term memory; if
 * not and the plan forms something, the turn is stored first so `sources` resolve.
 */
export function formInBackground(
  s: ManagerState,
  extractor: MemoryExtractor,
  turnEntry: MemoryEntry,
  reading: TurnReading,
  stored: boolean,
  report: (err: ZerdaError) => void,
): Promise<void> {
  return s.serial(turnEntry.tenantId, async () => {
    const turn = { ...formationTurn(turnEntry), reading };
    const context = formationContext(s, turnEntry.tenantId);
    let plan: FormationPlan;
    let by = extractor.name;
    try {
      plan = await extractor.extract(turn, context);
    } catch (err) {
      report(
        err instanceof ZerdaError && err.code === 'FORMATION'
          ? err
          : new ZerdaError(
              'FORMATION',
              `Extractor ${extractor.name} failed; the offline extractor formed this turn's memories`,
              { cause: err },
            ),
      );
      plan = await offline.extract(turn, context);
      by = offline.name;
    }
    if (!plan.ops.length) return;
    if (!stored && plan.ops.some((o) => o.op !== 'delete')) {
      const entry = { ...turnEntry, tier: 'long_term' as const };
      await s.storage.put(entry);
      s.index.enqueue(entry);
    }
    await applyPlan(s, turnEntry, plan, by);
  });
}
