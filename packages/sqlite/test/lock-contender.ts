// Child process for process-faults.test.ts: opens a FilePersistence directory. The winner prints
// OPEN, writes memories (printing each acknowledged id), prints READY and holds the directory
// until its stdin closes; a loser prints ERR <code> <message> and exits.
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { SqliteStorage } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';

const [dir, label] = process.argv.slice(2);
let storage: SqliteStorage;
try {
  storage = await SqliteStorage.open({ persistence: new FilePersistence({ dir: dir! }), backups: { enabled: false } });
} catch (e) {
  process.stdout.write(`ERR ${isZerdaError(e) ? e.code : 'UNKNOWN'} ${(e as Error).message.replace(/\n/g, ' ')}\n`);
  process.exit(0);
}
process.stdout.write(`OPEN ${process.pid}\n`);
for (let i = 0; i < 10; i++) {
  const e = createEntry('race', { content: { title: 'race', text: `${label} ${i}` } }, Date.now());
  await storage.put(e);
  process.stdout.write(`ACK ${e.id}\n`);
}
process.stdout.write('READY\n');
process.stdin.resume();
process.stdin.on('end', () => {
  void storage.close().then(() => process.exit(0));
});
