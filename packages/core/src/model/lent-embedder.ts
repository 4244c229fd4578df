import type { Embedder } from './embedder.js';

/**
 * `inner` lent to one user — typically a `MemoryManager`, whose `close()` closes its embedder —
 * without giving it away: every call is delegated except `close()`, which leaves `inner` open for
 * the next user. One loaded model can so serve several managers in turn; close `inner` yourself.
 */
export function lendEmbedder(inner: Embedder): Embedder {
  return {
    get modelId() {
      return inner.modelId;
    },
    get dim() {
      return inner.dim;
    },
    ready: () => inner.ready(),
    embed: (texts, options) => inner.embed(texts, options),
    close: async () => {},
  };
}
