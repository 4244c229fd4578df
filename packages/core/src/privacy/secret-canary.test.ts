import { describe, expect, it } from 'vitest';
import { MemoryManager } from '../manager/memory-manager.js';
import { HashEmbedder } from '../retrieval/hash-embedder.js';
import { InMemoryStorage } from '../storage/in-memory-storage.js';
import { canariesIn, RecordingEmbedder, SECRET_CANARIES, SECRET_CANARY_TEXT } from '../testing/secret-canary.js';
import { unmask } from './pii-masker.js';

// A canary secret of every kind goes in through the manager's public API; no path may hand a raw
// value on: storage (and with it the lexical index), the embedder, the turn context of the next
// turn, the short-term window and the context built for the next reply. The SQLite export and
// backup and the real worker embedder have their own canary tests in @zerda/sqlite and
// @zerda/embeddings.
const SECRET_TYPES = Object.keys(SECRET_CANARIES);

async function open(options: { embedder?: 'recording' | null } = {}) {
  const storage = new InMemoryStorage();
  const embedder = options.embedder === null ? null : new RecordingEmbedder(new HashEmbedder());
  const mgr = await MemoryManager.create({ storage, embedder, owner: 'me', clock: () => Date.UTC(2026, 0, 1) });
  return { mgr, storage, embedder };
}

describe('canary secrets never leave the manager unmasked', () => {
  it('the report names each secret (type, field, placeholder, raw value) and unmask() restores the turn; nothing stored holds one', async () => {
    const { mgr, storage } = await open();
    const { entry, pii } = await mgr.saveInteraction('me', 't', SECRET_CANARY_TEXT, 'Noted.', { importance: 0.9 });
    expect(pii.map((f) => [f.type, f.field, f.replacement, f.value])).toEqual([
      ['credential', 'input', '[CREDENTIAL_1]', SECRET_CANARIES.credential],
      ['secret_assignment', 'input', '[SECRET_ASSIGNMENT_1]', SECRET_CANARIES.secret_assignment],
      ['url_password', 'input', '[URL_PASSWORD_1]', SECRET_CANARIES.url_password],
      ['private_key', 'input', '[PRIVATE_KEY_1]', expect.stringContaining(SECRET_CANARIES.private_key)],
      ['seed_phrase', 'input', '[SEED_PHRASE_1]', SECRET_CANARIES.seed_phrase],
    ]);
    // The raw values live only in the returned report.
    expect(canariesIn(pii)).toHaveLength(SECRET_TYPES.length);
    expect(canariesIn(entry)).toEqual([]);
    expect(entry.metadata.piiMasked).toBe(5);
    expect(unmask((entry.content as { input: string }).input, pii)).toBe(SECRET_CANARY_TEXT);
    await mgr.flush();
    const stored = await storage.query({ tenantId: 't' });
    // The turn, and the memories formed from it (from the masked text).
    expect(stored.map((e) => e.id)).toContain(entry.id);
    for (const e of stored) if (e.id !== entry.id) expect(e.metadata.sources).toEqual([entry.id]);
    expect(canariesIn(stored)).toEqual([]);
    expect(canariesIn(await storage.listProfiles('t'))).toEqual([]);
    expect(JSON.stringify(stored)).toContain('zebrafinch');
  });

  it('the lexical index holds the placeholders, not the secrets', async () => {
    for (const embedder of ['recording', null] as const) {
      const { mgr, storage } = await open({ embedder });
      const { entry } = await mgr.saveInteraction('me', 't', SECRET_CANARY_TEXT, 'Noted.', { importance: 0.9 });
      await mgr.flush();
      const search = (query: string) =>
        storage.lexicalSearch({ tenantId: 't', query, limit: 5 }).then((hits) => hits.map((h) => h.id));
      expect(await search('zebrafinch')).toEqual([entry.id]);
      for (const value of Object.values(SECRET_CANARIES)) expect(await search(value), value).toEqual([]);
      expect(await search('Tr0ub4dorCanary')).toEqual([]);
      // Recall through the manager (hybrid, or lexical only without an embedder) finds the turn
      // by its words but not by a secret.
      expect((await mgr.recall('me', 't', 'zebrafinch setup')).map((h) => h.entry.id)).toContain(entry.id);
      expect(canariesIn((await mgr.recall('me', 't', 'zebrafinch setup')).map((h) => h.entry))).toEqual([]);
    }
  });

  it('the embedder never receives a raw secret: not when indexing, not for a query that holds one', async () => {
    const { mgr, embedder } = await open();
    await mgr.saveInteraction('me', 't', SECRET_CANARY_TEXT, 'Noted.', { importance: 0.9 });
    await mgr.remember('me', 't', { title: 'router', text: `The router password is ${SECRET_CANARIES.credential}` });
    await mgr.flush();
    // The user says it again in the next message: recall and context building embed the query.
    await mgr.recall('me', 't', `is my password still ${SECRET_CANARIES.credential}?`);
    await mgr.buildContext('me', 't', SECRET_CANARY_TEXT);
    await mgr.flush();
    const seen = embedder!.texts;
    expect(seen.some((t) => t.includes('zebrafinch') && t.includes('[CREDENTIAL_1]'))).toBe(true);
    expect(seen.some((t) => t.startsWith('is my password still [CREDENTIAL_1]'))).toBe(true);
    expect(canariesIn(seen)).toEqual([]);
  });

  it('the turn context attached to the next turn, the window and the next context are masked', async () => {
    const { mgr, storage } = await open();
    await mgr.saveInteraction('me', 't', SECRET_CANARY_TEXT, 'Noted.', { importance: 0.9 });
    const { entry: next } = await mgr.saveInteraction('me', 't', 'And the zebrafinch needs seed too.', 'Sure.', {
      importance: 0.9,
    });
    expect(String(next.metadata.context)).toContain('[CREDENTIAL_1]');
    expect(canariesIn(next.metadata)).toEqual([]);
    expect(canariesIn(mgr.shortTerm('t', 'me').getRecent(10))).toEqual([]);
    await mgr.flush();
    expect(canariesIn(await storage.query({ tenantId: 't' }))).toEqual([]);
    const ctx = await mgr.buildContext('me', 't', 'What do you know about my zebrafinch setup?');
    expect(ctx.text).toContain('[CREDENTIAL_1]');
    expect(canariesIn(ctx)).toEqual([]);
  });

  it('remember and updateMemory mask what they store', async () => {
    const { mgr, storage } = await open();
    const { entry, pii } = await mgr.remember('me', 't', {
      title: `OPENAI_API_KEY=${SECRET_CANARIES.secret_assignment}`,
      text: SECRET_CANARY_TEXT,
    });
    expect(pii.map((f) => `${f.field}:${f.type}`)).toContain('title:secret_assignment');
    const updated = await mgr.updateMemory('me', 't', entry.id, {
      text: `new password is ${SECRET_CANARIES.credential}`,
    });
    expect(canariesIn(updated)).toEqual([]);
    await mgr.flush();
    expect(canariesIn(await storage.query({ tenantId: 't' }))).toEqual([]);
  });
});
