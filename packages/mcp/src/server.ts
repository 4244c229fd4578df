import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveServerConfig, type ServerConfig } from './config.js';
import { describeError, MemoryService, type MemoryServiceOptions } from './memory-service.js';
import { registerMemoryTools } from './tools.js';
import type { ResultFormat } from './views.js';

/** Server name announced to MCP clients. */
export const SERVER_NAME = 'zerda-memory';
/** Server version announced to MCP clients. */
export const SERVER_VERSION = '0.1.0';

const INSTRUCTIONS =
  'Long-term memory. Use remember to store facts, preferences and events worth keeping; search_memories before answering questions about the user or past conversations; update_memory instead of storing a changed fact twice.';

/** A ready MCP server and the memory service behind it. */
export interface ZerdaMcpServer {
  server: McpServer;
  service: MemoryService;
  /** Close the MCP connection and the service (flushes and closes the storage). */
  close(): Promise<void>;
}

/** An MCP server exposing the memory tools of `service` (one per connection; they share the service). */
export function buildMcpServer(service: MemoryService, format: ResultFormat = service.config.resultFormat): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  registerMemoryTools(server, service, format);
  return server;
}

/** Build the MCP server over a freshly opened {@link MemoryService}. Not connected yet. */
export async function createZerdaMcpServer(options: MemoryServiceOptions): Promise<ZerdaMcpServer> {
  const service = await MemoryService.open(options);
  const server = buildMcpServer(service);
  let closing: Promise<void> | undefined;
  return {
    server,
    service,
    close() {
      // Assigned before any await: closing the transport calls back into close() synchronously.
      if (!closing) {
        const { promise, resolve, reject } = deferred();
        closing = promise;
        server
          .close()
          .catch(() => undefined)
          .then(() => service.close())
          .then(resolve, reject);
      }
      return closing;
    },
  };
}

/** Diagnostics go to stderr only (stdout carries the stdio protocol). */
export const stderrLog = (message: string): void => void process.stderr.write(`[zerda-mcp] ${message}\n`);

/**
 * Stop once on the first of `SIGINT`/`SIGTERM`/`SIGHUP` or a call of the returned function:
 * `close()` runs, then the process exits.
 */
export function stopOnSignals(close: () => Promise<void>, log: (m: string) => void): (why: string) => Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    if (!stopping) {
      log(`stopping (${why})`);
      // Assigned before close() runs: closing a transport calls back into stop() synchronously.
      const { promise, resolve } = deferred();
      stopping = promise;
      close()
        .catch((err: unknown) => {
          log(`close failed: ${describeError(err)}`);
          process.exitCode = 1;
        })
        .finally(resolve);
    }
    return stopping;
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void stop(signal).then(() => process.exit()));
  }
  return stop;
}

/** Run the server on stdin/stdout until the client disconnects or the process is signalled. */
export async function runStdioServer(config: ServerConfig = resolveServerConfig()): Promise<ZerdaMcpServer> {
  const log = stderrLog;
  const mcp = await createZerdaMcpServer({ config, log });
  const transport = new StdioServerTransport();
  const stop = stopOnSignals(() => mcp.close(), log);
  transport.onclose = () => void stop('client disconnected').then(() => process.exit());
  process.stdin.on('end', () => void stop('stdin closed').then(() => process.exit()));
  await mcp.server.connect(transport);
  log(
    `ready: data ${config.dataDir} (${mcp.service.storageKind}), tenant ${config.tenantId}, model ${mcp.service.modelId ?? 'none'}`,
  );
  return mcp;
}

/** A promise with its resolve and reject functions. */
export function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
