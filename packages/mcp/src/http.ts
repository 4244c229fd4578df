import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ZerdaError } from '@zerda/core';
import { resolveServerConfig, type ServerConfig } from './config.js';
import { describeError, MemoryService } from './memory-service.js';
import { buildMcpServer, stderrLog, stopOnSignals } from './server.js';

/** Where the Streamable HTTP transport listens. */
export interface HttpOptions {
  port: number;
  /** Interface to bind. Default `127.0.0.1` (this machine only). */
  host?: string;
  /** Bearer token clients must send; required unless `host` is a loopback address. */
  token?: string | undefined;
}

/** A running HTTP server. */
export interface ZerdaHttpServer {
  service: MemoryService;
  /** `http://host:port/mcp` */
  url: string;
  close(): Promise<void>;
}

/** The path the MCP endpoint is served at. */
export const MCP_PATH = '/mcp';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for an address that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Serve the memory tools over MCP's Streamable HTTP transport at `http://host:port/mcp`, one MCP
 * session per client (all on the one {@link MemoryService}, whose calls run in order). Bound to
 * localhost by default, where DNS-rebinding protection limits the `Host` header to local names.
 * Bound anywhere else it requires `token` and answers 401 to requests without
 * `Authorization: Bearer <token>`.
 */
export async function runHttpServer(
  options: HttpOptions,
  config: ServerConfig = resolveServerConfig(),
  log = stderrLog,
): Promise<ZerdaHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? config.httpToken;
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new ZerdaError('VALIDATION', `--http: expected a port from 0 to 65535, received ${String(options.port)}`);
  }
  if (!isLoopback(host) && !token) {
    throw new ZerdaError(
      'VALIDATION',
      `Refusing to serve on ${host} without a token: anyone who can reach it could read and change the memories. Set ZERDA_HTTP_TOKEN (clients send "Authorization: Bearer <token>"), or bind to 127.0.0.1.`,
    );
  }
  const service = await MemoryService.open({ config, log });
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return void reply(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (expected) {
      const got = Buffer.from(req.headers.authorization ?? '');
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer');
        return void reply(res, 401, 'Unauthorized: send "Authorization: Bearer <ZERDA_HTTP_TOKEN>"');
      }
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === 'string' && !transport)
      return void reply(res, 404, `Unknown or expired session ${sessionId}: initialize again`);
    if (!transport) {
      // A new client: its initialize request opens a session with an MCP server of its own.
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, created),
        ...(isLoopback(host) ? { enableDnsRebindingProtection: true, allowedHosts: localHosts(port()) } : {}),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await buildMcpServer(service).connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`HTTP request failed: ${describeError(err)}`);
      if (!res.headersSent) reply(res, 500, 'Internal error');
      else res.end();
    });
  });
  const port = () => (http.address() as AddressInfo).port;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await service.close();
    throw new ZerdaError('STORAGE', `Cannot listen on ${host}:${options.port}: ${describeError(err)}`, { cause: err });
  }
  const url = `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port()}${MCP_PATH}`;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const t of sessions.values()) await t.close().catch(() => undefined);
      await new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await service.close();
    })());
  log(
    `ready: ${url}${token ? ' (bearer token required)' : ''}; data ${config.dataDir} (${service.storageKind}), tenant ${config.tenantId}, model ${service.modelId ?? 'none'}`,
  );
  return { service, url, close };
}

/** Run the HTTP server until the process is signalled (the `--http` mode of the CLI). */
export async function runHttpServerUntilSignalled(
  options: HttpOptions,
  config: ServerConfig = resolveServerConfig(),
): Promise<ZerdaHttpServer> {
  const server = await runHttpServer(options, config);
  stopOnSignals(() => server.close(), stderrLog);
  return server;
}

function localHosts(port: number): string[] {
  return ['127.0.0.1', 'localhost', '[::1]'].flatMap((h) => [h, `${h}:${port}`]);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
