import type { LlmClient } from '@zerda/core';
import { generateText, type LanguageModel } from 'ai';

/** Options of {@link aiSdkLlm}. */
export interface AiSdkLlmOptions {
  /** A system instruction sent with every request. */
  system?: string;
  /** Sampling temperature. Default 0: formation and summaries want the same answer twice. */
  temperature?: number;
  /** Retries on a failed request (the AI SDK's `maxRetries`). Default 1. */
  maxRetries?: number;
}

/**
 * An AI SDK model as Zerda's `LlmClient`, for LLM memory formation and summaries:
 *
 * ```ts
 * const manager = await MemoryManager.create({ llm: aiSdkLlm(openai('gpt-4.1-mini')), formation: 'llm' });
 * ```
 *
 * Formation runs in the background (`manager.flush()` awaits it). When the model fails or answers
 * with something invalid, the manager falls back to the offline extractor for that turn — nothing
 * is lost — and `flush()` rejects once with `FORMATION`; compression falls back to its extractive
 * summary. Give the model that serves chat, or a smaller one.
 */
export function aiSdkLlm(model: LanguageModel, options: AiSdkLlmOptions = {}): LlmClient {
  const { system, temperature = 0, maxRetries = 1 } = options;
  return {
    async generate(prompt, { maxTokens, signal }) {
      const result = await generateText({
        model,
        prompt,
        ...(system !== undefined ? { system } : {}),
        temperature,
        maxRetries,
        maxOutputTokens: maxTokens,
        ...(signal ? { abortSignal: signal } : {}),
      });
      return result.text;
    },
  };
}
