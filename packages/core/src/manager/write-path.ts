/** The manager's write path: save a turn, remember a fact, update and delete a memory. */
import { effectiveImportance } from '../dynamics/decay.js';
import { quantize, REINFORCEMENT_ACCUM_KEY } from '../dynamics/reinforcement.js';
import { retentionBoost } from '../dynamics/profile-manager.js';
import {
  checkKind,
  checkTime,
  createEntry,
  normalizeTags,
  validateContent,
  validateMetadata,
  type NewEntry,
} from '../model/entry.js';
import { MAX_ID_LENGTH } from '../model/ids.js';
import { checkBatch, checkText, checkWellFormed, type InputLimits, textWindow } from '../model/limits.js';
import { invalid, ZerdaError } from '../model/errors.js';
import { checkOptionKeys } from '../model/options.js';
import {
  entryText,
  type InteractionContent,
  type JsonValue,
  type MemoryContent,
  type MemoryEntry,
} from '../model/types.js';
import { CONTEXT_KEY, EARLIER_CONTEXT_KEY, indexedText } from '../tiers/semantic-memory.js';
import { checkUnit } from './options.js';
import { historyRecord } from './history.js';
import { performanceNow } from './maintenance.js';
import { applyPlan, formInBackground, formInline } from './formation.js';
import { readTurn } from '../language/turn-reading.js';
import { warmUpReading } from '../language/warm-up.js';
import type { ManagerState } from './state.js';
import type { FormationOp } from '../formation/types.js';
import type {
  HistoryTurn,
  ImportHistoryOptions,
  ImportProgress,
  ImportReport,
  MemoryPatch,
  RememberInput,
  SaveInteractionOptions,
  SaveResult,
} from './types.js';
import { yieldToEventLoop } from '../util/yield.js';

/**
 * How many turns before a saved one its reading sees: the one before (what it answers, who "you"
 * is) and the speaker's own turns before that (what a "they" stands for). From the short-term window.
 */
const TURNS_READ_BEFORE = 10;
/** How long `importHistory` runs before it yields to the event loop (ms). */
const YIELD_EVERY_MS = 20;

/**
 * The import's one slicing rule: `pause()` between two steps of work yields a macrotask once the
 * current slice has run {@link YIELD_EVERY_MS}. A store that answers in microtasks (in memory,
 * sql.js) never lets the page's event loop in otherwise: no task of the import runs long (input,
 * rendering and the worker's replies get their turn).
 */
function timeSlices(): { pause(): Promise<void> } {
  let start = performanceNow();
  return {
    async pause() {
      if (performanceNow() - start <= YIELD_EVERY_MS) return;
      await yieldToEventLoop();
      start = performanceNow();
    },
  };
}

/**
 * Compile the turn reader's patterns ahead of the first turn (see `warmUpReading`), in the
 * import's time slices: what `MemoryManager.warmUp` does so the page's first save does not pay a
 * few hundred milliseconds in one task. Once per process; later calls return at once.
 */
export async function compileReading(): Promise<void> {
  const slices = timeSlices();
  for (const _ of warmUpReading()) await slices.pause();
}

/** Longest automatic turn context (characters), both turns together; a longer one keeps its end. */
const MAX_TURN_CONTEXT_CHARS = 400;

/** See `MemoryManager.saveInteraction`. Access has been checked. */
export async function saveInteraction(
  s: ManagerState,
  userId: string,
  tenantId: string,
  input: string,
  output: string,
  options: SaveInteractionOptions,
  mayForget = false,
): Promise<SaveResult> {
  return commitInteraction(s, userId, tenantId, prepareInteraction(s, input, output, options), mayForget);
}

/**
 * See `MemoryManager.importHistory`. Access has been checked. Every turn is checked before the
 * first is stored; the turns are then stored in order, one tenant-lock hold each (a recall or a
 * save meanwhile interleaves between turns), while the index loop embeds what they queue.
 */
