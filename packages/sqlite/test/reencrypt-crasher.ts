// Child process for process-faults.test.ts: re-encrypts a FilePersistence database and SIGKILLs
// itself just before the replaceAll step named on the command line.
import { SqliteStorage } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';
import { replaceAllHooks } from '../src/file-persistence.js';

const [dir, step, passphrase] = process.argv.slice(2);
const storage = await SqliteStorage.open({
  persistence: new FilePersistence({ dir: dir! }),
  backups: { enabled: false },
});
replaceAllHooks.beforeStep = (name) => {
  if (name === step) process.kill(process.pid, 'SIGKILL');
};
await storage.changeEncryption({ passphrase: passphrase!, iterations: 1000, allowWeakIterations: true });
process.stdout.write('DONE\n');
