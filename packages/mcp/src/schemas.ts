import { isZerdaError, ZerdaError } from '@zerda/core';
import { z } from 'zod';
import { parseDateArg } from './dates.js';

// The one place the tools' arguments are checked. The SDK validates every call against these
// schemas before a tool runs (and advertises them to clients as JSON Schema, input side);
// `parseToolArgs` applies the same schemas to callers that use the service directly.

type Issue = { input?: unknown };

/** A required string, trimmed, non-blank, at most `max` characters. */
function text(field: string, max = 100_000, what = 'a non-empty string') {
  const msg = (iss: Issue) => (iss.input === undefined ? `${field} is required` : `${field} must be ${what}`);
  return z
    .string({ error: msg })
    .trim()
    .min(1, { error: `${field} must be ${what}` })
    .max(max, { error: `${field} must be at most ${max} characters` });
}

/** A plain decimal number written as a string: `"7"`, `" 7.5 "`. */
const NUMERIC_STRING = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/;

// Small local models often quote numbers ("importance": "7"), and the Python tool this server
// replaces accepted that; the advertised schema stays `number`, a quoted plain number is read as one.
function number(field: string, min: number, max: number, integer: boolean) {
  const what = `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`;
  const msg = (iss: Issue) =>
    `${field} must be ${what}${iss.input === undefined ? '' : ` (received ${JSON.stringify(iss.input)})`}`;
  const base = z.number({ error: msg });
  const checked = (integer ? base.int({ error: msg }) : base).min(min, { error: msg }).max(max, { error: msg });
  return z.preprocess((v) => (typeof v === 'string' && NUMERIC_STRING.test(v) ? Number(v) : v), checked);
}

// Clients generated from strict JSON schemas send `null` for an optional parameter they don't use.
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema.optional()).optional();
}

/**
 * Comma-separated tags (`"work, Ideas"`), read as trimmed, lowercased, de-duplicated names; an
 * array of strings (a common LLM habit) is read the same way. Empty names are skipped.
 */
function tagList(field: string) {
  const joined = (v: unknown) => (Array.isArray(v) && v.every((t) => typeof t === 'string') ? v.join(',') : v);
  const msg = (iss: Issue) =>
    iss.input === undefined ? `${field} is required` : `${field} must be a comma-separated string such as "work,ideas"`;
  return z.preprocess(
    joined,
    z
      .string({ error: msg })
      .max(10_000, { error: `${field} must be at most 10000 characters` })
      .transform((s, ctx) => {
        const tags = [
          ...new Set(
            s
              .split(',')
              .map((t) => t.trim().toLowerCase())
              .filter(Boolean),
          ),
        ];
        const long = tags.find((t) => t.length > 100);
        if (long !== undefined)
          ctx.addIssue({
            code: 'custom',
            message: `${field}: tags of at most 100 characters expected (received "${long.slice(0, 40)}…")`,
          });
        return tags;
      }),
  );
}

/** An ISO date or date-time, read as epoch milliseconds (see {@link parseDateArg}). */
function isoDate(field: string, endOfDay = false) {
  return text(field, 100, 'an ISO date or date-time').transform((s, ctx) => {
    try {
      return parseDateArg(s, field, endOfDay);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: isZerdaError(err) ? err.message : String(err) });
      return z.NEVER;
    }
  });
}

const memoryType = (field = 'memory_type') => text(field, 64).transform((s) => s.toLowerCase());
const memoryId = () => text('memory_id', 256);
const limit = (fallback: number, max = 1000) =>
  optional(number('limit', 1, max, true)).describe(`Maximum number of memories to return (default ${fallback}).`);

/** How `search_memories` searches: the mode of recall, and the name results report. */
export const SEARCH_TYPES = Object.freeze({
  semantic: { mode: 'hybrid', match: 'semantic' },
  hybrid: { mode: 'hybrid', match: 'semantic' },
  vector: { mode: 'vector', match: 'vector' },
  keyword: { mode: 'lexical', match: 'keyword' },
  lexical: { mode: 'lexical', match: 'keyword' },
} as const);

/** A name accepted by `search_memories`' `search_type`. */
export type SearchType = keyof typeof SEARCH_TYPES;

