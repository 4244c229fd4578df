import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { isInteraction, type MemoryManager } from '@zerda/core';
import { checkId, invalid } from '@zerda/core/adapter';

/** The part of a `MemoryManager` {@link ZerdaChatMessageHistory} uses. */
export type HistoryMemory = Pick<MemoryManager, 'saveInteraction' | 'shortTerm' | 'clearShortTerm'>;

/** Options of {@link ZerdaChatMessageHistory}. */
export interface ZerdaChatMessageHistoryInput {
  /** The memory: a `MemoryManager`, or `(await openBrowserMemory()).manager`. */
  memory: HistoryMemory;
  /** Whose memory (access control is the manager's). */
  userId: string;
  /** Which memory of that user. Default `'default'`. */
  tenantId?: string;
}

/**
 * A LangChain.js chat message history over Zerda's saved turns (for `RunnableWithMessageHistory`
 * and anything else that takes a `BaseListChatMessageHistory`).
 *
 * A human message followed by an AI message is one turn, saved with `saveInteraction` — so it is
 * PII-masked, added to the short-term window, kept in long-term memory when it carries something,
 * and formed into memories. `getMessages()` returns the short-term window (the last
 * `config.windowSize` turns of this manager's session, oldest first) as human/AI pairs, with the
 * text as stored (masked). System and tool messages are not part of a turn and are not kept; a
 * human message not yet answered is held until its answer comes. `clear()` empties the window;
 * long-term memories stay (delete them with the manager).
 */
export class ZerdaChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['zerda', 'chat_history'];
  readonly #memory: HistoryMemory;
  readonly #userId: string;
  readonly #tenantId: string;
  #pending: string[] = [];

  constructor(fields: ZerdaChatMessageHistoryInput) {
    super();
    const { memory, userId, tenantId = 'default' } = fields;
    if (typeof memory?.saveInteraction !== 'function' || typeof memory.shortTerm !== 'function')
      invalid('memory', 'a MemoryManager (saveInteraction, shortTerm)', memory);
    checkId('userId', userId);
    checkId('tenantId', tenantId);
    this.#memory = memory;
    this.#userId = userId;
    this.#tenantId = tenantId;
  }

  override async getMessages(): Promise<BaseMessage[]> {
    const saved = this.#memory
      .shortTerm(this.#tenantId, this.#userId)
      .getAll()
      .flatMap((entry) => {
        if (!isInteraction(entry.content)) return [];
        const { input, output } = entry.content;
        return [
          ...(input ? [new HumanMessage({ content: input, id: `${entry.id}:in` })] : []),
          ...(output ? [new AIMessage({ content: output, id: `${entry.id}:out` })] : []),
        ];
      });
    return [...saved, ...this.#pending.map((text) => new HumanMessage(text))];
  }

  override async addMessage(message: BaseMessage): Promise<void> {
    const type = message.getType();
    if (type === 'human') this.#pending.push(message.text);
    else if (type === 'ai') {
      const input = this.#pending.join('\n');
      await this.#memory.saveInteraction(this.#userId, this.#tenantId, input, message.text);
      this.#pending = [];
    }
  }

  override async addMessages(messages: BaseMessage[]): Promise<void> {
    for (const message of messages) await this.addMessage(message);
  }

  override async clear(): Promise<void> {
    await this.#memory.clearShortTerm(this.#userId, this.#tenantId);
    this.#pending = [];
  }
}
