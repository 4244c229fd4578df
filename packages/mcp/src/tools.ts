import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { isZerdaError } from '@zerda/core';
import { describeError, type MemoryService } from './memory-service.js';
import { TOOL_SCHEMAS, type ToolArgs, type ToolName } from './schemas.js';
import { toOriginalShape, type ResultFormat, type ToolPayload } from './views.js';

/** Names of the tools: the eleven of the server this one replaces, spelled as it spells them, plus `get_memory_history`. */
export const TOOL_NAMES = Object.keys(TOOL_SCHEMAS) as ToolName[];

const read = { readOnlyHint: false, destructiveHint: false, idempotentHint: false } as const;

/** What each tool tells a model about itself (the original's wording where it has one). */
const TOOLS: { [T in ToolName]: { title: string; description: string; annotations: ToolAnnotations } } = {
  remember: {
    title: 'Remember',
    description:
      'Store a new memory (fact, preference, event, or conversation snippet) when the user shares something worth keeping or says "remember this". Returns the stored memory and its id.',
    annotations: read,
  },
  search_memories: {
    title: 'Search memories',
    description:
      'Search memories with a natural-language query for general recall ("When is my birthday?", "What did I tell you about camping?"). Results are the relevant memories, best first, each with relevance_score (similarity) and match_type. Returned memories are reinforced.',
    annotations: read,
  },
  search_by_type: {
    title: 'Search by type',
    description:
      'List memories of one type (e.g. all preferences or facts), newest first. Returned memories are reinforced.',
    annotations: read,
  },
  search_by_tags: {
    title: 'Search by tags',
    description: 'List memories carrying any of the given tags, newest first. Returned memories are reinforced.',
    annotations: read,
  },
  get_recent_memories: {
    title: 'Recent memories',
    description:
      'The most recently stored memories, newest first ("what did we talk about today?"). Returned memories are reinforced.',
    annotations: read,
  },
  update_memory: {
    title: 'Update memory',
    description:
      "Change a memory's title, content, tags, importance or type by its id. The previous version is kept in the memory's history (get_memory_history shows it).",
    annotations: read,
  },
  delete_memory: {
    title: 'Delete memory',
    description:
      'Permanently delete a memory by its id, when the user asks to forget something (backups keep earlier copies).',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  },
  get_memory_stats: {
    title: 'Memory statistics',
    description:
      'Totals by type, average importance, oldest and newest memory, storage sizes, last backup, embedding model and data directory.',
    annotations: { readOnlyHint: true },
  },
  create_backup: {
    title: 'Create backup',
    description:
      'Write a backup now (only when asked; automatic backups happen regularly): a copy of the database and a JSON export, in a timestamped folder under memory_backups/.',
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  search_by_date_range: {
    title: 'Search by date range',
    description:
      'List memories created between two dates (inclusive), newest first. Dates are ISO: 2025-03-01 or 2025-03-01T14:30:00Z (UTC when no offset). Returned memories are reinforced.',
    annotations: read,
  },
  rebuild_vectors: {
    title: 'Rebuild vectors',
    description:
      'One-time repair: re-embed every memory and rebuild the vector index. Use it if search by meaning is not working but the other searches are.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  },
  get_memory_history: {
    title: 'Memory history',
    description:
      'Every version of one memory, oldest first, ending with the current one: what update_memory replaced, and when.',
    annotations: { readOnlyHint: true },
  },
};

/**
 * Register the memory tools on an MCP server. Arguments are checked once, by the SDK, against
 * {@link TOOL_SCHEMAS}. Results are JSON text (and the same object as `structuredContent`) in
 * `format`: the original server's `{ success, data: [...] }` by default, or Zerda's detailed
 * shape. Every failure (bad arguments, unknown id, storage error) comes back as a tool result
 * with `isError: true` saying what was wrong; nothing is thrown to the transport, and a rejected
 * call changes nothing.
 */
export function registerMemoryTools(
  server: McpServer,
  service: MemoryService,
  format: ResultFormat = 'original',
): void {
  for (const name of TOOL_NAMES) register(server, service, name, format);
}

function register<T extends ToolName>(server: McpServer, service: MemoryService, name: T, format: ResultFormat): void {
  const { title, description, annotations } = TOOLS[name];
  server.registerTool(name, { title, description, inputSchema: TOOL_SCHEMAS[name], annotations }, (async (
    args: ToolArgs<T>,
  ): Promise<CallToolResult> => {
    try {
      const payload = await service.callParsed(name, args);
      const result = format === 'original' ? toOriginalShape(name, payload) : payload;
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
    } catch (err) {
      return toolError(err, format);
    }
  }) as never);
}

/**
 * A tool error result: `isError: true`, and as text the original's `{ "success": false, "reason": … }`
 * (or, in Zerda's format, one line `Error: …`), saying what was wrong.
 */
export function toolError(err: unknown, format: ResultFormat = 'original'): CallToolResult {
  const reason = isZerdaError(err) && err.code !== 'INTERNAL' ? err.message : `Internal error: ${describeError(err)}`;
  const text = format === 'original' ? JSON.stringify({ success: false, reason }, null, 2) : `Error: ${reason}`;
  return { content: [{ type: 'text', text }], isError: true };
}

export type { ToolPayload };
