/** The manager's write path: save a turn, remember a fact, update and delete a memory. */
import { estimateImportance } from '../dynamics/importance.js';
import { retentionBoost } from '../dynamics/profile-manager.js';
import { createEntry, normalizeTags, validateContent, validateMetadata, type NewEntry } from '../model/entry.js';
import { invalid, ZerdaError } from '../model/errors.js';
import { checkOptionKeys } from '../model/options.js';
import { entryText, type JsonValue, type MemoryContent, type MemoryEntry } from '../model/types.js';
import { CONTEXT_KEY, indexedText } from '../tiers/semantic-memory.js';
import { checkKind, checkUnit } from './options.js';
import type { ManagerState } from './state.js';
import type { MemoryPatch, RememberInput, SaveInteractionOptions, SaveResult } from './types.js';

/** Longest automatic turn context (characters); longer previous turns keep their end. */
const MAX_TURN_CONTEXT_CHARS = 400;

/** See `MemoryManager.saveInteraction`. Access has been checked. */
export async function saveInteraction(
  s: ManagerState,
  userId: string,
  tenantId: string,
  input: string,
  output: string,
  options: SaveInteractionOptions,
): Promise<SaveResult> {
  if (typeof input !== 'string') invalid('input', 'a string', input);
  if (typeof output !== 'string') invalid('output', 'a string', output);
  if (!input.trim() && !output.trim()) invalid('input', 'a non-empty input or output', input);
  checkOptionKeys(options, ['importance', 'tags', 'metadata', 'topics', 'kind'], 'saveInteraction options');
  if (options.importance !== undefined) checkUnit('importance', options.importance);
  const tags = options.tags === undefined ? [] : normalizeTags(options.tags);
  const metadata = options.metadata === undefined ? {} : validateMetadata(options.metadata);
  if (options.topics !== undefined && (!Array.isArray(options.topics) || options.topics.some((t) => typeof t !== 'string')))
    invalid('topics', 'an array of strings', options.topics);

  const maskedIn = s.mask(input, 'input');
  const maskedOut = s.mask(output, 'output');
  const pii = [...maskedIn.findings, ...maskedOut.findings];
  const content = { input: maskedIn.text, output: maskedOut.text };

  if (options.kind !== undefined) checkKind(options.kind);

  return s.serial(tenantId, async () => {
    const topics = options.topics ?? s.profiles.extractTopics(content.input);
    // The boost this interaction earns is computed from the profile as it will be after the
    // update, but the profile is written only once the entry is stored: a failed save leaves
    // the profile untouched (a rejected call changes nothing).
    const current = await s.profiles.get(tenantId, userId);
    const boost = retentionBoost(current.interactionCount + 1);
    const base = options.importance ?? estimateImportance(content.input, content.output);
    const importance = clamp01(options.importance === undefined ? base + boost : base);
    if (pii.length) metadata.piiMasked = pii.length;
    if (s.turnContext === 'previous' && metadata[CONTEXT_KEY] === undefined) {
      const previous = s.existingShortTerm(tenantId, userId)?.getRecent(1)[0];
      const text = previous ? entryText(previous).trim() : '';
      if (text) metadata[CONTEXT_KEY] = text.length > MAX_TURN_CONTEXT_CHARS ? `…${text.slice(-MAX_TURN_CONTEXT_CHARS)}` : text;
    }
    const promote = importance >= s.config.importanceThreshold;
    const newEntry: NewEntry = {
      content,
      kind: options.kind ?? 'conversation',
      tier: promote ? 'long_term' : 'short_term',
      importance,
      tags,
      metadata,
      userId,
    };
    const entry = createEntry(tenantId, newEntry, s.clock());
    if (promote) await s.storage.put(entry);
    try {
      await s.profiles.update(tenantId, userId, { topics, text: content.input });
    } catch (err) {
      // Best-effort rollback; the profile failure is what the caller needs to see.
      if (promote) await s.storage.delete(tenantId, entry.id).catch(() => undefined);
      throw err;
    }
    if (promote) s.index.enqueue(entry);
    s.shortTerm(tenantId, userId).add(content, { ...newEntry, id: entry.id, createdAt: entry.createdAt, tenantId });
    return { entry: structuredClone(entry), pii };
  });
}

/** See `MemoryManager.remember`. Access has been checked. */
export async function remember(s: ManagerState, userId: string, tenantId: string, input: RememberInput): Promise<SaveResult> {
  if (typeof input !== 'object' || input === null) invalid('memory', 'an object with title and text', input);
  checkOptionKeys(input, ['title', 'text', 'kind', 'importance', 'tags', 'metadata'], 'memory');
  if (typeof input.title !== 'string' || !input.title.trim()) invalid('title', 'a non-empty string', input.title);
  if (typeof input.text !== 'string') invalid('text', 'a string', input.text);
  if (input.importance !== undefined) checkUnit('importance', input.importance);
  const title = s.mask(input.title, 'title');
  const text = s.mask(input.text, 'text');
  const pii = [...title.findings, ...text.findings];
  const metadata = input.metadata === undefined ? {} : validateMetadata(input.metadata);
  if (pii.length) metadata.piiMasked = pii.length;
  const entry = createEntry(
    tenantId,
    {
      content: { title: title.text, text: text.text },
      kind: input.kind ?? 'fact',
      tier: 'long_term',
      importance: input.importance ?? 0.5,
      tags: input.tags ?? [],
      metadata,
      userId,
    },
    s.clock(),
  );
  return s.serial(tenantId, async () => {
    await s.storage.put(entry);
    s.index.enqueue(entry);
    return { entry: structuredClone(entry), pii };
  });
}

/** See `MemoryManager.updateMemory`. Access and `id` have been checked. */
export async function updateMemory(s: ManagerState, tenantId: string, id: string, patch: MemoryPatch): Promise<MemoryEntry> {
  if (typeof patch !== 'object' || patch === null) invalid('patch', 'an object', patch);
  checkOptionKeys(patch, ['content', 'title', 'text', 'kind', 'importance', 'tags', 'metadata'], 'patch');
  if (patch.importance !== undefined) checkUnit('importance', patch.importance);
  if (patch.content !== undefined) validateContent(patch.content);
  if (patch.kind !== undefined) checkKind(patch.kind);
  const tags = patch.tags === undefined ? undefined : normalizeTags(patch.tags);
  const metadata = patch.metadata === undefined ? undefined : validateMetadata(patch.metadata);
  return s.serial(tenantId, async () => {
    const current = await s.storage.get(tenantId, id);
    if (!current) throw new ZerdaError('NOT_FOUND', `No memory ${id} in tenant ${tenantId}`, { details: { id, tenantId } });
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
    const previous = {
      content: current.content as unknown as JsonValue,
      importance: current.importance,
      tags: current.tags,
      kind: current.kind,
      version: current.version,
      replacedAt: s.clock(),
    } satisfies Record<string, JsonValue>;
    const history = Array.isArray(current.metadata.history) ? current.metadata.history : [];
    const next: MemoryEntry = {
      ...current,
      content: validateContent(content),
      kind: patch.kind ?? current.kind,
      importance: patch.importance ?? current.importance,
      tags: tags ?? current.tags,
      metadata: { ...(metadata ?? current.metadata), history: [...history, previous] },
      version: current.version + 1,
    };
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

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function maskContent(content: MemoryContent, mask: (text: string, field: string) => string): MemoryContent {
  if ('input' in content) return { input: mask(content.input, 'input'), output: mask(content.output, 'output') };
  return { title: mask(content.title, 'title'), text: mask(content.text, 'text') };
}
