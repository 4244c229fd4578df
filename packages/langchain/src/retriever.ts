import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { Document } from '@langchain/core/documents';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { entryText, type MemoryManager, type RecallMode } from '@zerda/core';
import { checkId, invalid } from '@zerda/core/adapter';

/** Options of {@link ZerdaRetriever}. */
export interface ZerdaRetrieverInput extends BaseRetrieverInput {
  /** The memory: a `MemoryManager`, or `(await openBrowserMemory()).manager`. */
  memory: Pick<MemoryManager, 'recall'>;
  /** Whose memory (access control is the manager's). */
  userId: string;
  /** Which memory of that user. Default `'default'`. */
  tenantId?: string;
  /** Most documents returned. Default the manager's `config.retrievalLimit`. */
  topK?: number;
  /** `'hybrid'` (default), `'lexical'` or `'vector'`. */
  mode?: RecallMode;
  /** Reinforce what is recalled, as a recall does. Default true. */
  reinforce?: boolean;
}

/** What a {@link ZerdaRetriever} document carries besides its text. */
export interface ZerdaDocumentMetadata extends Record<string, unknown> {
  id: string;
  kind: string;
  tier: string;
  createdAt: number;
  tags: string[];
  /** The fused recall score, and why the memory passed recall's relevance gate. */
  score: number;
  reason: string | undefined;
  /** The turns a formed memory came from (`metadata.sources`). */
  sources: string[];
}

/**
 * A LangChain.js retriever over Zerda's recall: `invoke(query)` returns the memories that pass
 * recall's relevance gate as `Document`s (best first; an unrelated question returns none), with
 * the memory's id, kind, score and sources in `metadata`.
 */
export class ZerdaRetriever extends BaseRetriever<ZerdaDocumentMetadata> {
  lc_namespace = ['zerda', 'retrievers'];
  readonly #memory: Pick<MemoryManager, 'recall'>;
  readonly #userId: string;
  readonly #tenantId: string;
  readonly #topK: number | undefined;
  readonly #mode: RecallMode | undefined;
  readonly #reinforce: boolean;

  constructor(fields: ZerdaRetrieverInput) {
    const { memory, userId, tenantId = 'default', topK, mode, reinforce = true, ...base } = fields;
    super(base);
    if (typeof memory?.recall !== 'function') invalid('memory', 'a MemoryManager (recall)', memory);
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    if (topK !== undefined && (!Number.isInteger(topK) || topK < 1)) invalid('topK', 'a positive integer', topK);
    this.#memory = memory;
    this.#userId = userId;
    this.#tenantId = tenantId;
    this.#topK = topK;
    this.#mode = mode;
    this.#reinforce = reinforce;
  }

  override async _getRelevantDocuments(
    query: string,
    _runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<ZerdaDocumentMetadata>[]> {
    const hits = await this.#memory.recall(this.#userId, this.#tenantId, query, {
      ...(this.#topK !== undefined ? { topK: this.#topK } : {}),
      ...(this.#mode !== undefined ? { mode: this.#mode } : {}),
      reinforce: this.#reinforce,
    });
    return hits.map(
      (hit) =>
        new Document<ZerdaDocumentMetadata>({
          id: hit.entry.id,
          pageContent: entryText(hit.entry),
          metadata: {
            id: hit.entry.id,
            kind: hit.entry.kind,
            tier: hit.entry.tier,
            createdAt: hit.entry.createdAt,
            tags: hit.entry.tags,
            score: hit.score,
            reason: hit.reason,
            sources: Array.isArray(hit.entry.metadata.sources) ? (hit.entry.metadata.sources as string[]) : [],
          },
        }),
    );
  }
}
