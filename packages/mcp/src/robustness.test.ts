import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './test-harness.js';
import { spawnSource } from '../../../test/support/source-process.ts';

// Raw JSON-RPC over the server's stdin, below what the SDK client would ever send: garbage lines,
// malformed requests and wrong argument shapes must get answers (or be ignored), never a crash.
const dataDir = tempDir();
let child: ChildProcessWithoutNullStreams | undefined;

afterAll(() => {
  child?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the server survives malformed input', () => {
  it('answers after garbage and malformed calls', async () => {
    child = spawnSource('packages/mcp/src/main.ts', [], {
      env: { ...process.env, ZERDA_DATA_DIR: dataDir, ZERDA_EMBEDDER: 'hash' },
    });
    const proc = child;
    const responses = new Map<number, Record<string, unknown>>();
    let buffer = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const msg = JSON.parse(line) as { id?: number };
        if (typeof msg.id === 'number') responses.set(msg.id, msg as Record<string, unknown>);
      }
    });
    const send = (msg: unknown) => proc.stdin.write(`${typeof msg === 'string' ? msg : JSON.stringify(msg)}\n`);
    const response = async (id: number) => {
      for (let i = 0; i < 600 && !responses.has(id); i++) await new Promise((r) => setTimeout(r, 50));
      const r = responses.get(id);
      expect(r, `response ${id}`).toBeDefined();
      return r!;
    };

    send('this is not json');
    send('{"jsonrpc":"2.0","id":');
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect((await response(1)).result).toBeDefined();
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'remember', arguments: 'title=x' } });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'remember', arguments: { title: ['x'], content: { a: 1 } } },
    });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'search_by_date_range', arguments: { date_from: '2025-02-30' } },
    });
    send({ jsonrpc: '2.0', id: 5, method: 'no/such/method', params: {} });
    send({
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'remember', arguments: { title: 'Still here', content: 'The server survived' } },
    });
    for (const id of [2, 3, 4, 5]) {
      const r = await response(id);
      const failed = r.error !== undefined || (r.result as { isError?: boolean } | undefined)?.isError === true;
      expect(failed, JSON.stringify(r)).toBe(true);
    }
    const ok = (await response(6)).result as { isError?: boolean; content: { text: string }[] };
    expect(ok.isError).not.toBe(true);
    expect(JSON.parse(ok.content[0]!.text).success).toBe(true);
    expect(proc.exitCode).toBeNull();
  }, 60_000);
});
