/** The manager's read side: recall, context building, and reinforcement of what was used. */
import { ContextBuilder } from '../context/context-builder.js';
import { invalid } from '../model/errors.js';
import { checkOptionKeys } from '../model/options.js';
import type { MemoryEntry } from '../model/types.js';
import { reinforceEntry } from '../dynamics/reinforcement.js';
import { checkId } from '../model/ids.js';
import { checkBatch, checkText } from '../model/limits.js';
import { defaultCandidates, type RecallHit, type SemanticSearchOptions } from '../tiers/semantic-memory.js';
import { WorkingMemory } from '../tiers/working-memory.js';
import { collapseBySource } from '../formation/collapse.js';
import { readQuery } from '../language/query-reading.js';
import { checkCount } from './options.js';
import type { ManagerState } from './state.js';
import type { BuildContextOptions, ManagedContext } from './types.js';

const DEFAULT_TOP_K_LONG_TERM = 3;
const DEFAULT_HISTORY_TURNS = 6;

/**
 * The adaptive threshold `buildContext` recalls with (`SemanticSearchOptions.ratio`; `recall`
 * keeps `DEFAULT_THRESHOLD_RATIO`, 0.5). A prompt has a token budget to fill and the relevance
 * gate already keeps unrelated memories out, so the context keeps hits down to 0.3 of the best
 * score. On LoCoMo (default path, use-lite, 2,000-token budget), evidence in prompt at 0.5 → 0.3:
 * dev half 71.6 → 75.1 %, other half 67.8 → 71.2 %, at 6.5 → 9.2 memories and 805 → 955 tokens
 * per prompt; zero-relevance memories stay 0 %.
 */
export const CONTEXT_THRESHOLD_RATIO = 0.3;

/** See `MemoryManager.recall`. Access has been checked. */
export async function recall(
  s: ManagerState,
  tenantId: string,
  query: string,
  options: SemanticSearchOptions & { reinforce?: boolean },
): Promise<RecallHit[]> {
  checkText('query', query, s.config.limits.queryChars);
  const { reinforce = true, ...search } = options;
  const hits = await searchMemories(s, tenantId, query, { topK: s.config.retrievalLimit, ...search });
  if (reinforce)
    await reinforceUsed(
      s,
      tenantId,
      hits.map((h) => h.entry.id),
    );
  return hits;
}

/**
 * Hybrid search when there is a semantic tier, the storage's lexical search otherwise. A formed
 * memory and the turn it came from are one hit (`collapseBySource`): twice `topK` are ranked so
 * that folding them still fills `topK`.
 */
async function searchMemories(
  s: ManagerState,
  tenantId: string,
  raw: string,
  options: SemanticSearchOptions,
): Promise<RecallHit[]> {
  if (options.onStage !== undefined && typeof options.onStage !== 'function')
    invalid('onStage', 'a function', options.onStage);
  if (!raw.trim()) return [];
  // Masked like stored text: a secret typed again must not reach the embedder or the storage
  // either, and its placeholder matches the stored one.
  const query = s.mask(raw, 'query').text;
  const topK = options.topK ?? s.config.retrievalLimit;
  // Only formation creates memories with sources; the candidate pools stay what `topK` asks for.
  const wide = s.extractor
    ? { ...options, topK: topK * 2, candidates: Math.max(options.candidates ?? defaultCandidates(topK), topK * 2) }
    : options;
  let hits: RecallHit[];
  if (s.semantic) {
    // The query is read first (microseconds) against the people the store knows, so that the
    // embedder is sent it as read ("whats melanies job" as "what's Melanie's job"). The query
    // embedding (the costly stage: a model call) then starts and runs while the lexical side
    // ranks; the search below waits on this same call (`embedQuery`), whose failure is the
    // search's to report, as is a tenant whose index cannot load.
    s.index.catchUp(tenantId);
    const now = options.now ?? s.clock();
    const vector = options.mode !== 'lexical' && options.weights?.vector !== 0;
    let people = s.semantic.loadedPeople(tenantId);
    if (people === undefined) {
      // A tenant not loaded yet (the first question after a page load): the query, read without
      // its people, is embedded while the index loads; read again with them, it is embedded anew
      // only where a name typed in lower case changed it.
      if (vector) s.semantic.embedQuery(readQuery(query, now).text).catch(() => undefined);
      people = await s.semantic.people(tenantId).catch(() => undefined);
    }
    options.onStage?.('read', 'start');
    const reading = readQuery(query, now, people);
    options.onStage?.('read', 'end');
    if (vector) s.semantic.embedQuery(reading.text).catch(() => undefined);
    hits = await s.semantic.search(tenantId, reading, wide);
  } else hits = await lexicalOnly(s, tenantId, query, wide);
  return collapseBySource(hits).slice(0, topK);
}

