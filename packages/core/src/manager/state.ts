/** What the manager's concerns share: resolved options, per-user tiers, the tenant lock, the index queue. */
import type { AccessController } from '../privacy/access-controller.js';
import type { Clock } from '../model/clock.js';
import type { MemoryConfig } from '../model/config.js';
import type { Embedder, LlmClient } from '../model/embedder.js';
import { ForgettingMechanism } from '../dynamics/forgetting.js';
import { LongTermMemory } from '../tiers/long-term-memory.js';
import type { PiiFinding, PiiMasker } from '../privacy/pii-masker.js';
import { UserProfileManager } from '../dynamics/profile-manager.js';
import { MemorySelector } from '../retrieval/selector.js';
import { SemanticMemory } from '../tiers/semantic-memory.js';
import { ShortTermMemory } from '../tiers/short-term-memory.js';
import type { StorageAdapter } from '../storage/storage.js';
import type { TokenCounter } from '../context/tokens.js';
import { WorkingMemory } from '../tiers/working-memory.js';
import { IndexQueue } from './index-queue.js';
import type { MemoryExtractor } from '../formation/types.js';
import type { ZerdaError } from '../model/errors.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { ResolvedManagerOptions } from './options.js';

const userKey = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;

/**
 * The internals of one `MemoryManager`, shared by its concerns (write path, recall, maintenance).
 * Nothing here checks arguments or access: the facade does that before calling in.
 */
export class ManagerState {
  readonly config: MemoryConfig;
  readonly clock: Clock;
  readonly storage: StorageAdapter;
  readonly embedder: Embedder | null;
  readonly llm: LlmClient | undefined;
  readonly owner: { userId: string; tenantId?: string } | undefined;
  readonly masker: PiiMasker | null;
  readonly counter: TokenCounter;
  readonly contextTokens: number;
  readonly systemPrompt: string | undefined;
  readonly turnContext: 'previous' | 'none';
  readonly access: AccessController;
  readonly profiles: UserProfileManager;
  readonly semantic: SemanticMemory | null;
  readonly selector: MemorySelector;
  readonly forgetting: ForgettingMechanism;
  /** Tenant mutations run one at a time (reinforcement must not race an update). */
  readonly tenants = new KeyedMutex<string>();
  readonly index: IndexQueue;
  /** How turns become memories (`null`: `formation: 'turns'`). */
  readonly extractor: MemoryExtractor | null;
  /** Background formation runs (LLM extractors), awaited by `flush()`. */
  readonly formations = new Set<Promise<void>>();
  /** Formation failures not yet reported by `flush()`. */
  formationErrors: ZerdaError[] = [];
  readonly #shortTerm = new Map<string, ShortTermMemory>();
  readonly #working = new Map<string, WorkingMemory>();
  readonly #longTerm = new Map<string, LongTermMemory>();

  constructor(o: ResolvedManagerOptions) {
    this.config = o.config;
    this.clock = o.clock;
    this.storage = o.storage;
    this.embedder = o.embedder;
    this.llm = o.llm;
    this.owner = o.owner;
    this.masker = o.masker;
    this.counter = o.counter;
    this.contextTokens = o.contextTokens;
    this.systemPrompt = o.systemPrompt;
    this.turnContext = o.turnContext;
    this.access = o.access;
    this.profiles = new UserProfileManager({ storage: this.storage, clock: this.clock });
    this.semantic = this.embedder
      ? new SemanticMemory({ storage: this.storage, embedder: this.embedder, config: this.config, clock: this.clock })
      : null;
    this.selector = new MemorySelector(this.config, this.clock);
    this.forgetting = new ForgettingMechanism(this.config, this.clock);
    this.index = new IndexQueue(this.semantic, this.storage);
    this.extractor = o.extractor;
  }

  /** Run a tenant mutation after the ones already queued for the tenant. */
  serial<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    return this.tenants.run(tenantId, fn);
  }

  /** Mask PII in `text`; the findings are tagged with `field`. */
  mask(text: string, field: string): { text: string; findings: (PiiFinding & { field: string })[] } {
    if (!this.masker || !text) return { text, findings: [] };
    const r = this.masker.mask(text);
    return { text: r.text, findings: r.findings.map((f) => ({ ...f, field })) };
  }

  longTerm(tenantId: string): LongTermMemory {
    let ltm = this.#longTerm.get(tenantId);
    if (!ltm) {
      ltm = new LongTermMemory({ storage: this.storage, tenantId, config: this.config, clock: this.clock });
      this.#longTerm.set(tenantId, ltm);
    }
    return ltm;
  }

  shortTerm(tenantId: string, userId: string): ShortTermMemory {
    const key = userKey(tenantId, userId);
    let stm = this.#shortTerm.get(key);
    if (!stm) {
      stm = new ShortTermMemory(this.config.windowSize, { config: this.config, clock: this.clock, tenantId });
      this.#shortTerm.set(key, stm);
    }
    return stm;
  }

  /** The user's short-term window if one exists (never creates one). */
  existingShortTerm(tenantId: string, userId: string): ShortTermMemory | undefined {
    return this.#shortTerm.get(userKey(tenantId, userId));
  }

  workingMemory(tenantId: string, userId: string): WorkingMemory {
    const key = userKey(tenantId, userId);
    let wm = this.#working.get(key);
    if (!wm) {
      wm = new WorkingMemory(this.config.maxWorking, this.config.maxTokens, this.counter);
      this.#working.set(key, wm);
    }
    return wm;
  }

  /** The short-term windows of every user of `tenantId`. */
  shortTermsOf(tenantId: string): ShortTermMemory[] {
    return [...this.#shortTerm].filter(([key]) => key.startsWith(`${tenantId}\u0000`)).map(([, stm]) => stm);
  }

  /** The working memories of every user of `tenantId`. */
  workingMemoriesOf(tenantId: string): WorkingMemory[] {
    return [...this.#working].filter(([key]) => key.startsWith(`${tenantId}\u0000`)).map(([, wm]) => wm);
  }

  /** Forget the in-memory tiers of `tenantId` (short-term, working, long-term handles). */
  dropTiers(tenantId: string): void {
    const prefix = `${tenantId}\u0000`;
    for (const key of [...this.#shortTerm.keys()]) if (key.startsWith(prefix)) this.#shortTerm.delete(key);
    for (const key of [...this.#working.keys()]) if (key.startsWith(prefix)) this.#working.delete(key);
    this.#longTerm.delete(tenantId);
  }
}