export async function importHistory(
  s: ManagerState,
  userId: string,
  tenantId: string,
  turns: readonly HistoryTurn[],
  options: ImportHistoryOptions,
  flush: () => Promise<void>,
  mayForget = false,
): Promise<ImportReport> {
  if (!Array.isArray(turns)) invalid('turns', 'an array of { input, output } turns', turns);
  checkOptionKeys(options, ['onProgress', 'signal'], 'importHistory options');
  const { onProgress, signal } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function') invalid('onProgress', 'a function', onProgress);
  if (signal !== undefined && typeof signal?.aborted !== 'boolean') invalid('signal', 'an AbortSignal', signal);
  const prepared: PreparedInteraction[] = [];
  // Checking and masking 10k turns is a second or more of work: sliced like the stores below.
  const slices = timeSlices();
  for (const [i, t] of turns.entries()) {
    await slices.pause();
    if (typeof t !== 'object' || t === null) invalid(`turns[${i}]`, 'an { input, output } turn', t);
    const { input, output, ...rest } = t;
    try {
      prepared.push(prepareInteraction(s, input, output, rest));
    } catch (err) {
      if (err instanceof ZerdaError && err.code === 'VALIDATION')
        throw new ZerdaError('VALIDATION', `turns[${i}]: ${err.message}`, { cause: err });
      throw err;
    }
  }
  const progress: ImportProgress = { saved: 0, total: prepared.length, embedded: 0, queued: 0 };
  const report = (): void => {
    try {
      onProgress?.({ ...progress });
    } catch {
      /* a listener's bug must not fail the import */
    }
  };
  const report0: ImportReport = { turns: 0, longTerm: 0, memories: 0, pii: 0, embedded: 0 };
  const stop = s.index.watch({
    queued: (t) => {
      if (t === tenantId) progress.queued++;
    },
    embedded: (t, n) => {
      if (t !== tenantId) return;
      progress.embedded += n;
      report();
    },
  });
  try {
    report();
    // The first turns read would compile the reader's patterns: a few hundred ms in one turn
    // (see warmUpReading). Compiled here in steps instead, sliced as everything else.
    for (const _ of warmUpReading()) await slices.pause();
    // The tenant's index is loaded now, holding only what was stored before, so the imported turns
    // join it as they are embedded. Otherwise the first question after the import loads them all
    // (~0.3 s after 3,000 turns in Chromium, ~1 s after 10,000). A load that fails here is left to
    // that first search, which reports it.
    if (s.semantic) await s.semantic.warm(tenantId).catch(() => undefined);
    for (const p of prepared) {
      await slices.pause();
      if (signal?.aborted) throw new ZerdaError('ABORTED', 'History import was aborted', { cause: signal.reason });
      const saved = await commitInteraction(s, userId, tenantId, p, mayForget);
      report0.turns++;
      if (saved.entry.tier === 'long_term') report0.longTerm++;
      report0.memories += saved.memories.length;
      report0.pii += saved.pii.length;
      progress.saved++;
      report();
    }
    await flush();
  } finally {
    stop();
  }
  report0.embedded = progress.embedded;
  return report0;
}

/** A turn checked and masked, ready to be stored by {@link commitInteraction}. */
export interface PreparedInteraction {
  readonly options: SaveInteractionOptions;
  readonly at: number | undefined;
  readonly tags: string[];
  readonly metadata: Record<string, JsonValue>;
  readonly content: InteractionContent;
  readonly pii: SaveResult['pii'];
}

/**
 * Every check of a turn, and its masking; no write. Throws `VALIDATION` (so a batch can check all
 * its turns before it stores the first).
 */
export function prepareInteraction(
  s: ManagerState,
  input: string,
  output: string,
  options: SaveInteractionOptions,
): PreparedInteraction {
  const limits = s.config.limits;
  checkText('input', input, limits.turnChars);
  checkText('output', output, limits.turnChars);
  if (!input.trim() && !output.trim()) invalid('input', 'a non-empty input or output', input);
  checkOptionKeys(options, ['importance', 'tags', 'metadata', 'topics', 'kind', 'at'], 'saveInteraction options');
  const at = options.at === undefined ? undefined : checkTime('at', options.at);
  if (options.importance !== undefined) checkUnit('importance', options.importance);
  const tags = options.tags === undefined ? [] : normalizeTags(options.tags, limits.tags);
  const metadata = options.metadata === undefined ? {} : validateMetadata(options.metadata, limits, 'metadata');
  if (options.topics !== undefined) {
    checkBatch('topics', options.topics, limits.tags);
    for (const t of options.topics) {
      checkText('topics[]', t, MAX_ID_LENGTH);
      checkWellFormed('topics[]', t);
    }
  }
  if (options.kind !== undefined) checkKind(options.kind, 'kind');

  const maskedIn = s.mask(input, 'input');
  const maskedOut = s.mask(output, 'output');
  const pii = [...maskedIn.findings, ...maskedOut.findings];
  const content = validateContent({ input: maskedIn.text, output: maskedOut.text }) as InteractionContent;
  return { options, at, tags, metadata, content, pii };
}

