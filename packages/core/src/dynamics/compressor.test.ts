import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../model/clock.js';
import { resolveConfig } from '../model/config.js';
import type { MemoryConfig } from '../model/config.js';
import { MemoryCompressor } from './compressor.js';
import type { LlmClient } from '../model/embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { LongTermMemory } from '../tiers/long-term-memory.js';
import { estimateTokens } from '../context/tokens.js';
import type { MemoryEntry } from '../model/types.js';

class RecordingLlm implements LlmClient {
  calls: { prompt: string; maxTokens: number }[] = [];
  constructor(private readonly reply: (prompt: string) => string | Promise<string>) {}
  async generate(prompt: string, options: { maxTokens: number }): Promise<string> {
    this.calls.push({ prompt, maxTokens: options.maxTokens });
    return this.reply(prompt);
  }
}

function setup(partial: Partial<MemoryConfig> = {}) {
  const clock = { now: 0 };
  const config = resolveConfig({ compressionBatchSize: 10, compressionMinAgeDays: 7, ...partial });
  const ltm = new LongTermMemory({ storage: new InMemoryStorage(), tenantId: 't', config, clock: () => clock.now });
  return { clock, config, ltm };
}

const chat = (input: string, output: string, extra: Partial<MemoryEntry> = {}) => ({
  content: { input, output },
  kind: 'conversation',
  importance: 0.2,
  ...extra,
});

