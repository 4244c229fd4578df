/**
 * Zerda in 30 lines, in Node: save a few turns, build a context for the next one, print it.
 * Run: `npx tsx examples/quickstart.ts`
 */
import { MemoryManager } from '@zerda/core';

const mgr = await MemoryManager.create({ owner: 'me', systemPrompt: 'You are a friendly assistant.' });

const turns: [string, string][] = [
  ['Hi! My name is Ana and I live in Porto.', 'Nice to meet you, Ana!'],
  ['I am allergic to peanuts, please remember that.', 'Noted: no peanuts.'],
  ['My email is ana@example.com if you need it.', 'Thanks, I will keep it private.'],
  ['I love hiking in the Peneda-Gerês park on weekends.', 'Sounds lovely.'],
];
for (const [input, output] of turns) {
  const { entry, pii } = await mgr.saveInteraction('me', 'demo', input, output);
  console.log(
    `saved ${entry.tier.padEnd(10)} importance ${entry.importance.toFixed(2)}${pii.length ? `  (masked: ${pii.map((p) => p.type).join(', ')})` : ''}`,
  );
}
await mgr.flush();

const context = await mgr.buildContext('me', 'demo', 'Can you suggest a snack for my hike?', { tokenBudget: 400 });
console.log(`\n--- context (${context.tokenCount}/${context.budget} tokens) ---\n${context.text}`);
console.log('\n--- maintenance ---\n', await mgr.runMaintenance('demo'));
await mgr.close();
