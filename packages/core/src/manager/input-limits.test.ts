import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../model/config.js';
import { createEntry } from '../model/entry.js';
import { DEFAULT_LIMITS, MAX_METADATA_DEPTH } from '../model/limits.js';
import type { JsonValue } from '../model/types.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { errorOf, expectZerdaError as rejectsWith } from '../testing/rejections.js';
import { MemoryManager, type MemoryManagerOptions } from './memory-manager.js';
import { textWindow } from '../model/limits.js';

async function make(options: MemoryManagerOptions = {}) {
  const storage = new InMemoryStorage();
  const mgr = await MemoryManager.create({ storage, owner: 'me', embedder: null, ...options });
  return { mgr, storage };
}

function nested(depth: number): Record<string, JsonValue> {
  const root: Record<string, JsonValue> = {};
  let at = root;
  for (let i = 1; i < depth; i++) {
    const next: Record<string, JsonValue> = {};
    at.a = next;
    at = next;
  }
  return root;
}

const FACT = 'My sister Ana lives in Lisbon and works as a nurse';

/** The tenant holds nothing and still answers: the rejected call changed nothing. */
async function expectUntouched(mgr: MemoryManager, storage: InMemoryStorage, tenantId = 't'): Promise<void> {
  expect(await storage.count({ tenantId })).toBe(0);
  expect(mgr.shortTerm(tenantId, 'me').size).toBe(0);
  await expect(mgr.buildContext('me', tenantId, 'where does my sister live?')).resolves.toBeDefined();
}