const searchType = text('search_type', 20)
  .transform((s) => s.toLowerCase())
  .refine((s): s is SearchType => Object.hasOwn(SEARCH_TYPES, s), {
    error: `search_type must be one of ${Object.keys(SEARCH_TYPES).join(', ')}`,
  });

const MEMORY_TYPES = 'conversation, fact, preference, event, task, ephemeral, or any other type name';

/** The argument schemas of every tool (zod raw shapes, as `McpServer.registerTool` takes them). */
export const TOOL_SCHEMAS = {
  remember: {
    title: text('title', 1000).describe('Short title of the memory.'),
    content: text('content').describe('The full text to remember.'),
    tags: optional(tagList('tags')).describe(
      'Comma-separated tags, e.g. "family,birthday". Tags core, identity and pinned stop decay.',
    ),
    importance: optional(number('importance', 1, 10, false)).describe(
      'Importance from 1 (trivial) to 10 (essential); default 5.',
    ),
    memory_type: optional(memoryType()).describe(`Type of memory: ${MEMORY_TYPES}; default "conversation".`),
  },
  search_memories: {
    query: text('query', 10_000).describe('What to look for, in natural language.'),
    search_type: optional(searchType).describe(
      '"semantic" (default: meaning + keywords), "vector" (meaning only) or "keyword".',
    ),
    limit: limit(10, 100),
  },
  search_by_type: {
    memory_type: memoryType().describe(`The type: ${MEMORY_TYPES}.`),
    limit: limit(20),
  },
  search_by_tags: {
    tags: tagList('tags')
      .refine((t) => t.length > 0, { error: 'tags must name at least one tag, comma-separated (e.g. "work,ideas")' })
      .describe('Comma-separated tags, e.g. "work,project-x".'),
    limit: limit(20),
  },
  get_recent_memories: { limit: limit(20) },
  update_memory: {
    memory_id: memoryId().describe('Id of the memory (from remember or a search).'),
    title: optional(text('title', 1000)).describe('New title.'),
    content: optional(text('content')).describe('New content.'),
    // `""` means "no change", as in the original tool (whose clients send it for an unused field).
    tags: optional(
      z.preprocess((v) => (typeof v === 'string' && !v.trim() ? undefined : v), tagList('tags').optional()),
    ).describe('New comma-separated tags (replace the old ones). "" leaves them unchanged; "," clears them.'),
    importance: optional(number('importance', 1, 10, false)).describe('New importance from 1 to 10.'),
    memory_type: optional(memoryType()).describe(`New type: ${MEMORY_TYPES}.`),
  },
  delete_memory: { memory_id: memoryId().describe('Id of the memory to delete.') },
  get_memory_stats: {},
  create_backup: {},
  search_by_date_range: {
    date_from: isoDate('date_from').describe('Start, e.g. "2025-03-01" or "2025-03-01T09:00:00Z".'),
    date_to: optional(isoDate('date_to', true)).describe(
      'End (inclusive; a bare date includes the whole day). Default: now.',
    ),
    limit: limit(50),
  },
  rebuild_vectors: {},
  get_memory_history: { memory_id: memoryId().describe('Id of the memory.') },
} satisfies Record<string, z.ZodRawShape>;

/** Names of the tools: the eleven of the server this one replaces, plus `get_memory_history`. */
export type ToolName = keyof typeof TOOL_SCHEMAS;

/** A tool's arguments after validation (what the service's methods take). */
export type ToolArgs<T extends ToolName> = z.output<z.ZodObject<(typeof TOOL_SCHEMAS)[T]>>;

/**
 * Check raw arguments against a tool's schema, for callers of the service that do not go
 * through the MCP SDK. Throws `VALIDATION` with the same messages a client sees.
 */
export function parseToolArgs<T extends ToolName>(tool: T, raw: unknown): ToolArgs<T> {
  const shape = TOOL_SCHEMAS[tool] as z.ZodRawShape | undefined;
  if (!shape) throw new ZerdaError('VALIDATION', `Unknown tool "${String(tool)}"`);
  const result = z.object(shape).safeParse(raw ?? {});
  if (!result.success) {
    const message = result.error.issues.map((i) => i.message).join('; ');
    throw new ZerdaError('VALIDATION', message, { details: { tool } });
  }
  return result.data as ToolArgs<T>;
}
