import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isZerdaError } from '@zerda/core';
import { z } from 'zod';
import { describeError, type MemoryService, type ToolPayload } from './memory-service.js';

/**
 * Names of the tools: the eleven of the server this one replaces, spelled as it spells them, plus
 * `get_memory_history`.
 */
export const TOOL_NAMES = [
  'remember',
  'search_memories',
  'search_by_type',
  'search_by_tags',
  'get_recent_memories',
  'update_memory',
  'delete_memory',
  'get_memory_stats',
  'create_backup',
  'search_by_date_range',
  'rebuild_vectors',
  'get_memory_history',
] as const;

/** One of {@link TOOL_NAMES}. */
export type ToolName = (typeof TOOL_NAMES)[number];

type Issue = { input?: unknown };

function text(field: string, what = 'a non-empty string') {
  return z.string({ error: (iss: Issue) => (iss.input === undefined ? `${field} is required` : `${field} must be ${what}`) });
}

/** A plain decimal number written as a string: `"7"`, `" 7.5 "`. */
const NUMERIC_STRING = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;

// Small local models often quote numbers ("importance": "7"), and the Python tool this server
// replaces accepted that; the advertised schema stays `number`, a quoted plain number is read as one.
function number(field: string, min: number, max: number, integer: boolean) {
  const what = `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`;
  const msg = (iss: Issue) => `${field} must be ${what}${iss.input === undefined ? '' : ` (received ${JSON.stringify(iss.input)})`}`;
  const base = z.number({ error: msg });
  const checked = (integer ? base.int({ error: msg }) : base).min(min, { error: msg }).max(max, { error: msg });
  return z.preprocess((v) => (typeof v === 'string' && NUMERIC_STRING.test(v) ? Number(v) : v), checked);
}

/** Comma-separated tags; an array of strings (a common LLM habit) is joined into that form. */
function tagList(field: string) {
  const joined = (v: unknown) => (Array.isArray(v) && v.every((t) => typeof t === 'string') ? v.join(',') : v);
  return z.preprocess(joined, text(field, 'a comma-separated string such as "work,ideas"'));
}

// Clients generated from strict JSON schemas send `null` for an optional parameter they don't use.
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema.optional()).optional();
}

const limit = (fallback: number, max = 1000) =>
  optional(number('limit', 1, max, true)).describe(`Maximum number of memories to return (default ${fallback}).`);

const MEMORY_TYPES = 'conversation, fact, preference, event, task, ephemeral, or any other type name';

/**
 * Register the memory tools on an MCP server. Every failure (bad arguments, unknown id,
 * storage error) comes back as a tool result with `isError: true` and a message saying what was
 * wrong; nothing is thrown to the transport and a rejected call changes nothing.
 */
