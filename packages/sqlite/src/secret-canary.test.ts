import { describe, expect, it } from 'vitest';
import { HashEmbedder, MemoryManager } from '@zerda/core';
import { canariesIn, RecordingEmbedder, SECRET_CANARIES, SECRET_CANARY_TEXT } from '@zerda/core/testing';
import { MemoryPersistence } from './persistence.js';
import { SqliteStorage } from './sqlite-storage.js';

// A canary secret of every kind is saved through the manager onto SQLite; none may be found in
// anything SQLite writes or hands out: its lexical (FTS) index, the persisted snapshot and log,
// the JSON export, the backups, the database file export. Each check also finds the turn's
// ordinary word (`zebrafinch`), so it would see a secret that was there.
describe('canary secrets never reach SQLite unmasked', () => {
  it('not in the FTS index, the persisted bytes, exportJson, backups or exportDatabase', async () => {
    const persistence = new MemoryPersistence();
    const storage = await SqliteStorage.open({ persistence });
    const embedder = new RecordingEmbedder(new HashEmbedder());
    const mgr = await MemoryManager.create({ storage, embedder, owner: 'me' });
    const { entry, pii } = await mgr.saveInteraction('me', 't', SECRET_CANARY_TEXT, 'Noted.', { importance: 0.9 });
    await mgr.remember('me', 't', { title: 'router', text: `The router password is ${SECRET_CANARIES.credential}` });
    await mgr.saveInteraction('me', 't', 'And the zebrafinch needs seed too.', 'Sure.', { importance: 0.9 });
    await mgr.flush();
    expect(canariesIn(pii)).toHaveLength(Object.keys(SECRET_CANARIES).length);

    const search = (query: string) =>
      storage.lexicalSearch({ tenantId: 't', query, limit: 5 }).then((hits) => hits.map((h) => h.id));
    expect(await search('zebrafinch')).toContain(entry.id);
    for (const value of [...Object.values(SECRET_CANARIES), 'Tr0ub4dorCanary'])
      expect(await search(value), value).toEqual([]);

    const persisted = [
      persistence.state.meta,
      ...Object.values(persistence.state.streams).flatMap((s) => [...s.base, ...s.log.map((r) => r.bytes)]),
    ].filter((b): b is Uint8Array => b !== undefined);
    const doc = JSON.stringify(await storage.exportJson({ includeVectors: true }));
    await storage.createBackup({ includeVectors: true });
    const backups = [...persistence.state.backups.values()].map((b) => b.bytes);
    const file = storage.exportDatabase();
    expect(backups).toHaveLength(1);
    for (const [name, what] of [
      ['persisted log and snapshot', persisted],
      ['exportJson', doc],
      ['backup', backups],
      ['exportDatabase', file],
    ] as const) {
      const bytes = typeof what === 'string' ? [what] : what instanceof Uint8Array ? [what] : what;
      expect(
        bytes.flatMap((b) => canariesIn(b)),
        name,
      ).toEqual([]);
      const text = bytes.map((b) => (typeof b === 'string' ? b : new TextDecoder().decode(b))).join('\n');
      expect(text, name).toContain('zebrafinch');
      expect(text, name).toContain('[CREDENTIAL_1]');
    }
    expect(canariesIn(embedder.texts)).toEqual([]);
    await mgr.close();
  });
});
