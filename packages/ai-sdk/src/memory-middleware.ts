import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Message,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { MemoryManager } from '@zerda/core';
import { checkId, checkOptionKeys, invalid } from '@zerda/core/adapter';

/** The part of a `MemoryManager` the middleware uses (a `BrowserMemory`'s `manager` has it). */
export type ChatMemory = Pick<MemoryManager, 'buildContext' | 'saveInteraction'>;

/** What {@link zerdaMemory} was told about a turn it saved. */
export interface SavedTurn {
  /** The user's last message, as sent to the model. */
  input: string;
  /** The assistant's whole answer to it (every step of a tool loop). */
  output: string;
}

/** Options of {@link zerdaMemory}. */
export interface ZerdaMemoryOptions {
  /** The memory: a `MemoryManager`, or `(await openBrowserMemory()).manager`. */
  memory: ChatMemory;
  /** Whose memory (access control is the manager's). */
  userId: string;
  /** Which memory of that user. Default `'default'`. */
  tenantId?: string;
  /**
   * Token budget of the recalled context (profile and memories, counted with the query, as
   * `buildContext`'s `tokenBudget`). Default: the manager's `contextTokens` / `config.maxTokens`.
   */
  tokenBudget?: number;
  /** Save each finished turn with `saveInteraction`. Default true; false only recalls. */
  save?: boolean;
  /**
   * Called when recall or saving fails. Without it the failure is the call's: `generateText`
   * rejects, a stream ends with the error. With it the call goes on (without memory context, or
   * with the turn unsaved) and the error is handed here.
   */
  onError?: (error: unknown, during: 'recall' | 'save') => void;
  /** Called after a turn is saved. */
  onSave?: (turn: SavedTurn) => void;
}

const OPTION_KEYS = ['memory', 'userId', 'tenantId', 'tokenBudget', 'save', 'onError', 'onSave'] as const;
/** Finish reasons after which the answer is not a finished turn (a tool step, a failure, a stop). */
const UNFINISHED: ReadonlySet<LanguageModelV4FinishReason['unified']> = new Set(['tool-calls', 'error', 'interrupted']);
/** Contexts kept for the later steps of a tool loop, which ask the same question again. */
const STEP_CACHE_SIZE = 16;

/**
 * AI SDK language-model middleware that gives any model Zerda's memory:
 *
 * ```ts
 * const model = wrapLanguageModel({ model: yourModel, middleware: zerdaMemory({ memory, userId: 'me' }) });
 * ```
 *
 * Before each call it recalls what is relevant to the user's last message (`buildContext`: the
 * profile and the memories that pass recall's relevance gate, within `tokenBudget`) and adds it
 * as one system message after the call's own system messages; history stays the app's. After a
 * `generateText` call, or when a `streamText` stream finishes, it saves the turn — the user's last
 * message and the assistant's whole text — with `saveInteraction` (PII masked, memories formed)
 * before the result is returned or the stream closes. Tool calls, reasoning, files and every
 * other part pass through untouched; a tool step is not a turn, so a tool loop saves once, with
 * the text of all its steps. An aborted, failed or interrupted call saves nothing: neither the
 * partial answer nor the user's message.
 */