/**
 * Store a prepared turn: see `MemoryManager.saveInteraction`. Access has been checked; `mayForget`:
 * the user also holds `delete`, which a request to forget ("Please forget that I'm vegetarian")
 * needs to delete what it names (without it, the request deletes nothing).
 */
export async function commitInteraction(
  s: ManagerState,
  userId: string,
  tenantId: string,
  prepared: PreparedInteraction,
  mayForget = false,
): Promise<SaveResult> {
  // `metadata` is prepareInteraction's own copy (validateMetadata), written to below; commit once.
  const { options, at, tags, metadata, content, pii } = prepared;
  return s.serial(tenantId, async () => {
    const now = at ?? s.clock();
    // The turn is read once (importance, topics, what it says); everything below uses this reading.
    // The turns before, from the short-term window (no storage read): oldest first.
    const recent = s.existingShortTerm(tenantId, userId)?.getRecent(TURNS_READ_BEFORE) ?? [];
    const previous = recent.at(-1);
    const earlierTurn = recent.length >= 2 ? recent.at(-2) : undefined;
    const formationChars = s.config.limits.formationChars;
    const asTurn = (e: MemoryEntry | undefined) =>
      e && 'input' in e.content
        ? { input: textWindow(e.content.input, formationChars), output: textWindow(e.content.output, formationChars) }
        : undefined;
    // The turn before says who "you" is in a chat of named speakers, and what this turn may answer;
    // the ones before it, what the speaker named that a "they" may stand for (newest first).
    // `earlier` is read lazily: only a turn that opens with "they" looks back, and then rarely far.
    const before = asTurn(previous);
    const earlier = function* () {
      for (let i = recent.length - 2; i >= 0; i--) {
        const turn = asTurn(recent[i]);
        if (turn !== undefined) yield turn;
      }
    };
    const reading = readTurn(
      {
        input: textWindow(content.input, formationChars),
        output: textWindow(content.output, formationChars),
        userId,
        createdAt: now,
      },
      before !== undefined ? { previous: before, earlier: { [Symbol.iterator]: earlier } } : {},
    );
    // The caller's topics count as well as those the turn names.
    const topics = [...(options.topics ?? []), ...reading.topics];
    // The boost this interaction earns is computed from the profile as it will be after the
    // update, but the profile is written only once the entry is stored: a failed save leaves
    // the profile untouched (a rejected call changes nothing).
    const current = await s.profiles.get(tenantId, userId);
    const boost = retentionBoost(current.interactionCount + 1);
    const base = options.importance ?? reading.importance;
    const importance = clamp01(options.importance === undefined ? base + boost : base);
    if (pii.length) metadata.piiMasked = pii.length;
    if (s.turnContext === 'previous' && metadata[CONTEXT_KEY] === undefined) {
      const text = previous ? entryText(previous).trim() : '';
      if (text) {
        metadata[CONTEXT_KEY] = text.length > MAX_TURN_CONTEXT_CHARS ? `…${text.slice(-MAX_TURN_CONTEXT_CHARS)}` : text;
        // The turn before it, by words only: a reply often names what was said two turns back.
        const twoBack = earlierTurn !== undefined ? entryText(earlierTurn).trim() : '';
        const room = MAX_TURN_CONTEXT_CHARS - Math.min(text.length, MAX_TURN_CONTEXT_CHARS);
        if (twoBack && room > 0 && metadata[EARLIER_CONTEXT_KEY] === undefined)
          metadata[EARLIER_CONTEXT_KEY] = twoBack.length > room ? `…${twoBack.slice(-room)}` : twoBack;
      }
    }
    // Formation (unless the caller named the kind: then the caller decided what this turn is).
    const extractor = options.kind === undefined ? s.extractor : null;
    const worth = importance >= s.config.importanceThreshold;
    const newEntry: NewEntry = {
      content,
      kind: options.kind ?? 'conversation',
      tier: 'short_term',
      importance,
      tags,
      metadata,
      userId,
    };
    const entry = createEntry(tenantId, newEntry, now);
    // An inline extractor decides before anything is stored, so its plan says whether the turn
    // is kept; a background one (an LLM) answers later, so the reading decides for now. A turn
    // that carries nothing worth keeping — questions, greetings, acknowledgements,
    // restatements — stays in the short-term window only.
    const formed = extractor?.inline && worth ? await formInline(s, extractor, entry, reading) : undefined;
    const plan = formed && !mayForget ? { ...formed, ops: formed.ops.filter((op) => !forgets(op)) } : formed;
    // (A plan that only deletes — "Please forget that I'm vegetarian" — stores nothing: the turn
    // says again what it forgets.)
    const promote =
      worth && (!extractor || (plan ? plan.keep || plan.ops.some((op) => op.op !== 'delete') : reading.keep));
    if (promote) {
      entry.tier = 'long_term';
      newEntry.tier = 'long_term';
      await s.storage.put(entry);
    }
    try {
      await s.profiles.update(tenantId, userId, { topics });
    } catch (err) {
      // Best-effort rollback; the profile failure is what the caller needs to see.
      if (promote) await s.storage.delete(tenantId, entry.id).catch(() => undefined);
      throw err;
    }
    if (promote) s.index.enqueue(entry);
    s.shortTerm(tenantId, userId).add(content, { ...newEntry, id: entry.id, createdAt: entry.createdAt, tenantId });
    let memories: MemoryEntry[] = [];
    if (plan && (promote || plan.ops.length > 0)) memories = await applyPlan(s, entry, plan, extractor!.name, now);
    else if (extractor && !extractor.inline && worth) {
      const task = formInBackground(s, extractor, entry, reading, promote, (err) => s.formationErrors.push(err));
      const tracked: Promise<void> = task
        .catch(
          (err: unknown) =>
            void s.formationErrors.push(
              err instanceof ZerdaError ? err : new ZerdaError('FORMATION', 'Memory formation failed', { cause: err }),
            ),
        )
        .finally(() => s.formations.delete(tracked));
      s.formations.add(tracked);
    }
    return { entry: structuredClone(entry), memories: memories.map((m) => structuredClone(m)), pii };
  });
}