export function registerMemoryTools(server: McpServer, service: MemoryService): void {
  const handle =
    (fn: (args: Record<string, unknown>) => Promise<ToolPayload>) =>
    async (args: Record<string, unknown>): Promise<CallToolResult> => {
      try {
        const payload = await fn(args ?? {});
        return { content: [{ type: 'text', text: JSON.stringify(payload, null, 2) }], structuredContent: payload };
      } catch (err) {
        return toolError(err);
      }
    };

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Store a new long-term memory (a fact about the user, a preference, an event, a task, a conversation summary). Returns the new memory id.',
      inputSchema: {
        title: text('title').describe('Short title of the memory.'),
        content: text('content').describe('The full text to remember.'),
        tags: optional(tagList('tags')).describe('Comma-separated tags, e.g. "family,birthday". Tags core, identity and pinned stop decay.'),
        importance: optional(number('importance', 1, 10, false)).describe('Importance from 1 (trivial) to 10 (essential); default 5.'),
        memory_type: optional(text('memory_type')).describe(`Type of memory: ${MEMORY_TYPES}; default "conversation".`),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    handle((a) => service.remember(a)),
  );

  server.registerTool(
    'search_memories',
    {
      title: 'Search memories',
      description:
        'Find memories relevant to a natural-language query, best first. relevance_score (0..1) ranks the results against each other (the best one scores near 1 even when it is a weak match); similarity (cosine, when present) says how close in meaning each one really is. Recalled memories are reinforced.',
      inputSchema: {
        query: text('query').describe('What to look for, in natural language.'),
        search_type: optional(text('search_type')).describe('"semantic" (default: meaning + keywords), "vector" (meaning only) or "keyword".'),
        limit: limit(10, 100),
      },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    handle((a) => service.searchMemories(a)),
  );

  server.registerTool(
    'search_by_type',
    {
      title: 'Search by type',
      description: 'List memories of one type, newest first.',
      inputSchema: {
        memory_type: text('memory_type').describe(`The type: ${MEMORY_TYPES}.`),
        limit: limit(20),
      },
      annotations: { readOnlyHint: false },
    },
    handle((a) => service.searchByType(a)),
  );

  server.registerTool(
    'search_by_tags',
    {
      title: 'Search by tags',
      description: 'List memories carrying any of the given tags, newest first.',
      inputSchema: {
        tags: tagList('tags').describe('Comma-separated tags, e.g. "work,project-x".'),
        limit: limit(20),
      },
      annotations: { readOnlyHint: false },
    },
    handle((a) => service.searchByTags(a)),
  );

  server.registerTool(
    'get_recent_memories',
    {
      title: 'Recent memories',
      description: 'The most recently stored memories, newest first.',
      inputSchema: { limit: limit(20) },
      annotations: { readOnlyHint: false },
    },
    handle((a) => service.getRecentMemories(a)),
  );

  server.registerTool(
    'update_memory',
    {
      title: 'Update memory',
      description:
        'Change a memory\'s title, content, tags, importance or type. The previous version is kept in the memory\'s history (get_memory_history shows it).',
      inputSchema: {
        memory_id: text('memory_id').describe('Id of the memory (from remember or a search).'),
        title: optional(text('title')).describe('New title.'),
        content: optional(text('content')).describe('New content.'),
        tags: optional(tagList('tags')).describe('New comma-separated tags (replace the old ones). "" leaves them unchanged; "," clears them.'),
        importance: optional(number('importance', 1, 10, false)).describe('New importance from 1 to 10.'),
        memory_type: optional(text('memory_type')).describe(`New type: ${MEMORY_TYPES}.`),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    handle((a) => service.updateMemory(a)),
  );

  server.registerTool(
    'get_memory_history',
    {
      title: 'Memory history',
      description: 'Every version of one memory, oldest first, ending with the current one: what update_memory replaced, and when.',
      inputSchema: { memory_id: text('memory_id').describe('Id of the memory.') },
      annotations: { readOnlyHint: true },
    },
    handle((a) => service.getMemoryHistory(a)),
  );

  server.registerTool(
    'delete_memory',
    {
      title: 'Delete memory',
      description: 'Delete one memory permanently (backups keep earlier copies).',
      inputSchema: { memory_id: text('memory_id').describe('Id of the memory to delete.') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    handle((a) => service.deleteMemory(a)),
  );

  server.registerTool(
    'get_memory_stats',
    {
      title: 'Memory statistics',
      description: 'Counts by type, storage size, last backup, embedding model and data directory.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    handle(() => service.getMemoryStats()),
  );

  server.registerTool(
    'create_backup',
    {
      title: 'Create backup',
      description: 'Write a backup now: a copy of the SQLite database and a JSON export, in a timestamped folder under memory_backups/ (the newest 10 are kept).',
      inputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    handle(() => service.createBackup()),
  );

  server.registerTool(
    'rebuild_vectors',
    {
      title: 'Rebuild vectors',
      description: 'Repair: re-embed every memory and rebuild the vector index. Use it if search by meaning is not working but the other searches are.',
      inputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    handle(() => service.rebuildVectors()),
  );

  server.registerTool(
    'search_by_date_range',
    {
      title: 'Search by date range',
      description: 'List memories created between two dates (inclusive), newest first. Dates are ISO: 2025-03-01 or 2025-03-01T14:30:00Z (UTC when no offset).',
      inputSchema: {
        date_from: text('date_from', 'an ISO date or date-time').describe('Start, e.g. "2025-03-01" or "2025-03-01T09:00:00Z".'),
        date_to: optional(text('date_to', 'an ISO date or date-time')).describe('End (inclusive; a bare date includes the whole day). Default: now.'),
        limit: limit(50),
      },
      annotations: { readOnlyHint: false },
    },
    handle((a) => service.searchByDateRange(a)),
  );
}

/** A tool error result: `isError: true` and one line saying what was wrong. */
export function toolError(err: unknown): CallToolResult {
  const message = isZerdaError(err) && err.code !== 'INTERNAL' ? err.message : `Internal error: ${describeError(err)}`;
  return { content: [{ type: 'text', text: `Error: ${message}` }], isError: true };
}
