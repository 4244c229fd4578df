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

async function connect(url: string, token?: string, extra: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'zerda-http-test', version: '1.0.0' });
  const headers: Record<string, string> = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...extra };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** Status of a raw initialize request with `headers` added. */
async function initStatus(url: string, headers: Record<string, string>): Promise<number> {
  const r = await fetch(url, { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(INIT) });
  await r.body?.cancel();
  return r.status;
}

/** Status of a tools/list request in the session `sessionId`. */
async function sessionStatus(url: string, sessionId: string): Promise<number> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-03-26' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
  });
  await r.body?.cancel();
  return r.status;
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
    for (const auth of [
      undefined,
      'Bearer wrong-token',
      's3cret-token',
      'Basic s3cret-token',
      'Bearer s3cret-token x',
    ]) {
      expect(await initStatus(url, auth ? { Authorization: auth } : {}), String(auth)).toBe(401);
    }
    // The scheme name is case-insensitive (RFC 9110); the token is not.
    for (const auth of ['bearer s3cret-token', 'BEARER s3cret-token', 'Bearer  s3cret-token '])
      expect(await initStatus(url, { Authorization: auth }), auth).toBe(200);
    expect(await initStatus(url, { Authorization: 'bearer S3CRET-TOKEN' })).toBe(401);
    await expect(connect(url)).rejects.toThrow();
    const client = await connect(url, 's3cret-token');
    const stats = JSON.parse(text(await client.callTool({ name: 'get_memory_stats', arguments: {} })));
    expect(stats.data[0].total_memories).toBe(0);
    await client.close();
  }, 60_000);

  it('refuses browser origins other than loopback ones unless allowed (403), and leaves requests without Origin alone', async () => {
    const server = await runHttpServer({ port: 0 }, config(), quiet);
    servers.push(server);
    for (const origin of ['https://evil.example', 'null', 'http://localhost.evil.example', 'file://', 'garbage'])
      expect(await initStatus(server.url, { Origin: origin }), origin).toBe(403);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'https://[::1]', 'http://LOCALHOST:3000'])
      expect(await initStatus(server.url, { Origin: origin }), origin).toBe(200);
    expect(await initStatus(server.url, {})).toBe(200);
    const fromPage = await connect(server.url, undefined, { Origin: 'http://localhost:5173' });
    expect((await fromPage.listTools()).tools.length).toBeGreaterThan(0);
    await fromPage.close();

    const allowing = await runHttpServer(
      { port: 0 },
      config({ ZERDA_HTTP_ALLOWED_ORIGINS: 'https://app.example.com, https://chat.example.org:8443' }),
      quiet,
    );
    servers.push(allowing);
    expect(await initStatus(allowing.url, { Origin: 'https://app.example.com' })).toBe(200);
    expect(await initStatus(allowing.url, { Origin: 'https://chat.example.org:8443' })).toBe(200);
    for (const origin of ['https://app.example.com.evil.io', 'http://app.example.com', 'https://chat.example.org'])
      expect(await initStatus(allowing.url, { Origin: origin }), origin).toBe(403);
    expect(() => config({ ZERDA_HTTP_ALLOWED_ORIGINS: 'https://app.example.com/path' })).toThrow(
      /ZERDA_HTTP_ALLOWED_ORIGINS/,
    );
    await expect(
      runHttpServer({ port: 0, allowedOrigins: ['app.example.com'] }, config(), quiet),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  }, 60_000);

  it('closes sessions left idle and holds at most maxSessions; an expired session gets 404 and the client can start again', async () => {
    const server = await runHttpServer({ port: 0, sessionIdleMs: 300, maxSessions: 3 }, config(), quiet);
    servers.push(server);
    // Sessions opened by a bare initialize and then abandoned (no event stream held open).
    const open = async () => {
      const r = await fetch(server.url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(INIT) });
      await r.body?.cancel();
      expect(r.status).toBe(200);
      return r.headers.get('mcp-session-id')!;
    };
    const a = await open();
    const idle = await open();
    // Kept alive while used.
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 150));
      expect(await sessionStatus(server.url, a), `use ${i}`).toBe(200);
    }
    expect(await sessionStatus(server.url, idle)).toBe(404);
    // A connected SDK client holds its event stream open: in use, not expired, however long.
    const client = await connect(server.url);
    await new Promise((r) => setTimeout(r, 900));
    expect(await sessionStatus(server.url, a)).toBe(404);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);

    const b = await open();
    const c = await open();
    const d = await open();
    // The least recently used (b) made room for d; the client, in use, stayed.
    expect(await sessionStatus(server.url, b)).toBe(404);
    expect(await sessionStatus(server.url, c)).toBe(200);
    expect(await sessionStatus(server.url, d)).toBe(200);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    expect(await open()).toMatch(/\S/);
    await expect(runHttpServer({ port: 0, sessionIdleMs: 0 }, config(), quiet)).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  }, 60_000);
});
