/**
 * The route a `useChat()` front end talks to, as docs/ai-sdk.md writes it: a `POST(req)` handler
 * (Web `Request` in, `Response` out, as in Next.js route handlers) that streams through the
 * middleware, driven by the AI SDK's own `DefaultChatTransport` — what `useChat()` sends its
 * messages through — in Node, against the SDK's mock model and a real `MemoryManager`.
 */
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { MemoryManager } from '@zerda/core';
import {
  convertToModelMessages,
  DefaultChatTransport,
  readUIMessageStream,
  simulateReadableStream,
  streamText,
  type UIMessage,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { zerdaMemory } from './index.js';

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function textStream(text: string): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...text.split(/(?<= )/).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: USAGE },
  ];
}

let memory: MemoryManager;
beforeEach(async () => {
  memory = await MemoryManager.create({ owner: 'me' });
});
afterEach(async () => {
  await memory.close();
});

/** docs/ai-sdk.md's route handler, with the user and the model given. */
function chatRoute(model: LanguageModelV4, userId: string) {
  return async function POST(req: Request): Promise<Response> {
    const { messages }: { messages: UIMessage[] } = await req.json();
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId }) });
    const result = streamText({ model: chat, messages: await convertToModelMessages(messages) });
    return result.toUIMessageStreamResponse();
  };
}

test('a useChat route handler: each posted turn is saved when its stream ends, and a fact told three turns earlier is in the next call’s context', async () => {
  const model = new MockLanguageModelV4({
    doStream: ['Noted.', 'Sure, happy to.', 'Nice choice.', 'She lives in Lisbon.'].map((text) => ({
      stream: simulateReadableStream({ chunks: textStream(text) }),
    })),
  });
  const POST = chatRoute(model, 'me');
  const transport = new DefaultChatTransport<UIMessage>({
    api: 'http://app.test/api/chat',
    fetch: async (input, init) => POST(new Request(input, init)),
  });
  const messages: UIMessage[] = [];
  const answers: string[] = [];
  for (const [i, text] of [
    'My sister Ana lives in Lisbon.',
    'Can you help me plan a trip?',
    'I would like some green tea.',
    'Where does my sister live?',
  ].entries()) {
    messages.push({ id: `u${i}`, role: 'user', parts: [{ type: 'text', text }] });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages,
      abortSignal: undefined,
    });
    let reply: UIMessage | undefined;
    for await (const message of readUIMessageStream<UIMessage>({ stream })) reply = message;
    expect(reply?.role).toBe('assistant');
    messages.push(reply!);
    answers.push(reply!.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''));
  }
  expect(answers).toEqual(['Noted.', 'Sure, happy to.', 'Nice choice.', 'She lives in Lisbon.']);
  await memory.flush();
  // Each turn was saved by the route (the app's history travels in the request; the memory is Zerda's).
  const short = await memory.shortTerm('default', 'me');
  expect(short.getAll().map((e) => (e.content as { input: string }).input)).toEqual([
    'My sister Ana lives in Lisbon.',
    'Can you help me plan a trip?',
    'I would like some green tea.',
    'Where does my sister live?',
  ]);
  // The fourth call's context, recalled from memory: the fact from three turns earlier.
  const system = (model.doStreamCalls[3]?.prompt ?? []).flatMap((m) => (m.role === 'system' ? [m.content] : []));
  expect(system.join('\n')).toContain('Ana lives in Lisbon');
  // …and it was recalled, not copied from the first call (which had nothing to recall).
  expect((model.doStreamCalls[0]?.prompt ?? []).filter((m) => m.role === 'system')).toEqual([]);
});
