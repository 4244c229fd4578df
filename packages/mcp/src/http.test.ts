import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveServerConfig } from './config.js';
import { runHttpServer, type ZerdaHttpServer } from './http.js';
import { tempDir } from './test-harness.js';

// The Streamable HTTP transport (`zerda-mcp --http <port>`) with the official SDK client.
const dirs: string[] = [];
const servers: ZerdaHttpServer[] = [];
const quiet = () => undefined;

afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function config(extra: Record<string, string> = {}) {
  const dir = tempDir();
  dirs.push(dir);
  return resolveServerConfig({ ZERDA_DATA_DIR: dir, ZERDA_EMBEDDER: 'hash', ZERDA_STORAGE: 'memory', ...extra });
}

async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'zerda-http-test', version: '1.0.0' });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0]!.text;

describe('zerda-mcp --http', () => {
  it('serves the tools on localhost to several clients sharing one memory', async () => {
    const server = await runHttpServer({ port: 0 }, config(), quiet);
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await connect(server.url);
    const b = await connect(server.url);
    const stored = JSON.parse(
      text(await a.callTool({ name: 'remember', arguments: { title: 'Tea', content: 'I prefer tea over coffee' } })),
    );
    expect(stored.success).toBe(true);
    const found = JSON.parse(
      text(await b.callTool({ name: 'search_memories', arguments: { query: 'tea coffee', search_type: 'keyword' } })),
    );
    expect(found.data.map((m: { id: string }) => m.id)).toEqual([stored.data[0].id]);
    expect((await b.listTools()).tools).toHaveLength(12);
    await a.close();
    await b.close();
    const lost = await fetch(server.url.replace('/mcp', '/other'), { method: 'POST' });
    expect(lost.status).toBe(404);
  }, 60_000);

  it('refuses to serve beyond localhost without ZERDA_HTTP_TOKEN', async () => {
    await expect(runHttpServer({ port: 0, host: '0.0.0.0' }, config(), quiet)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/ZERDA_HTTP_TOKEN/),
    });
  });

  it('beyond localhost, answers 401 without the bearer token and serves with it', async () => {
    const server = await runHttpServer(
      { port: 0, host: '0.0.0.0' },
      config({ ZERDA_HTTP_TOKEN: 's3cret-token' }),
      quiet,
    );
    servers.push(server);
    const url = server.url.replace('0.0.0.0', '127.0.0.1');
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    for (const auth of [undefined, 'Bearer wrong-token', 's3cret-token']) {
      const r = await fetch(url, {
        method: 'POST',
        headers: { ...headers, ...(auth ? { Authorization: auth } : {}) },
        body: JSON.stringify(init),
      });
      expect(r.status, String(auth)).toBe(401);
    }
    await expect(connect(url)).rejects.toThrow();
    const client = await connect(url, 's3cret-token');
    const stats = JSON.parse(text(await client.callTool({ name: 'get_memory_stats', arguments: {} })));
    expect(stats.data[0].total_memories).toBe(0);
    await client.close();
  }, 60_000);
});