describe('input limits: one validation place before any write', () => {
  it('metadata nested 3,000 and 10,000 deep is rejected with VALIDATION naming the path, and nothing is written', async () => {
    const { mgr, storage } = await make();
    for (const depth of [3_000, 10_000]) {
      const err = await rejectsWith(
        mgr.saveInteraction('me', 't', FACT, 'ok', { metadata: nested(depth) }),
        'VALIDATION',
      );
      expect(err.message).toContain('metadata.a.a');
      expect(err.message).toContain(`at most ${DEFAULT_LIMITS.metadataDepth} levels`);
      await rejectsWith(mgr.remember('me', 't', { title: 'Ana', text: FACT, metadata: nested(depth) }), 'VALIDATION');
    }
    await expectUntouched(mgr, storage);
    const { entry } = await mgr.remember('me', 't', { title: 'Ana', text: FACT });
    await rejectsWith(mgr.updateMemory('me', 't', entry.id, { metadata: nested(3_000) }), 'VALIDATION');
    expect((await mgr.getMemory('me', 't', entry.id))?.version).toBe(1);
  });

  it('the metadata limits are configurable (depth up to the ceiling), and the defaults hold at their edge', async () => {
    const { mgr } = await make();
    await expect(mgr.remember('me', 't', { title: 'x', text: 'y', metadata: nested(16) })).resolves.toBeDefined();
    await rejectsWith(mgr.remember('me', 't', { title: 'x', text: 'y', metadata: nested(17) }), 'VALIDATION');
    const wide = await make({ config: { limits: { metadataDepth: 40 } } });
    await expect(wide.mgr.remember('me', 't', { title: 'x', text: 'y', metadata: nested(40) })).resolves.toBeDefined();
    const err = await rejectsWith(
      () => resolveConfig({ limits: { metadataDepth: MAX_METADATA_DEPTH + 1 } }),
      'VALIDATION',
    );
    expect(err.message).toContain('config.limits.metadataDepth');
    await rejectsWith(() => resolveConfig({ limits: { turnChar: 5 } as never }), 'VALIDATION');
  });

  it('metadata with too many keys or characters is rejected naming the path', async () => {
    const { mgr, storage } = await make({ config: { limits: { metadataKeys: 10, metadataChars: 50 } } });
    const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, i]));
    const keysErr = await rejectsWith(mgr.remember('me', 't', { title: 'x', text: 'y', metadata: many }), 'VALIDATION');
    expect(keysErr.message).toContain('at most 10 keys');
    const items = await rejectsWith(
      mgr.remember('me', 't', { title: 'x', text: 'y', metadata: { list: Array.from({ length: 11 }, () => 1) } }),
      'VALIDATION',
    );
    expect(items.message).toContain('metadata.list');
    const charsErr = await rejectsWith(
      mgr.remember('me', 't', { title: 'x', text: 'y', metadata: { note: 'x'.repeat(51) } }),
      'VALIDATION',
    );
    expect(charsErr.message).toContain('metadata.note');
    await expectUntouched(mgr, storage);
  });

  it('a lone surrogate in a tenant, user, memory id, kind, tag, topic or metadata key is rejected; nothing is written', async () => {
    const { mgr, storage } = await make({ owner: undefined });
    mgr.grant('me', 't', 'admin');
    await rejectsWith(() => mgr.grant('me', 'x\uD800', 'admin'), 'VALIDATION');
    await rejectsWith(() => mgr.grant('x\uDC00', 't', 'admin'), 'VALIDATION');
    await rejectsWith(mgr.saveInteraction('x\uD800', 't', FACT, 'ok'), 'VALIDATION');
    await rejectsWith(mgr.remember('me', 't', { id: 'id\uD800', title: 'x', text: 'y' }), 'VALIDATION');
    await rejectsWith(mgr.remember('me', 't', { title: 'x', text: 'y', kind: 'fact\uDBFF' }), 'VALIDATION');
    await rejectsWith(mgr.remember('me', 't', { title: 'x', text: 'y', tags: ['ok', '\uDC00tag'] }), 'VALIDATION');
    await rejectsWith(mgr.saveInteraction('me', 't', FACT, 'ok', { topics: ['\uD800'] }), 'VALIDATION');
    await rejectsWith(mgr.saveInteraction('me', 't', FACT, 'ok', { metadata: { 'k\uD800': 1 } }), 'VALIDATION');
    await rejectsWith(mgr.clearTenant('x\uD800'), 'VALIDATION');
    await rejectsWith(
      storage.put({ ...createEntry('t', { content: { title: 'x', text: 'y' } }, 0), id: 'a\uDFFF' }),
      'VALIDATION',
    );
    // A well-formed pair (an emoji) is an ordinary id.
    await expect(mgr.remember('me', 't', { id: 'id-\u{1F600}', title: 'x', text: 'y' })).resolves.toBeDefined();
    expect((await storage.query({ tenantId: 't' })).map((e) => e.id)).toEqual(['id-\u{1F600}']);
  });

  it('a lone surrogate in text is stored as U+FFFD, as every adapter stores it', async () => {
    const { mgr } = await make();
    const { entry } = await mgr.remember('me', 't', { title: 'cut\uD83D', text: 'emoji \uDE00 half' });
    expect(entry.content).toEqual({ title: 'cut\uFFFD', text: 'emoji \uFFFD half' });
  });

  it('turn input and output, memory title and text, queries and reinforce batches have size limits', async () => {
    const { mgr, storage } = await make();
    const max = DEFAULT_LIMITS.turnChars;
    const long = `${FACT} ${'x'.repeat(max)}`;
    const err = await rejectsWith(mgr.saveInteraction('me', 't', long, 'ok'), 'VALIDATION');
    expect(err.message).toContain(`at most ${max} characters`);
    await rejectsWith(mgr.saveInteraction('me', 't', FACT, long), 'VALIDATION');
    await rejectsWith(mgr.remember('me', 't', { title: 'x', text: long }), 'VALIDATION');
    await rejectsWith(mgr.remember('me', 't', { title: long, text: 'x' }), 'VALIDATION');
    await rejectsWith(mgr.recall('me', 't', long), 'VALIDATION');
    await rejectsWith(mgr.buildContext('me', 't', long), 'VALIDATION');
    await rejectsWith(mgr.buildContext('me', 't', 'q', { documents: [long] }), 'VALIDATION');
    await rejectsWith(mgr.buildContext('me', 't', 'q', { documents: [{ title: 'x', text: long }] }), 'VALIDATION');
    await rejectsWith(
      mgr.reinforce(
        'me',
        't',
        Array.from({ length: DEFAULT_LIMITS.batch + 1 }, (_, i) => `id${i}`),
      ),
      'VALIDATION',
    );
    await rejectsWith(
      mgr.remember('me', 't', { title: 'x', text: 'y', tags: Array.from({ length: 65 }, (_, i) => `t${i}`) }),
      'VALIDATION',
    );
    await expectUntouched(mgr, storage);
    const { entry } = await mgr.remember('me', 't', { title: 'Ana', text: FACT });
    await rejectsWith(mgr.updateMemory('me', 't', entry.id, { text: long }), 'VALIDATION');
    await rejectsWith(mgr.updateMemory('me', 't', entry.id, { content: { title: 'x', text: long } }), 'VALIDATION');
    await rejectsWith(mgr.updateMemory('me', 't', entry.id, { title: 42 as never }), 'VALIDATION');
    // At the limit exactly, a turn is accepted.
    await expect(
      mgr.saveInteraction('me', 't', `${FACT}${'x'.repeat(max - FACT.length)}`, 'ok'),
    ).resolves.toBeDefined();
    const small = await make({ config: { limits: { turnChars: 100 } } });
    await rejectsWith(small.mgr.saveInteraction('me', 't', 'y'.repeat(101), 'ok'), 'VALIDATION');
  });

  it('formation reads a long turn up to limits.formationChars, cut at a sentence end; the whole turn is stored and searchable', async () => {
    const { mgr, storage } = await make({ config: { limits: { formationChars: 2_000 } } });
    const filler = 'The weather report went on about clouds and rain for a while. '.repeat(40);
    const late = 'My brother Tom loves antique maps.';
    const input = `${FACT}. ${filler}${late}`;
    expect(input.length).toBeGreaterThan(2_000);
    const { entry, memories } = await mgr.saveInteraction('me', 't', input, 'ok');
    const texts = memories.map((m) => ('text' in m.content ? m.content.text : ''));
    expect(texts.some((t) => t.includes('Lisbon'))).toBe(true);
    expect(texts.some((t) => t.includes('antique maps'))).toBe(false);
    expect((await storage.get('t', entry.id))?.content).toEqual({ input, output: 'ok' });
    const hits = await mgr.recall('me', 't', 'antique maps');
    expect(hits.map((h) => h.entry.id)).toContain(entry.id);
    // Within the window, the same statement is formed.
    const wide = await make({ config: { limits: { formationChars: 10_000 } } });
    const formed = (await wide.mgr.saveInteraction('me', 't', input, 'ok')).memories;
    expect(formed.some((m) => 'text' in m.content && m.content.text.includes('antique maps'))).toBe(true);
  });

  it('textWindow keeps a short text whole and cuts a long one back to its last sentence end', () => {
    expect(textWindow('Short. Text', 100)).toBe('Short. Text');
    const text = `${'One sentence here. '.repeat(10)}and a tail that runs past the end`;
    const cut = textWindow(text, 200);
    expect(cut.length).toBeLessThanOrEqual(200);
    expect(cut.endsWith('here.')).toBe(true);
    expect(textWindow('x'.repeat(300), 200)).toBe('x'.repeat(200));
    expect(textWindow(`line one\n${'y'.repeat(300)}`, 200)).toBe(`line one\n${'y'.repeat(191)}`);
    // A cut never splits a surrogate pair (an emoji at the edge goes whole).
    expect(textWindow(`${'a'.repeat(199)}😀${'b'.repeat(100)}`, 200)).toBe('a'.repeat(199));
  });

  it('no untyped error leaves a public method: a plain failure below becomes INTERNAL with its cause', async () => {
    const storage = new InMemoryStorage();
    const boom = new TypeError('adapter bug');
    storage.get = async () => {
      throw boom;
    };
    const { mgr } = await make({ storage });
    const err = await errorOf(mgr.getMemory('me', 't', 'x'));
    expect(err).toMatchObject({ name: 'ZerdaError', code: 'INTERNAL', cause: boom });
  });
});