/** Whether `op` deletes what the user asked to forget, with the turns it was formed from. */
const forgets = (op: FormationOp) => op.op === 'delete' && op.sources === true;

/** See `MemoryManager.remember`. Access has been checked. */
export async function remember(
  s: ManagerState,
  userId: string,
  tenantId: string,
  input: RememberInput,
): Promise<SaveResult> {
  if (typeof input !== 'object' || input === null) invalid('memory', 'an object with title and text', input);
  checkOptionKeys(input, ['id', 'title', 'text', 'kind', 'importance', 'tags', 'metadata'], 'memory');
  const limits = s.config.limits;
  checkText('title', input.title, limits.memoryChars);
  if (!input.title.trim()) invalid('title', 'a non-empty string', input.title);
  checkText('text', input.text, limits.memoryChars);
  if (input.importance !== undefined) checkUnit('importance', input.importance);
  if (input.kind !== undefined) checkKind(input.kind, 'kind');
  const tags = input.tags === undefined ? [] : normalizeTags(input.tags, limits.tags);
  const metadata = input.metadata === undefined ? {} : validateMetadata(input.metadata, limits, 'metadata');
  const title = s.mask(input.title, 'title');
  const text = s.mask(input.text, 'text');
  const pii = [...title.findings, ...text.findings];
  if (pii.length) metadata.piiMasked = pii.length;
  const entry = createEntry(
    tenantId,
    {
      ...(input.id !== undefined ? { id: input.id } : {}),
      content: { title: title.text, text: text.text },
      kind: input.kind ?? 'fact',
      tier: 'long_term',
      importance: input.importance ?? 0.5,
      tags,
      metadata,
      userId,
    },
    s.clock(),
  );
  return s.serial(tenantId, async () => {
    if (input.id !== undefined && (await s.storage.get(tenantId, entry.id))) {
      throw new ZerdaError('CONFLICT', `A memory with id ${entry.id} already exists in tenant ${tenantId}`, {
        details: { id: entry.id, tenantId },
      });
    }
    await s.storage.put(entry);
    s.index.enqueue(entry);
    return { entry: structuredClone(entry), memories: [], pii };
  });
}

