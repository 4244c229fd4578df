import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ZerdaError } from '@zerda/core';
import { parsedOrigin, resolveServerConfig, type ServerConfig } from './config.js';
import { describeError, MemoryService } from './memory-service.js';
import { buildMcpServer, stderrLog, stopOnSignals } from './server.js';

/** Where the Streamable HTTP transport listens. */
export interface HttpOptions {
  port: number;
  /** Interface to bind. Default `127.0.0.1` (this machine only). */
  host?: string;
  /** Bearer token clients must send; required unless `host` is a loopback address. */
  token?: string | undefined;
  /**
   * Browser origins allowed besides loopback ones (`http(s)://localhost`, `127.x.x.x`, `[::1]`,
   * any port), e.g. `['https://app.example.com']`; `'*'` allows any. A request with any other
   * `Origin` header gets 403; requests without one (non-browser clients) are not affected.
   * Default: `config.httpAllowedOrigins` (`ZERDA_HTTP_ALLOWED_ORIGINS`).
   */
  allowedOrigins?: string[];
  /** Close a session unused for this long. Default `config.httpSessionIdleSeconds` × 1000 (30 minutes). */
  sessionIdleMs?: number;
  /** Most sessions held at once; opening one more closes the least recently used idle one. Default 1000. */
  maxSessions?: number;
}

/** A running HTTP server. */
export interface ZerdaHttpServer {
  service: MemoryService;
  /** `http://host:port/mcp` */
  url: string;
  /** Stop accepting connections, close the open sessions and the memory service. */
  close(): Promise<void>;
}

/** The path the MCP endpoint is served at. */
export const MCP_PATH = '/mcp';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for an address that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** True for an `Origin` header value that names this machine (http or https, any port). */
export function isLoopbackOrigin(origin: string): boolean {
  const o = parsedOrigin(origin);
  return o !== undefined && isLoopback(new URL(o).hostname);
}

/**
 * Serve the memory tools over MCP's Streamable HTTP transport at `http://host:port/mcp`, one MCP
 * session per client (all on the one {@link MemoryService}, whose calls run in order). Bound to
 * localhost by default, where DNS-rebinding protection limits the `Host` header to local names.
 * Bound anywhere else it requires `token` and answers 401 to requests without
 * `Authorization: Bearer <token>` (the scheme in any case). Every request carrying an `Origin`
 * header must come from a loopback origin or one of `allowedOrigins` (403 otherwise), as MCP's
 * transport rules require. Sessions unused for `sessionIdleMs` are closed (a client then gets 404
 * and initializes again); at most `maxSessions` are held.
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
  const origins = new Set(options.allowedOrigins ?? config.httpAllowedOrigins);
  for (const o of origins)
    if (o !== '*' && parsedOrigin(o) !== o)
      throw new ZerdaError(
        'VALIDATION',
        `allowedOrigins: expected origins such as https://app.example.com or "*", received "${o}"`,
      );
  const idleMs = options.sessionIdleMs ?? config.httpSessionIdleSeconds * 1000;
  const maxSessions = options.maxSessions ?? 1000;
  for (const [name, v] of [
    ['sessionIdleMs', idleMs],
    ['maxSessions', maxSessions],
  ] as const)
    if (!Number.isInteger(v) || v < 1)
      throw new ZerdaError('VALIDATION', `${name}: expected a positive integer, received ${String(v)}`);
  const service = await MemoryService.open({ config, log });
  const sessions = new SessionTable(idleMs, maxSessions, log);
  const expected = token ? digest(token) : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return void reply(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has('*') && !isLoopbackOrigin(origin) && !origins.has(origin.toLowerCase()))
      return void reply(
        res,
        403,
        `Forbidden: Origin ${JSON.stringify(origin)} is not allowed; allow it with ZERDA_HTTP_ALLOWED_ORIGINS`,
      );
    if (expected) {
      const got = bearer(req.headers.authorization);
      if (got === undefined || !timingSafeEqual(digest(got), expected)) {
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
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id): void => sessions.add(id, created),
        ...(isLoopback(host) ? { enableDnsRebindingProtection: true, allowedHosts: localHosts(port()) } : {}),
      });
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId);
      };
      await buildMcpServer(service).connect(created);
      transport = created;
    }
    const id = transport.sessionId;
    if (id !== undefined) sessions.busy(id, res);
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
      await sessions.closeAll();
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

/**
 * The open sessions, with when each was last used. A session is busy while one of its responses
 * is open (a long-lived event stream counts as use); one idle for `idleMs` is closed by a sweep
 * (an unref'd timer: it never keeps the process alive), and past `max` the least recently used idle one goes.
 */
class SessionTable {
  readonly #open = new Map<string, { transport: StreamableHTTPServerTransport; lastUsed: number; busy: number }>();
  readonly #idleMs: number;
  readonly #max: number;
  readonly #log: (line: string) => void;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(idleMs: number, max: number, log: (line: string) => void) {
    this.#idleMs = idleMs;
    this.#max = max;
    this.#log = log;
  }

  get(id: string): StreamableHTTPServerTransport | undefined {
    return this.#open.get(id)?.transport;
  }

  add(id: string, transport: StreamableHTTPServerTransport): void {
    while (this.#open.size >= this.#max) {
      // Idle sessions go first, least recently used first; a busy one only when all are busy.
      const [oldest] = [...this.#open.entries()].sort(
        (a, b) => Number(a[1].busy > 0) - Number(b[1].busy > 0) || a[1].lastUsed - b[1].lastUsed,
      )[0]!;
      this.#expire(oldest, 'the session limit was reached');
    }
    this.#open.set(id, { transport, lastUsed: Date.now(), busy: 0 });
    this.#timer ??= setInterval(() => this.#sweep(), Math.min(60_000, Math.max(10, Math.floor(this.#idleMs / 4))));
    this.#timer.unref?.();
  }

  /** Count the session as used until `res` ends. */
  busy(id: string, res: ServerResponse): void {
    const s = this.#open.get(id);
    if (!s) return;
    s.busy++;
    s.lastUsed = Date.now();
    res.once('close', () => {
      s.busy--;
      s.lastUsed = Date.now();
    });
  }

  delete(id: string): void {
    this.#open.delete(id);
    if (this.#open.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async closeAll(): Promise<void> {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const s of [...this.#open.values()]) await s.transport.close().catch(() => undefined);
    this.#open.clear();
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, s] of [...this.#open])
      if (s.busy === 0 && now - s.lastUsed >= this.#idleMs) this.#expire(id, 'idle');
  }

  #expire(id: string, why: string): void {
    const s = this.#open.get(id);
    if (!s) return;
    this.delete(id);
    this.#log(`HTTP session ${id} closed (${why})`);
    void s.transport.close().catch(() => undefined);
  }
}

/** The token of an `Authorization` header in the Bearer scheme (scheme names are case-insensitive, RFC 9110). */
function bearer(header: string | undefined): string | undefined {
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/** Equal-length digests, so comparing tokens takes the same time whatever their lengths. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function localHosts(port: number): string[] {
  return ['127.0.0.1', 'localhost', '[::1]'].flatMap((h) => [h, `${h}:${port}`]);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
