// Test helper (not part of the build): spawns the real server over stdio and talks to it with the
// official SDK client, exactly as a desktop app does.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT, sourceArgs } from '../../../test/support/source-process.ts';

export { REPO_ROOT };

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The built bin (`pnpm build`), as the README tells desktop apps to run it. */
export const DIST_CLI = resolve(HERE, '../dist/cli.js');

/** A parsed tool result. */
export interface CallResult {
  isError: boolean;
  text: string;
  /** The JSON payload of a successful call (`{}` for errors). */
  json: Record<string, unknown> & { results?: Record<string, unknown>[] };
}

/** A spawned server with a connected client. */
export interface Harness {
  client: Client;
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'zerda-mcp-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Write the server's test clock (epoch ms). */
export function setClock(file: string, epochMs: number): void {
  writeFileSync(file, String(epochMs));
}

/**
 * Spawn `node --conditions=@zerda/source --import tsx src/cli.ts` (the TypeScript sources, so no
 * build is needed), or `node dist/cli.js` with `dist`, with `env` on top of the SDK's default
 * environment, and connect a client.
 */
export async function startServer(env: Record<string, string>, options: { dist?: boolean } = {}): Promise<Harness> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: options.dist ? [DIST_CLI] : sourceArgs('packages/mcp/src/main.ts'),
    cwd: REPO_ROOT,
    // The detailed result format unless a test asks for the default (the original's shape).
    env: { ...getDefaultEnvironment(), ZERDA_EMBEDDER: 'hash', ZERDA_RESULT_FORMAT: 'zerda', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client({ name: 'zerda-mcp-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`server did not start: ${(e as Error).message}\n${err}`);
  }
  return {
    client,
    stderr: () => err,
    async call(name, args = {}) {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: { type: string; text?: string }[];
      };
      const text = r.content.map((c) => c.text ?? '').join('\n');
      const isError = r.isError === true;
      return { isError, text, json: isError ? {} : (JSON.parse(text) as CallResult['json']) };
    },
    async close() {
      await client.close();
    },
  };
}

/** The server of a test file (see {@link useServer}): a {@link Harness} on a fresh data directory. */
export interface ServerFixture extends Harness {
  /** The server's `ZERDA_DATA_DIR`. */
  readonly dataDir: string;
  /** Close the server and start it again on the same directory and environment. */
  restart(): Promise<void>;
}

/**
 * One server for a test file: a fresh data directory, the server started on it (with `env` on
 * top) before the file's tests, closed and the directory removed after them.
 */
export function useServer(env: Record<string, string> = {}): ServerFixture {
  const dataDir = tempDir();
  const start = () => startServer({ ZERDA_DATA_DIR: dataDir, ...env });
  let live: Harness | undefined;
  const current = (): Harness => {
    if (!live) throw new Error('the test server is not running (use it inside tests)');
    return live;
  };
  beforeAll(async () => {
    live = await start();
  }, 60_000);
  afterAll(async () => {
    await live?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    get client() {
      return current().client;
    },
    stderr: () => current().stderr(),
    call: (name, args) => current().call(name, args),
    close: () => current().close(),
    async restart() {
      await current().close();
      live = await start();
    },
  };
}

/**
 * One row of the Python "long-term memory MCP" tool's `memories` table: id, title, content,
 * timestamp, tags (JSON), importance, memory_type, metadata (JSON), last_accessed.
 */
export type LegacyRow = [string, string, string, string, string, number, string, string, string | null];

/** Write a data folder of the Python tool (`memory_db/memories.db` with its schema, an empty `chroma_db/`) under `dir`. */
export async function writeLegacyFolder(dir: string, rows: readonly LegacyRow[]): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(`CREATE TABLE memories (id TEXT PRIMARY KEY, title TEXT NOT NULL, content TEXT NOT NULL, timestamp TEXT NOT NULL,
    tags TEXT, importance INTEGER DEFAULT 5, memory_type TEXT DEFAULT 'conversation', metadata TEXT, content_hash TEXT,
    created_at TEXT DEFAULT CURRENT_TIMESTAMP, updated_at TEXT DEFAULT CURRENT_TIMESTAMP, last_accessed TEXT, token_count INTEGER DEFAULT 0)`);
  for (const r of rows)
    db.run(
      'INSERT INTO memories (id, title, content, timestamp, tags, importance, memory_type, metadata, last_accessed) VALUES (?,?,?,?,?,?,?,?,?)',
      [...r],
    );
  mkdirSync(join(dir, 'memory_db', 'chroma_db'), { recursive: true });
  writeFileSync(join(dir, 'memory_db', 'memories.db'), db.export());
  db.close();
}
