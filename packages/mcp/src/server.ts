import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveServerConfig, type ServerConfig } from './config.js';
import { describeError, MemoryService, type MemoryServiceOptions } from './memory-service.js';
import { registerMemoryTools } from './tools.js';

/** Server name announced to MCP clients. */
export const SERVER_NAME = 'zerda-memory';
/** Server version announced to MCP clients. */
export const SERVER_VERSION = '0.1.0';

/** A ready MCP server and the memory service behind it. */
export interface ZerdaMcpServer {
  server: McpServer;
  service: MemoryService;
  /** Close the MCP connection and the service (flushes and closes the storage). */
  close(): Promise<void>;
}

/** Build the MCP server over a freshly opened {@link MemoryService}. Not connected yet. */
export async function createZerdaMcpServer(options: MemoryServiceOptions): Promise<ZerdaMcpServer> {
  const service = await MemoryService.open(options);
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Long-term memory. Use remember to store facts, preferences and events worth keeping; search_memories before answering questions about the user or past conversations; update_memory instead of storing a changed fact twice.',
    },
  );
  registerMemoryTools(server, service);
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

/**
 * Run the server on stdin/stdout until the client disconnects or the process is signalled.
 * Diagnostics go to stderr only (stdout carries the protocol).
 */
export async function runStdioServer(config: ServerConfig = resolveServerConfig()): Promise<ZerdaMcpServer> {
  const log = (message: string) => process.stderr.write(`[zerda-mcp] ${message}\n`);
  const mcp = await createZerdaMcpServer({ config, log });
  const transport = new StdioServerTransport();
  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    if (!stopping) {
      log(`stopping (${why})`);
      // Assigned before close() runs: closing the transport calls back into stop() synchronously.
      const { promise, resolve } = deferred();
      stopping = promise;
      mcp
        .close()
        .catch((err: unknown) => {
          log(`close failed: ${describeError(err)}`);
          process.exitCode = 1;
        })
        .finally(resolve);
    }
    return stopping;
  };
  transport.onclose = () => void stop('client disconnected').then(() => process.exit());
  process.stdin.on('end', () => void stop('stdin closed').then(() => process.exit()));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void stop(signal).then(() => process.exit()));
  }
  await mcp.server.connect(transport);
  const s = mcp.service;
  const embedder = s.manager.embedder;
  log(`ready: data ${config.dataDir} (${s.storageKind}), tenant ${config.tenantId}, model ${embedder?.modelId ?? 'none'}`);
  return mcp;
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (err: unknown) => void } {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
