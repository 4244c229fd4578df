// A writer process for the connection-loss tests:
//   burst-writer.ts <url> <ownerUrl> <schema> <tenant> <concurrency>
// Opens PostgresStorage, then keeps <concurrency> puts (and a read after each) in flight until a
// line "stop" arrives on stdin. Prints "acked <n>" after every 10 acknowledged puts, and at the end
// one JSON line: {"acked": [ids], "errors": [{code, sqlState, connectionLost, outcome, message}]}.
// Any uncaught error ends the process with a non-zero exit: the test's "never crashes" check.
import { isZerdaError } from '@zerda/core';
import { createEntry } from '@zerda/core/adapter';
import { PostgresStorage } from '@zerda/postgres';

const [url, ownerUrl, schema, tenant, concurrency] = process.argv.slice(2);
const storage = await PostgresStorage.open({
  connectionString: url!,
  ownerConnectionString: ownerUrl!,
  schema: schema!,
  maxConnections: 4,
});
const acked: string[] = [];
const errors: Record<string, unknown>[] = [];
let stop = false;
process.stdin.on('data', (d: Buffer) => {
  if (d.toString().includes('stop')) stop = true;
});
// The test ended without saying stop (it failed): stop too, rather than write forever.
process.stdin.on('end', () => {
  stop = true;
});
let n = 0;
async function lane(lane: number): Promise<void> {
  while (!stop) {
    const id = `l${lane}-${n++}`;
    try {
      await storage.put({
        ...createEntry(tenant!, { content: { title: id, text: `burst write ${id}` } }, 1_700_000_000_000),
        id,
      });
      acked.push(id);
      if (acked.length % 10 === 0) process.stdout.write(`acked ${acked.length}\n`);
      await storage.get(tenant!, id);
    } catch (e) {
      errors.push({
        zerda: isZerdaError(e),
        code: (e as { code?: unknown }).code,
        sqlState: (e as { details?: { sqlState?: unknown } }).details?.sqlState,
        connectionLost: (e as { details?: { connectionLost?: unknown } }).details?.connectionLost,
        outcome: (e as { details?: { outcome?: unknown } }).details?.outcome,
        message: (e as Error).message,
      });
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, (_, i) => lane(i)));
await storage.close();
process.stdout.write(`${JSON.stringify({ acked, errors })}\n`);
process.exit(0);