export function zerdaMemory(options: ZerdaMemoryOptions): LanguageModelV4Middleware {
  checkOptionKeys(options, OPTION_KEYS, 'zerdaMemory options');
  const { memory, userId, tenantId = 'default', tokenBudget, save = true, onError, onSave } = options;
  if (typeof memory?.buildContext !== 'function' || typeof memory.saveInteraction !== 'function')
    invalid('memory', 'a MemoryManager (buildContext, saveInteraction)', memory);
  checkId('userId', userId);
  checkId('tenantId', tenantId);
  if (tokenBudget !== undefined && (!Number.isInteger(tokenBudget) || tokenBudget < 1))
    invalid('tokenBudget', 'a positive integer', tokenBudget);
  if (onError !== undefined && typeof onError !== 'function') invalid('onError', 'a function', onError);
  if (onSave !== undefined && typeof onSave !== 'function') invalid('onSave', 'a function', onSave);

  const stepContexts = new Map<string, string | null>();

  function fail(error: unknown, during: 'recall' | 'save'): void {
    if (!onError) throw error;
    onError(error, during);
  }

  async function recall(query: string, continuing: boolean): Promise<string | null> {
    // Later steps of a tool loop repeat the question: reuse its context rather than recall (and
    // reinforce) the same memories once per step.
    if (continuing && stepContexts.has(query)) return stepContexts.get(query) ?? null;
    const context = await memory.buildContext(userId, tenantId, query, {
      historyTurns: 0,
      systemPrompt: '',
      ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    });
    const hasMemory = context.sections.some((s) => s.kind === 'profile' || s.kind === 'memories');
    const system = hasMemory ? (context.messages.find((m) => m.role === 'system')?.content ?? null) : null;
    stepContexts.delete(query);
    stepContexts.set(query, system);
    if (stepContexts.size > STEP_CACHE_SIZE) stepContexts.delete(stepContexts.keys().next().value as string);
    return system;
  }

  async function saveTurn(params: LanguageModelV4CallOptions, answer: string): Promise<void> {
    const turn = currentTurn(params.prompt);
    if (!save || turn === null || params.abortSignal?.aborted) return;
    const output = [...turn.earlierText, answer].filter((t) => t.trim() !== '').join('\n\n');
    if (output === '') return;
    try {
      await memory.saveInteraction(userId, tenantId, turn.input, output);
    } catch (error) {
      fail(error, 'save');
      return;
    }
    onSave?.({ input: turn.input, output });
  }

  return {
    specificationVersion: 'v4',

    async transformParams({ params }) {
      const turn = currentTurn(params.prompt);
      if (turn === null) return params;
      let system: string | null;
      try {
        system = await recall(turn.input, turn.earlierText.length > 0 || turn.continuing);
      } catch (error) {
        fail(error, 'recall');
        return params;
      }
      if (system === null) return params;
      return { ...params, prompt: withSystemMessage(params.prompt, system) };
    },

    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (!UNFINISHED.has(result.finishReason.unified)) await saveTurn(params, contentText(result.content));
      return result;
    },

    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      let text = '';
      let finished = false;
      const saving = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          if (part.type === 'text-delta') text += part.delta;
          else if (part.type === 'finish') finished = !UNFINISHED.has(part.finishReason.unified);
          else if (part.type === 'error') finished = false;
          controller.enqueue(part);
        },
        async flush() {
          if (finished) await saveTurn(params, text);
        },
      });
      return { stream: stream.pipeThrough(saving), ...rest };
    },
  };
}

interface CurrentTurn {
  /** The text of the last user message. */
  input: string;
  /** Assistant text already given in earlier steps of this turn (after the user message). */
  earlierText: string[];
  /** Messages follow the user's (a later step of a tool loop). */
  continuing: boolean;
}

/** The turn a prompt is about: its last user message and what the assistant said since. */
function currentTurn(prompt: LanguageModelV4Prompt): CurrentTurn | null {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i] as LanguageModelV4Message;
    if (message.role !== 'user') continue;
    const input = partsText(message.content);
    if (input.trim() === '') return null;
    const after = prompt.slice(i + 1);
    const earlierText = after.flatMap((m) => (m.role === 'assistant' ? [partsText(m.content)] : []));
    return { input, earlierText: earlierText.filter((t) => t !== ''), continuing: after.length > 0 };
  }
  return null;
}

function partsText(parts: ReadonlyArray<{ type: string }>): string {
  return parts
    .filter((p): p is { type: 'text'; text: string } => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

function contentText(content: LanguageModelV4Content[]): string {
  return partsText(content);
}

/** The prompt with `content` as a system message after its leading system messages. */
function withSystemMessage(prompt: LanguageModelV4Prompt, content: string): LanguageModelV4Prompt {
  let at = 0;
  while (at < prompt.length && prompt[at]?.role === 'system') at++;
  return [...prompt.slice(0, at), { role: 'system', content }, ...prompt.slice(at)];
}
