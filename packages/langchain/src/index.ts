/**
 * @zerda/langchain — Zerda's memory for LangChain.js: `ZerdaRetriever` (a `BaseRetriever` over
 * recall) and `ZerdaChatMessageHistory` (a `BaseListChatMessageHistory` over the saved turns).
 * @module @zerda/langchain
 */
export { ZerdaRetriever } from './retriever.js';
export type { ZerdaDocumentMetadata, ZerdaRetrieverInput } from './retriever.js';
export { ZerdaChatMessageHistory } from './message-history.js';
export type { HistoryMemory, ZerdaChatMessageHistoryInput } from './message-history.js';
// The core types the retriever's and the history's memory take and return.
export type {
  MemoryManager,
  RecallHit,
  SaveInteractionOptions,
  SaveResult,
  SemanticSearchOptions,
  ShortTermView,
} from '@zerda/core';
