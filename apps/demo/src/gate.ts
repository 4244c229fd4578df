import { relevanceFloors, strongFloor } from '@zerda/core';
import { TENANT, type DemoApp } from './app.js';
import { memorySnippet } from './responder.js';

/**
 * Why recall (the chat's and the Recall tab's, the same relevance gate) let nothing through for
 * `query`, in one or two sentences: the closest memory by meaning, its score, and the floor the
 * gate asks of a store this size (read from core's calibrated floors, not restated here).
 */
export async function explainNothingRecalled(app: DemoApp, query: string): Promise<string> {
  const manager = app.manager;
  // The closest memory by meaning, ranked without the gate (nothing is reinforced).
  const [best] = await manager.recall(app.user, TENANT, query, {
    mode: 'vector',
    topK: 1,
    minScore: 0,
    ratio: 0,
    reinforce: false,
  });
  const stats = await manager.stats(TENANT);
  const size = stats.storage.vectors;
  const floors = manager.embedder ? relevanceFloors(manager.embedder.modelId, manager.config.minSimilarity) : undefined;
  if (!best) return 'Nothing was recalled: there is no memory to compare the question with yet.';
  const closest = `The closest memory by meaning is “${memorySnippet(best.entry, 80)}”, at ${(best.vectorScore ?? 0).toFixed(2)}`;
  if (!floors)
    return `Nothing matched the question's words. ${closest}; this model has no calibrated floor, so only keyword matches count.`;
  const needed = strongFloor(floors, size);
  return (
    `The relevance gate let nothing through (reason: no strong candidate). ${closest}; with ${size} memories ` +
    `a question counts as answered when a memory reaches ${needed.toFixed(2)} by meaning, or shares enough of its words ` +
    `(more than a third of them and meaning ≥ ${floors.strongKeywords.toFixed(2)}). ` +
    'Say it with the words you used when you told me, or in the Recall tab rank without the gate.'
  );
}