/** See `MemoryManager.updateMemory`. Access and `id` have been checked. */
export async function updateMemory(
  s: ManagerState,
  tenantId: string,
  id: string,
  patch: MemoryPatch,
): Promise<MemoryEntry> {
  if (typeof patch !== 'object' || patch === null) invalid('patch', 'an object', patch);
  checkOptionKeys(patch, ['content', 'title', 'text', 'kind', 'importance', 'tags', 'metadata', 'touch'], 'patch');
  if (patch.touch !== undefined && typeof patch.touch !== 'boolean') invalid('patch.touch', 'a boolean', patch.touch);
  if (patch.importance !== undefined) checkUnit('importance', patch.importance);
  const limits = s.config.limits;
  if (patch.content !== undefined) checkContentSize(validateContent(patch.content), limits);
  if (patch.title !== undefined) checkText('patch.title', patch.title, limits.memoryChars);
  if (patch.text !== undefined) checkText('patch.text', patch.text, limits.memoryChars);
  if (patch.kind !== undefined) checkKind(patch.kind, 'patch.kind');
  const tags = patch.tags === undefined ? undefined : normalizeTags(patch.tags, limits.tags);
  const metadata =
    patch.metadata === undefined ? undefined : validateMetadata(patch.metadata, limits, 'patch.metadata');
  return s.serial(tenantId, async () => {
    const current = await s.storage.get(tenantId, id);
    if (!current)
      throw new ZerdaError('NOT_FOUND', `No memory ${id} in tenant ${tenantId}`, { details: { id, tenantId } });
    let content: MemoryContent = patch.content ?? current.content;
    if (patch.title !== undefined || patch.text !== undefined) {
      if ('input' in content) invalid('patch.title', 'title/text only on titled memories (use content)', patch.title);
      content = {
        title: patch.title !== undefined ? s.mask(patch.title, 'title').text : content.title,
        text: patch.text !== undefined ? s.mask(patch.text, 'text').text : content.text,
      };
    } else if (patch.content) {
      content = maskContent(content, (t, f) => s.mask(t, f).text);
    }
    const previous = historyRecord(current, s.clock());
    const history = Array.isArray(current.metadata.history) ? current.metadata.history : [];
    const now = s.clock();
    let next: MemoryEntry = {
      ...current,
      content: validateContent(content),
      kind: patch.kind ?? current.kind,
      importance: patch.importance ?? current.importance,
      // An importance given now is the importance as of now: decay restarts from here.
      lastAccess: patch.importance !== undefined ? Math.max(current.lastAccess, s.clock()) : current.lastAccess,
      tags: tags ?? current.tags,
      metadata: { ...(metadata ?? current.metadata), history: [...history, previous] },
      version: current.version + 1,
    };
    if (patch.touch) {
      const { [REINFORCEMENT_ACCUM_KEY]: _dropped, ...kept } = next.metadata;
      next = {
        ...next,
        importance:
          patch.importance ?? quantize(effectiveImportance(current, now, s.config), s.config.importanceQuantum),
        lastAccess: Math.max(current.lastAccess, now),
        metadata: kept,
      };
    }
    await s.storage.put(next);
    if (indexedText(next) !== indexedText(current)) s.index.enqueue(next);
    return structuredClone(next);
  });
}

/** See `MemoryManager.deleteMemory`. Access and `id` have been checked. */
export async function deleteMemory(s: ManagerState, tenantId: string, id: string): Promise<boolean> {
  return s.serial(tenantId, async () => {
    s.index.drop(tenantId, id);
    const removed = await s.storage.delete(tenantId, id);
    if (s.semantic) await s.semantic.remove(tenantId, [id]);
    return removed;
  });
}

/** A turn's input and output are each at most `turnChars`, a memory's title and text `memoryChars`. */
function checkContentSize(content: MemoryContent, limits: InputLimits): void {
  if ('input' in content) {
    checkText('patch.content.input', content.input, limits.turnChars);
    checkText('patch.content.output', content.output, limits.turnChars);
  } else {
    checkText('patch.content.title', content.title, limits.memoryChars);
    checkText('patch.content.text', content.text, limits.memoryChars);
  }
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function maskContent(content: MemoryContent, mask: (text: string, field: string) => string): MemoryContent {
  if ('input' in content) return { input: mask(content.input, 'input'), output: mask(content.output, 'output') };
  return { title: mask(content.title, 'title'), text: mask(content.text, 'text') };
}