describe('MemoryCompressor', () => {
  it('shouldCompress above compressionTrigger * maxLongTerm', () => {
    const c = new MemoryCompressor({ config: resolveConfig({ maxLongTerm: 100, compressionTrigger: 0.8 }) });
    expect(c.shouldCompress(80)).toBe(false);
    expect(c.shouldCompress(81)).toBe(true);
  });

  it('merges only old, low-importance, unprotected, non-summary entries, grouped by kind', async () => {
    const { clock, config, ltm } = setup();
    const olds = await ltm.storeMany([
      chat('Where should I travel in spring?', 'Kyoto is lovely in spring with cherry blossoms.'),
      chat('What about food in Kyoto?', 'Try kaiseki and matcha sweets in Kyoto.'),
      chat('ok thanks', 'You are welcome.'),
    ]);
    const pinned = await ltm.store(chat('My name is Ada', 'Nice to meet you, Ada.', { tags: ['pinned'] }));
    const important = await ltm.store(chat('Remember my allergy to nuts', 'Noted.', { importance: 0.95 }));
    const facts = await ltm.storeMany([
      { content: { title: 'Car', text: 'Drives an old Volvo.' }, kind: 'fact', importance: 0.05 },
      { content: { title: 'Bike', text: 'Rides a red bike to work.' }, kind: 'fact', importance: 0.05 },
    ]);
    clock.now = 30 * DAY_MS;
    const recent = await ltm.store(chat('new question', 'new answer'));

    const c = new MemoryCompressor({ config, clock: () => clock.now });
    const report = await c.compress(ltm);

    expect(report.usedLlm).toBe(false);
    expect(report.llmErrors).toEqual([]);
    expect(report.summaries).toHaveLength(2);
    expect([...report.removed].sort()).toEqual([...olds, ...facts].map((e) => e.id).sort());
    const byKind = Object.fromEntries(report.summaries.map((s) => [s.metadata.sourceKind, s]));
    expect(byKind.conversation!.kind).toBe('summary');
    expect([...(byKind.conversation!.metadata.sources as string[])].sort()).toEqual(olds.map((e) => e.id).sort());
    expect(byKind.conversation!.metadata.sourceCount).toBe(3);
    expect([...(byKind.fact!.metadata.sources as string[])].sort()).toEqual(facts.map((e) => e.id).sort());

    for (const e of [...olds, ...facts]) expect(await ltm.get(e.id)).toBeUndefined();
    for (const e of [pinned, important, recent]) expect(await ltm.get(e.id)).toEqual(e);
    expect(await ltm.get(report.summaries[0]!.id)).toEqual(report.summaries[0]);

    const again = await c.compress(ltm);
    expect(again.summaries).toEqual([]);
    expect(again.removed).toEqual([]);
  });

  it('writes extractive summaries that keep the informative sentences and stay bounded', () => {
    const c = new MemoryCompressor({ config: resolveConfig(), maxSummaryTokens: 40 });
    const texts = [
      'Kyoto temples are beautiful in spring. ok.',
      'We planned a Kyoto trip for spring. thanks!',
      'The Kyoto trip in spring needs a hotel booking near the temples. Sure.',
      'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation ullamco laboris.',
    ];
    const summary = c.summarise(texts);
    expect(summary).toContain('Kyoto');
    expect(summary).not.toMatch(/\bok\.|thanks!/);
    expect(estimateTokens(summary)).toBeLessThanOrEqual(40);
    const short = new MemoryCompressor({ config: resolveConfig(), maxSummaryTokens: 8 }).summarise([texts[3]!]);
    expect(estimateTokens(short)).toBeLessThanOrEqual(8);
    expect(short.length).toBeGreaterThan(0);
  });

  it('bounds every batch by compressionBatchSize and leaves a lone remainder alone', async () => {
    const { clock, config, ltm } = setup({ compressionBatchSize: 2 });
    const es = await ltm.storeMany([1, 2, 3, 4, 5].map((i) => chat(`question ${i}`, `answer ${i}`, { createdAt: i })));
    clock.now = 30 * DAY_MS;
    const report = await new MemoryCompressor({ config, clock: () => clock.now }).compress(ltm);
    expect(report.summaries.map((s) => s.metadata.sourceCount)).toEqual([2, 2]);
    expect(await ltm.get(es[4]!.id)).toBeDefined();
    expect(await ltm.count()).toBe(3);
  });

  it('uses the LLM when given, with a bounded maxTokens', async () => {
    const { clock, config, ltm } = setup();
    await ltm.storeMany([chat('I love hiking', 'Great hobby'), chat('Hiked Mont Blanc', 'Impressive')]);
    clock.now = 30 * DAY_MS;
    const llm = new RecordingLlm(() => 'User enjoys hiking and climbed Mont Blanc.');
    const report = await new MemoryCompressor({ config, clock: () => clock.now, llm, maxSummaryTokens: 64 }).compress(
      ltm,
    );
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]!.maxTokens).toBe(64);
    expect(llm.calls[0]!.prompt).toContain('Hiked Mont Blanc');
    expect(report.usedLlm).toBe(true);
    expect(report.summaries[0]!.content).toEqual({
      title: 'Summary of 2 conversation memories',
      text: 'User enjoys hiking and climbed Mont Blanc.',
    });
    expect(report.summaries[0]!.metadata.method).toBe('llm');
  });

  it('falls back to extractive when the LLM fails, and reports it', async () => {
    const { clock, config, ltm } = setup();
    const es = await ltm.storeMany([
      chat('I love hiking in the Alps', 'Great'),
      chat('Hiking boots advice?', 'Get waterproof hiking boots'),
    ]);
    clock.now = 30 * DAY_MS;
    const llm = new RecordingLlm(() => {
      throw new Error('model offline');
    });
    const report = await new MemoryCompressor({ config, clock: () => clock.now, llm }).compress(ltm);
    expect(report.usedLlm).toBe(false);
    expect(report.llmErrors).toEqual(['conversation: model offline']);
    expect(report.summaries).toHaveLength(1);
    expect(report.summaries[0]!.metadata.method).toBe('extractive');
    expect((report.summaries[0]!.content as { text: string }).text).toMatch(/hiking/i);
    expect(report.removed.sort()).toEqual(es.map((e) => e.id).sort());
  });

  it('treats an empty LLM reply as a failure', async () => {
    const { clock, config, ltm } = setup();
    await ltm.storeMany([chat('a question here', 'an answer'), chat('another question', 'another answer')]);
    clock.now = 30 * DAY_MS;
    const report = await new MemoryCompressor({
      config,
      clock: () => clock.now,
      llm: new RecordingLlm(() => '  '),
    }).compress(ltm);
    expect(report.llmErrors).toHaveLength(1);
    expect(report.summaries[0]!.metadata.method).toBe('extractive');
  });
});
