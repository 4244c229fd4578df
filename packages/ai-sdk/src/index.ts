/**
 * @zerda/ai-sdk — Zerda's memory for the Vercel AI SDK: `zerdaMemory()` middleware for
 * `wrapLanguageModel` (recall before a call, save the turn after it) and `aiSdkLlm()`, an AI SDK
 * model as Zerda's `LlmClient`.
 * @module @zerda/ai-sdk
 */
export { zerdaMemory } from './memory-middleware.js';
export type { ChatMemory, SavedTurn, ZerdaMemoryOptions } from './memory-middleware.js';
export { aiSdkLlm } from './llm-client.js';
export type { AiSdkLlmOptions } from './llm-client.js';
// The core types a ChatMemory and aiSdkLlm take and return (an app that installs only @zerda/ai-sdk
// and @zerda/browser can name them).
export type { BuildContextOptions, LlmClient, ManagedContext, SaveInteractionOptions, SaveResult } from '@zerda/core';
