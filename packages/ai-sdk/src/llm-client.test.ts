import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MemoryManager } from '@zerda/core';
import { expectZerdaError } from '@zerda/core/testing';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, test } from 'vitest';
import { aiSdkLlm } from './index.js';

function answer(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  };
}

describe('aiSdkLlm', () => {
  test('an AI SDK model forms memories for the manager (formation: llm)', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: answer(
        '{"operations":[{"op":"ADD","text":"The user keeps bees on the roof.","kind":"fact","about":"user","attribute":"hobby","value":"bees"}]}',
      ),
    });
    const manager = await MemoryManager.create({ owner: 'me', llm: aiSdkLlm(model), formation: 'llm' });
    await manager.saveInteraction('me', 'default', 'I keep bees on my roof, three hives.', 'Lovely!');
    await manager.flush();
    const call = model.doGenerateCalls[0];
    expect(call?.temperature).toBe(0);
    expect(typeof call?.maxOutputTokens).toBe('number');
    expect(JSON.stringify(call?.prompt)).toContain('I keep bees on my roof');
    const memories = await manager.listMemories('me', 'default', { kinds: ['fact'] });
    expect(memories.map((m) => (m.content as { text: string }).text)).toContain('The user keeps bees on the roof.');
    expect(memories.find((m) => (m.content as { text: string }).text.includes('bees'))?.metadata.formedBy).toBe('llm');
    await manager.close();
  });

  test('when the model fails, the offline extractor forms the memory and flush reports FORMATION once', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('rate limited');
      },
    });
    const manager = await MemoryManager.create({
      owner: 'me',
      llm: aiSdkLlm(model, { maxRetries: 0 }),
      formation: 'llm',
    });
    await manager.saveInteraction('me', 'default', 'My sister Ana lives in Lisbon.', 'Nice.');
    await expectZerdaError(manager.flush(), 'FORMATION');
    await manager.flush(); // reported once
    const memories = await manager.listMemories('me', 'default', {});
    const formed = memories.filter((m) => m.metadata.formedBy === 'offline');
    expect(formed.map((m) => (m.content as { text: string }).text)).toContain('My sister Ana lives in Lisbon.');
    await manager.close();
  });
});
