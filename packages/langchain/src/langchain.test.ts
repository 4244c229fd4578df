import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { Document } from '@langchain/core/documents';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { BaseRetriever } from '@langchain/core/retrievers';
import { RunnableLambda, RunnablePassthrough, RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { MemoryManager } from '@zerda/core';
import { expectZerdaError } from '@zerda/core/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ZerdaChatMessageHistory, ZerdaRetriever } from './index.js';

let memory: MemoryManager;
beforeEach(async () => {
  memory = await MemoryManager.create({ owner: 'me' });
});
afterEach(async () => {
  await memory.close();
});

describe('ZerdaRetriever', () => {
  test('is a BaseRetriever whose documents are the recalled memories', async () => {
    await memory.remember('me', 'default', { title: 'Allergy', text: 'I am allergic to peanuts.', tags: ['health'] });
    await memory.remember('me', 'default', { title: 'Car', text: 'My car is a blue Fiat Panda.' });
    const retriever = new ZerdaRetriever({ memory, userId: 'me' });
    expect(retriever).toBeInstanceOf(BaseRetriever);
    const docs = await retriever.invoke('Am I allergic to peanuts?');
    expect(docs[0]?.pageContent).toContain('allergic to peanuts');
    expect(docs[0]?.metadata).toMatchObject({ kind: 'fact', tags: ['health'] });
    expect(docs[0]?.metadata.score).toBeGreaterThan(0);
    expect(docs.some((d) => d.pageContent.includes('Fiat'))).toBe(false);
  });

  test('feeds a chain: the recalled memory reaches the model’s prompt', async () => {
    await memory.remember('me', 'default', { title: 'Sister', text: 'My sister Ana lives in Lisbon.' });
    const retriever = new ZerdaRetriever({ memory, userId: 'me', topK: 3 });
    const prompts: string[] = [];
    const model = new FakeListChatModel({ responses: ['Lisbon.'] });
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'Known about the user:\n{context}'],
      ['human', '{question}'],
    ]);
    const chain = RunnablePassthrough.assign({
      context: RunnableLambda.from(async ({ question }: { question: string }) =>
        (await retriever.invoke(question)).map((d: Document) => d.pageContent).join('\n'),
      ),
    })
      .pipe(prompt)
      .pipe(
        RunnableLambda.from(async (value) => {
          prompts.push(value.toString());
          return value;
        }),
      )
      .pipe(model);
    const reply = await chain.invoke({ question: 'Where does my sister live?' });
    expect(reply.content).toBe('Lisbon.');
    expect(prompts[0]).toContain('Ana lives in Lisbon');
  });

  test('options are checked', () => {
    expectZerdaError(() => new ZerdaRetriever({ memory, userId: '' }), 'VALIDATION');
    expectZerdaError(() => new ZerdaRetriever({ memory, userId: 'me', topK: 0 }), 'VALIDATION');
    expectZerdaError(() => new ZerdaRetriever({ memory: {} as MemoryManager, userId: 'me' }), 'VALIDATION');
  });
});

describe('ZerdaChatMessageHistory', () => {
  test('RunnableWithMessageHistory saves each turn in Zerda and replays it', async () => {
    const history = new ZerdaChatMessageHistory({ memory, userId: 'me' });
    expect(history).toBeInstanceOf(BaseListChatMessageHistory);
    const seen: number[] = [];
    const model = new FakeListChatModel({ responses: ['Nice to meet you, Ada.', 'Your name is Ada.'] });
    const prompt = ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{input}']]);
    const chain = new RunnableWithMessageHistory({
      runnable: prompt
        .pipe(
          RunnableLambda.from(async (value) => {
            seen.push(value.toChatMessages().length);
            return value;
          }),
        )
        .pipe(model),
      getMessageHistory: async () => history,
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 's1' } };
    await chain.invoke({ input: 'Hi, my name is Ada Lovelace.' }, config);
    await chain.invoke({ input: 'What is my name?' }, config);
    // The second call saw the first turn (2 messages) plus its own question.
    expect(seen).toEqual([1, 3]);
    const messages = await history.getMessages();
    expect(messages.map((m) => [m.getType(), m.text])).toEqual([
      ['human', 'Hi, my name is Ada Lovelace.'],
      ['ai', 'Nice to meet you, Ada.'],
      ['human', 'What is my name?'],
      ['ai', 'Your name is Ada.'],
    ]);
    // Saved through saveInteraction: the name became a long-term memory.
    const recalled = await memory.recall('me', 'default', 'What is my name?');
    expect(recalled.map((h) => JSON.stringify(h.entry.content)).join()).toContain('Ada Lovelace');
  });

  test('a human message waits for its answer; PII is masked in what is kept; clear empties the window', async () => {
    const history = new ZerdaChatMessageHistory({ memory, userId: 'me' });
    await history.addMessage(new HumanMessage('Mail me at ana@example.com please.'));
    expect((await history.getMessages()).map((m) => m.text)).toEqual(['Mail me at ana@example.com please.']);
    expect(memory.shortTerm('default', 'me').size).toBe(0);
    await history.addMessages([new AIMessage('Will do.')]);
    const kept = await history.getMessages();
    expect(kept.map((m) => m.text)).toEqual(['Mail me at [EMAIL_1] please.', 'Will do.']);
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
  });

  test('options are checked', () => {
    expectZerdaError(() => new ZerdaChatMessageHistory({ memory, userId: ' ' }), 'VALIDATION');
    expectZerdaError(() => new ZerdaChatMessageHistory({ memory: {} as MemoryManager, userId: 'me' }), 'VALIDATION');
  });
});
