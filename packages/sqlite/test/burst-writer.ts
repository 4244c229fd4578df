// Child process for kill.test.ts: writes memories through SqliteStorage + FilePersistence as fast
// as it can and prints each acknowledged id on its own line, until it is killed.
import { createEntry } from '@zerda/core/adapter';
import { SqliteStorage } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';

const [dir, passphrase] = process.argv.slice(2);
const storage = await SqliteStorage.open({
  persistence: new FilePersistence({ dir: dir! }),
  ...(passphrase ? { encryption: { passphrase, iterations: 1000, allowWeakIterations: true } } : {}),
  // Compacts every 50 records whatever the snapshot's size, so the kill often lands in one.
  compaction: { maxLogRecords: 50, logToSnapshot: 0 },
});
for (let i = 0; ; i++) {
  const e = createEntry('burst', { content: { title: 'burst', text: `memory ${i}` } }, Date.now());
  if (i % 7 === 0)
    await storage.putVectors('burst', { id: 'm', dim: 8 }, [
      {
        id: (await storage.query({ tenantId: 'burst', limit: 1 }))[0]?.id ?? 'none',
        vector: new Float32Array(8).fill(i),
      },
    ]);
  await storage.put(e);
  process.stdout.write(`${e.id}\n`);
}
