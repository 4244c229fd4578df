/** Counts the tokens a text would take in a model's context. */
export type TokenCounter = (text: string) => number;

/**
 * Tokenizer-free token estimate: `max(ceil(chars / 4), ceil(words * 1.3))`.
 *
 * The char rule matches English BPE averages for prose; the word rule keeps text made of many
 * short words or punctuation-separated pieces from being underestimated. Empty text is 0 tokens.
 */
export const estimateTokens: TokenCounter = (text: string): number => {
  if (typeof text !== 'string' || text.length === 0) return 0;
  const words = text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0;
  return Math.max(Math.ceil(text.length / 4), Math.ceil(words * 1.3));
};
