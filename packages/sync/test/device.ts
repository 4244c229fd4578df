// Child process for kill.test.ts: one sync device — a SqliteStorage on FilePersistence in `dir`
// syncing tenant `tenant` with the server at `url`. Commands run in order:
//   write <n> <prefix>   write n memories ("<prefix> <i>"), printing `acked <id>` for each
//   sync <batch>         sync until nothing is left to push or pull, retrying failures (each
//                        printed as `error <code> <offline>`), printing `pushed <pending>` after
//                        every acknowledged batch, `pulled <n>` after every applied page, `synced`
//   live <n> <prefix> <batch>  write n memories while syncing in the background, then sync
// It is meant to be killed anywhere (SIGKILL); a rerun on the same directory resumes.
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { SqliteStorage } from '@zerda/sqlite';
import { FilePersistence } from '@zerda/sqlite/node';
import { startSync } from '@zerda/sync';

const [dir, url, tenant, ...commands] = process.argv.slice(2);
const storage = await SqliteStorage.open({ persistence: new FilePersistence({ dir: dir! }) });
const say = (line: string) => process.stdout.write(`${line}\n`);

async function write(n: number, prefix: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    const e = createEntry(tenant!, { content: { title: 'kill', text: `${prefix} ${i}` }, kind: 'fact' }, Date.now());
    await storage.put(e);
    say(`acked ${e.id}`);
  }
}

async function sync(batch: number, until: () => boolean = () => true): Promise<void> {
  const handle = startSync({
    storage,
    url: url!,
    tenantId: tenant!,
    token: 'tok',
    passphrase: 'kill test passphrase',
    iterations: 1000,
    allowWeakIterations: true,
    batchSize: batch,
    autoStart: false,
  });
  let last = -1;
  handle.on((e) => {
    if (e.type === 'status' && e.status.state === 'syncing' && e.status.pending !== last) {
      if (last !== -1 && e.status.pending < last) say(`pushed ${e.status.pending}`);
      last = e.status.pending;
    }
    if (e.type === 'applied') say(`pulled ${e.report.applied + e.report.merged + e.report.skipped}`);
  });
  for (;;) {
    try {
      const r = await handle.syncNow();
      if (r.pushed === 0 && r.pulled === 0 && handle.status.pending === 0 && until()) break;
    } catch (e) {
      say(`error ${isZerdaError(e) ? e.code : 'NOT_ZERDA'} ${isZerdaError(e) && e.details?.offline === true}`);
      if (handle.status.state === 'error' && isZerdaError(e, 'DECRYPTION')) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await handle.stop();
  say('synced');
}

for (let i = 0; i < commands.length; ) {
  const cmd = commands[i++];
  if (cmd === 'write') await write(Number(commands[i++]), commands[i++]!);
  else if (cmd === 'sync') await sync(Number(commands[i++]));
  else if (cmd === 'live') {
    const [n, prefix, batch] = [Number(commands[i++]), commands[i++]!, Number(commands[i++])];
    let done = false;
    const writing = write(n, prefix).then(() => {
      done = true;
    });
    await sync(batch, () => done);
    await writing;
  } else throw new Error(`unknown command ${cmd}`);
}
await storage.close();
