/** The manager's option checks: everything a caller passes is validated here, before use. */
import { AccessController } from '../privacy/access-controller.js';
import { systemClock, type Clock } from '../model/clock.js';
import { resolveConfig, type MemoryConfig } from '../model/config.js';
import type { Embedder, LlmClient } from '../model/embedder.js';
import { invalid } from '../model/errors.js';
import { checkId } from '../model/ids.js';
import { checkOptionKeys } from '../model/options.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { PiiMasker } from '../privacy/pii-masker.js';
import type { StorageAdapter } from '../storage/storage.js';
import { estimateTokens, type TokenCounter } from '../context/tokens.js';
import type { MemoryManagerOptions, OwnerOption } from './types.js';
import { LlmExtractor } from '../formation/llm-extractor.js';
import { OfflineExtractor } from '../formation/offline-extractor.js';
import type { MemoryExtractor } from '../formation/types.js';

const MANAGER_OPTION_KEYS = [
  'config',
  'storage',
  'embedder',
  'llm',
  'clock',
  'owner',
  'masker',
  'counter',
  'contextTokens',
  'systemPrompt',
  'access',
  'turnContext',
  'formation',
] as const;

/** {@link MemoryManagerOptions} validated, with every default filled in. */
export interface ResolvedManagerOptions {
  config: MemoryConfig;
  clock: Clock;
  storage: StorageAdapter;
  embedder: Embedder | null;
  llm: LlmClient | undefined;
  owner: { userId: string; tenantId?: string } | undefined;
  masker: PiiMasker | null;
  counter: TokenCounter;
  contextTokens: number;
  systemPrompt: string | undefined;
  turnContext: 'previous' | 'none';
  access: AccessController;
  /** The extractor, or `null` for `formation: 'turns'`. */
  extractor: MemoryExtractor | null;
}

/** Validate the options of `MemoryManager.create` and fill in the defaults. */
export function resolveManagerOptions(options: MemoryManagerOptions): ResolvedManagerOptions {
  // A typo such as `storge` would otherwise run on a fresh in-memory storage and lose everything.
  checkOptionKeys(options, MANAGER_OPTION_KEYS, 'options');
  if (options.llm !== undefined && typeof (options.llm as Partial<LlmClient> | null)?.generate !== 'function')
    invalid('llm', 'an LlmClient with generate(prompt, { maxTokens })', options.llm);
  if (
    options.masker !== undefined &&
    options.masker !== false &&
    typeof (options.masker as Partial<PiiMasker> | null)?.mask !== 'function'
  )
    invalid('masker', 'a PiiMasker or false', options.masker);
  if (options.counter !== undefined && typeof options.counter !== 'function')
    invalid('counter', 'a function (text) => tokens', options.counter);
  if (options.systemPrompt !== undefined && typeof options.systemPrompt !== 'string')
    invalid('systemPrompt', 'a string', options.systemPrompt);
  if (options.access !== undefined && !(options.access instanceof AccessController))
    invalid('access', 'an AccessController', options.access);
  const config = resolveConfig(options.config ?? {});
  const clock = options.clock ?? systemClock;
  if (typeof clock !== 'function') invalid('clock', 'a function returning epoch milliseconds', clock);
  const storage = options.storage ?? new InMemoryStorage();
  const embedder = options.embedder === null ? null : (options.embedder ?? new HashEmbedder());
  const owner = normalizeOwner(options.owner);
  const masker = options.masker === false ? null : (options.masker ?? new PiiMasker());
  const counter = options.counter ?? estimateTokens;
  // maxTokens is the whole context budget (as in the Python package Zerda ports).
  const contextTokens = options.contextTokens ?? config.maxTokens;
  if (!Number.isInteger(contextTokens) || contextTokens < 16)
    invalid('contextTokens', 'an integer >= 16', options.contextTokens);
  const turnContext = options.turnContext ?? 'previous';
  if (turnContext !== 'previous' && turnContext !== 'none')
    invalid('turnContext', "'previous' | 'none'", options.turnContext);
  const formation = options.formation ?? 'offline';
  let extractor: MemoryExtractor | null;
  if (formation === 'turns') extractor = null;
  else if (formation === 'offline') extractor = new OfflineExtractor();
  else if (formation === 'llm') {
    if (!options.llm) invalid('formation', "an llm option with formation 'llm'", formation);
    extractor = new LlmExtractor(options.llm);
  } else if (
    typeof (formation as Partial<MemoryExtractor> | null)?.extract === 'function' &&
    typeof (formation as MemoryExtractor).name === 'string'
  )
    extractor = formation as MemoryExtractor;
  else invalid('formation', "'offline' | 'llm' | 'turns' | a MemoryExtractor", formation);
  return {
    extractor,
    config,
    clock,
    storage,
    embedder,
    llm: options.llm,
    owner,
    masker,
    counter,
    contextTokens,
    systemPrompt: options.systemPrompt,
    turnContext,
    access: options.access ?? new AccessController(),
  };
}

function normalizeOwner(owner: OwnerOption | undefined): { userId: string; tenantId?: string } | undefined {
  if (owner === undefined) return undefined;
  if (typeof owner === 'string') {
    checkId('owner', owner);
    return { userId: owner };
  }
  if (typeof owner !== 'object' || owner === null) invalid('owner', 'a user id or { userId, tenantId? }', owner);
  checkId('owner.userId', owner.userId);
  if (owner.tenantId !== undefined) checkId('owner.tenantId', owner.tenantId);
  return owner.tenantId === undefined ? { userId: owner.userId } : { userId: owner.userId, tenantId: owner.tenantId };
}

/** A number in [0, 1] (importance). */
export function checkUnit(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    invalid(field, 'a number in [0, 1]', value);
}

/** An integer in [0, 1000] (how many memories or turns). */
export function checkCount(field: string, value: unknown): void {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 1000)
    invalid(field, 'an integer in [0, 1000]', value);
}
