import { spawnSource } from '../../../test/support/source-process.ts';

/** What one writer process (./writer.ts) reports. */
export interface WriterResult {
  worker: number;
  acked: string[];
  updates: number;
  ms: number;
}

/**
 * Run ./writer.ts in its own process (see its header for what it does) and resolve to its report;
 * rejects with its stderr when it exits with an error.
 */
export function runWriter(o: {
  url: string;
  /** The owner role's URL: the writer migrates the schema as that role. */
  ownerUrl: string;
  schema: string;
  tenant: string;
  worker: number;
  puts: number;
  updates: number;
  counterId: string;
}): Promise<WriterResult> {
  const args = [o.url, o.ownerUrl, o.schema, o.tenant, o.worker, o.puts, o.updates, o.counterId].map(String);
  const child = spawnSource('packages/postgres/test/writer.ts', args);
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) =>
      code === 0
        ? done(JSON.parse(out.trim().split('\n').at(-1)!) as WriterResult)
        : fail(new Error(`writer ${o.worker} exited ${code}: ${err}`)),
    );
  });
}