async function lexicalOnly(
  s: ManagerState,
  tenantId: string,
  query: string,
  options: SemanticSearchOptions,
): Promise<RecallHit[]> {
  const hits = await s.storage.lexicalSearch({
    tenantId,
    query,
    limit: options.topK ?? s.config.retrievalLimit,
    ...(options.filter ? { filter: options.filter } : {}),
  });
  if (!hits.length) return [];
  const entries = new Map(
    (
      await s.storage.getMany(
        tenantId,
        hits.map((h) => h.id),
      )
    ).map((e) => [e.id, e]),
  );
  const top = hits[0]!.score || 1;
  return hits.flatMap((h, i) => {
    const entry = entries.get(h.id);
    return entry
      ? [{ entry, score: h.score / top, lexicalScore: h.score, lexicalRank: i + 1, reason: 'keywords' as const }]
      : [];
  });
}

/** See `MemoryManager.buildContext`. Access has been checked. */
export async function buildContext(
  s: ManagerState,
  userId: string,
  tenantId: string,
  query: string,
  options: BuildContextOptions,
): Promise<ManagedContext> {
  checkText('query', query, s.config.limits.queryChars);
  if (!query.trim()) invalid('query', 'a non-empty string', query);
  checkOptionKeys(
    options,
    [
      'documents',
      'topKSemantic',
      'topKLongTerm',
      'includeProfile',
      'historyTurns',
      'tokenBudget',
      'systemPrompt',
      'search',
    ],
    'buildContext options',
  );
  const topKSemantic = options.topKSemantic ?? s.config.maxWorking;
  const topKLongTerm = options.topKLongTerm ?? DEFAULT_TOP_K_LONG_TERM;
  const historyTurns = options.historyTurns ?? DEFAULT_HISTORY_TURNS;
  checkCount('topKSemantic', topKSemantic);
  checkCount('topKLongTerm', topKLongTerm);
  checkCount('historyTurns', historyTurns);
  if (options.documents !== undefined) {
    checkBatch('documents', options.documents, s.config.limits.batch);
    options.documents.forEach((d, i) => {
      const doc = typeof d === 'string' ? { text: d } : (d as { title?: unknown; text?: unknown } | null);
      checkText(`documents[${i}].text`, doc?.text, s.config.limits.memoryChars);
      if (doc?.title !== undefined) checkText(`documents[${i}].title`, doc.title, s.config.limits.memoryChars);
    });
  }
  const budget = options.tokenBudget ?? s.contextTokens;
  // Built before anything else so a bad budget is rejected before working memory changes.
  const builder = new ContextBuilder(budget, { counter: s.counter });

  // Always-on by design: the most important memories carrying a protected tag ("core",
  // "identity", "pinned" by default) join every context. Nothing else enters without being
  // recalled for the query. Read, like the profile, while the search (its query embedding) runs.
  const protectedTags = s.config.protectedTags;
  const [recalled, important, profile] = await Promise.all([
    topKSemantic > 0
      ? searchMemories(s, tenantId, query, { ratio: CONTEXT_THRESHOLD_RATIO, ...options.search, topK: topKSemantic })
      : [],
    topKLongTerm > 0 && protectedTags.length > 0
      ? s.storage.query({
          tenantId,
          tiers: ['long_term'],
          tags: protectedTags,
          orderBy: 'importance',
          order: 'desc',
          limit: topKLongTerm,
        })
      : [],
    options.includeProfile === false ? undefined : s.profiles.get(tenantId, userId),
  ]);
  const userWindow = s.existingShortTerm(tenantId, userId);
  const history = historyTurns > 0 && userWindow ? userWindow.getRecent(historyTurns) : [];
  const inHistory = new Set(history.map((e) => e.id));

  const stage = options.search?.onStage;
  stage?.('select', 'start');
  const candidates = new Map<string, { entry: MemoryEntry; relevance: number }>();
  for (const hit of recalled) candidates.set(hit.entry.id, { entry: hit.entry, relevance: hit.score });
  for (const entry of important) if (!candidates.has(entry.id)) candidates.set(entry.id, { entry, relevance: 0 });
  for (const id of inHistory) candidates.delete(id);

  const ranked = s.selector.rank([...candidates.values()]);
  // Selected on a scratch copy; the user's working memory is replaced only once the context
  // has been built (a rejected call changes nothing).
  const { kept } = new WorkingMemory(s.config.maxWorking, s.config.maxTokens, s.counter).rebuild(
    ranked.map((r) => r.entry),
  );
  const keptIds = new Set(kept.map((e) => e.id));
  const working = ranked.filter((r) => keptIds.has(r.entry.id));

  stage?.('select', 'end');

  const system = options.systemPrompt ?? s.systemPrompt;
  stage?.('pack', 'start');
  const context = builder.build({
    ...(system !== undefined ? { system } : {}),
    ...(profile && profile.interactionCount > 0 ? { profile } : {}),
    memories: working.map((w) => ({ entry: w.entry, score: w.score })),
    ...(options.documents ? { documents: options.documents } : {}),
    history,
    query,
  });
  stage?.('pack', 'end');
  s.workingMemory(tenantId, userId).rebuild(kept);
  const usedIds = new Set(context.sections.flatMap((sec) => (sec.kind === 'memories' ? (sec.itemIds ?? []) : [])));
  // Only what went in because it was relevant to the query is reinforced (always-on memories are
  // there whatever the query; reinforcing them would make them look relevant).
  const relevant = new Set(recalled.map((h) => h.entry.id));
  await reinforceUsed(
    s,
    tenantId,
    working.map((w) => w.entry.id).filter((id) => relevant.has(id) && usedIds.has(id)),
  );
  return { ...context, recalled, working };
}

/** See `MemoryManager.reinforce`. Access has been checked. */
export async function reinforce(s: ManagerState, tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
  checkBatch('ids', ids, s.config.limits.batch);
  for (const id of ids) checkId('id', id);
  return reinforceUsed(s, tenantId, ids);
}

/**
 * The one read-side write: fresh copies (under the tenant lock) of the long-term memories among
 * `ids` get the reinforcement rule (`reinforceEntry`). Resolves to the memories as stored now, in
 * the order of `ids` (unknown ids skipped).
 */
async function reinforceUsed(s: ManagerState, tenantId: string, ids: string[]): Promise<MemoryEntry[]> {
  if (!ids.length) return [];
  return s.serial(tenantId, async () => {
    const fresh = await s.storage.getMany(tenantId, [...new Set(ids)]);
    const now = s.clock();
    const updated = fresh.filter((e) => e.tier === 'long_term').map((e) => reinforceEntry(e, now, s.config));
    if (updated.length) await s.storage.putMany(updated);
    const byId = new Map([...fresh, ...updated].map((e) => [e.id, e]));
    return ids.flatMap((id) => (byId.has(id) ? [structuredClone(byId.get(id)!)] : []));
  });
}
