// A separate writer process for the multi-process tests and the benchmark:
//   writer.ts <url> <ownerUrl> <schema> <tenant> <worker> <puts> <updates> <counterId>
// Opens PostgresStorage (migrating the schema as the owner if it is new: several writers start together),
// writes `puts` distinct entries (one transaction each), then increments the counter entry
// `updates` times through update() (row-locked read-modify-write), interleaving both. Prints one
// JSON line: {"worker", "acked": [ids], "updates", "ms"}. The counter entry is created by whichever
// writer gets there first: a later writer's version-1 put of it is a stale write (CONFLICT) once
// another has updated it, and is then ignored.
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { PostgresStorage } from '@zerda/postgres';

const [url, ownerUrl, schema, tenant, worker, puts, updates, counterId] = process.argv.slice(2);
const storage = await PostgresStorage.open({
  connectionString: url!,
  ownerConnectionString: ownerUrl!,
  schema: schema!,
  maxConnections: 2,
});
const T0 = 1_700_000_000_000;
await storage
  .put({ ...createEntry(tenant!, { content: { title: 'counter', text: 'a shared counter' } }, T0), id: counterId! })
  .catch((e: unknown) => {
    if (!isZerdaError(e, 'CONFLICT')) throw e;
  });
const acked: string[] = [];
let updated = 0;
const start = performance.now();
const nPuts = Number(puts);
const nUpdates = Number(updates);
for (let i = 0; i < Math.max(nPuts, nUpdates); i++) {
  if (i < nPuts) {
    const id = `w${worker}-${i}`;
    await storage.put({
      ...createEntry(
        tenant!,
        { content: { title: `note ${i}`, text: `worker ${worker} wrote note number ${i}` } },
        T0 + i,
      ),
      id,
    });
    acked.push(id);
  }
  if (i < nUpdates) {
    const next = await storage.update(tenant!, counterId!, (e) => ({
      ...e,
      metadata: {
        ...e.metadata,
        n: Number(e.metadata.n ?? 0) + 1,
        [`w${worker}`]: Number(e.metadata[`w${worker}`] ?? 0) + 1,
      },
    }));
    if (next) updated++;
  }
}
const ms = performance.now() - start;
await storage.close();
process.stdout.write(JSON.stringify({ worker: Number(worker), acked, updates: updated, ms }) + '\n');
