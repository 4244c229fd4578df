import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { MemoryManager } from '@zerda/core';
import { expectZerdaError } from '@zerda/core/testing';
import {
  generateText,
  type ModelMessage,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { zerdaMemory } from './index.js';

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function answer(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

function textStream(deltas: string[], finish: 'stop' | 'tool-calls' = 'stop'): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    { type: 'text-end', id: 't' },
    { type: 'finish', finishReason: { unified: finish, raw: undefined }, usage: USAGE },
  ];
}

/** The system messages a call sent to the model. */
function systemOf(call: LanguageModelV4CallOptions | undefined): string[] {
  return (call?.prompt ?? []).flatMap((m) => (m.role === 'system' ? [m.content] : []));
}

let memory: MemoryManager;
beforeEach(async () => {
  memory = await MemoryManager.create({ owner: 'me' });
});
afterEach(async () => {
  await memory.close();
});

async function turns(): Promise<{ input: string; output: string }[]> {
  const short = await memory.shortTerm('default', 'me');
  return short.getAll().map((e) => e.content as { input: string; output: string });
}

describe('zerdaMemory with generateText', () => {
  test('saves the turn, then recalls it as a system message three turns later', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [answer('Nice!'), answer('Sure.'), answer('Tea, then.'), answer('In Lisbon.')],
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    const messages: ModelMessage[] = [];
    for (const text of [
      'My sister Ana lives in Lisbon.',
      'Can you help me plan a trip?',
      'I would like some tea.',
      'Where does my sister live?',
    ]) {
      messages.push({ role: 'user', content: text });
      const result = await generateText({ model: chat, system: 'You are kind.', messages });
      messages.push({ role: 'assistant', content: result.text });
    }
    const calls = model.doGenerateCalls;
    expect(calls).toHaveLength(4);
    // The app's own system message stays first; Zerda's context follows it.
    expect(calls[3]?.prompt[0]).toEqual({ role: 'system', content: 'You are kind.' });
    const context = systemOf(calls[3]).slice(1).join('\n');
    expect(context).toContain('Ana lives in Lisbon');
    // The rest of the prompt is the app's, unchanged: no history or query added by Zerda.
    expect(calls[3]?.prompt.filter((m) => m.role !== 'system')).toHaveLength(7);
    expect((await turns()).map((t) => t.input)).toEqual([
      'My sister Ana lives in Lisbon.',
      'Can you help me plan a trip?',
      'I would like some tea.',
      'Where does my sister live?',
    ]);
    expect((await turns())[3]?.output).toBe('In Lisbon.');
  });

  test('an empty memory adds no system message', async () => {
    const model = new MockLanguageModelV4({ doGenerate: answer('Hello.') });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    await generateText({ model: chat, prompt: 'What is the capital of Peru?' });
    expect(systemOf(model.doGenerateCalls[0])).toEqual([]);
  });

  test('the context stays within tokenBudget', async () => {
    for (let i = 0; i < 30; i++)
      await memory.remember('me', 'default', {
        title: `Trip ${i}`,
        text: `I visited Lisbon on trip number ${i} with Ana.`,
      });
    const model = new MockLanguageModelV4({ doGenerate: answer('Ok.') });
    const budget = 120;
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me', tokenBudget: budget }) });
    await generateText({ model: chat, prompt: 'When did I visit Lisbon with Ana?' });
    const [context] = systemOf(model.doGenerateCalls[0]);
    expect(context).toContain('Lisbon');
    const unbounded = await memory.buildContext('me', 'default', 'When did I visit Lisbon with Ana?', {
      historyTurns: 0,
      systemPrompt: '',
      tokenBudget: 10_000,
    });
    expect((context ?? '').length).toBeLessThan(unbounded.text.length);
    expect(Math.ceil((context ?? '').length / 4)).toBeLessThanOrEqual(budget);
  });

  test('tool calls pass through and a tool loop saves one turn with the text of every step', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: '{"city":"Lisbon"}' },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage: USAGE,
          warnings: [],
        },
        answer('It is sunny in Lisbon.'),
      ],
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    await memory.remember('me', 'default', { title: 'Home', text: 'I live in Lisbon.' });
    const seen: unknown[] = [];
    const result = await generateText({
      model: chat,
      prompt: 'What is the weather where I live in Lisbon?',
      tools: {
        weather: tool({
          inputSchema: z.object({ city: z.string() }),
          execute: async (input) => {
            seen.push(input);
            return { sky: 'sunny' };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(seen).toEqual([{ city: 'Lisbon' }]);
    expect(result.steps[0]?.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['weather', { city: 'Lisbon' }]]);
    expect(result.text).toBe('It is sunny in Lisbon.');
    // Both steps got the memory context; the second one carries the tool result untouched.
    expect(systemOf(model.doGenerateCalls[0]).join()).toContain('I live in Lisbon');
    expect(systemOf(model.doGenerateCalls[1]).join()).toContain('I live in Lisbon');
    expect(model.doGenerateCalls[1]?.prompt.at(-1)?.role).toBe('tool');
    expect(await turns()).toEqual([
      { input: 'What is the weather where I live in Lisbon?', output: 'Let me look.\n\nIt is sunny in Lisbon.' },
    ]);
  });

  test('a failing model saves nothing and its error reaches the caller', async () => {
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        throw new Error('provider down');
      },
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    await expect(generateText({ model: chat, prompt: 'My name is Ada.', maxRetries: 0 })).rejects.toThrow(
      'provider down',
    );
    expect(await turns()).toEqual([]);
  });

  test('a failing save rejects the call, or goes to onError and the answer comes back', async () => {
    const failing = {
      buildContext: memory.buildContext.bind(memory),
      saveInteraction: async () => {
        throw new Error('disk full');
      },
    };
    const model = new MockLanguageModelV4({ doGenerate: answer('Noted.') });
    const strict = wrapLanguageModel({ model, middleware: zerdaMemory({ memory: failing, userId: 'me' }) });
    await expect(generateText({ model: strict, prompt: 'My name is Ada.', maxRetries: 0 })).rejects.toThrow(
      'disk full',
    );
    const errors: [unknown, string][] = [];
    const lenient = wrapLanguageModel({
      model,
      middleware: zerdaMemory({ memory: failing, userId: 'me', onError: (e, during) => errors.push([e, during]) }),
    });
    const result = await generateText({ model: lenient, prompt: 'My name is Ada.' });
    expect(result.text).toBe('Noted.');
    expect(errors.map(([e, during]) => [(e as Error).message, during])).toEqual([['disk full', 'save']]);
  });

  test('options are checked', () => {
    expectZerdaError(() => zerdaMemory({ memory, userId: '' }), 'VALIDATION');
    expectZerdaError(() => zerdaMemory({ memory, userId: 'me', tokenBudget: 0 }), 'VALIDATION');
    expectZerdaError(() => zerdaMemory({ memory: {} as MemoryManager, userId: 'me' }), 'VALIDATION');
    expectZerdaError(() => zerdaMemory({ memory, userId: 'me', tenant: 'x' } as never), 'VALIDATION');
  });

  test('access control is the manager’s: a user without a role is denied', async () => {
    const model = new MockLanguageModelV4({ doGenerate: answer('Hi.') });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'mallory' }) });
    await expect(generateText({ model: chat, prompt: 'Hello', maxRetries: 0 })).rejects.toMatchObject({
      code: 'ACCESS_DENIED',
    });
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe('zerdaMemory with streamText', () => {
  test('saves the whole streamed text when the stream finishes, and recalls it next time', async () => {
    const model = new MockLanguageModelV4({
      doStream: [
        { stream: simulateReadableStream({ chunks: textStream(['Noted', ': Ana ', 'lives in Lisbon.']) }) },
        { stream: simulateReadableStream({ chunks: textStream(['Lisbon.']) }) },
      ],
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    const first = streamText({ model: chat, prompt: 'My sister Ana lives in Lisbon.' });
    expect(await first.text).toBe('Noted: Ana lives in Lisbon.');
    expect(await turns()).toEqual([{ input: 'My sister Ana lives in Lisbon.', output: 'Noted: Ana lives in Lisbon.' }]);
    const second = streamText({ model: chat, prompt: 'Where does my sister live?' });
    await second.text;
    expect(systemOf(model.doStreamCalls[1]).join()).toContain('Ana lives in Lisbon');
  });

  test('an aborted stream saves nothing, not even what was shown', async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: textStream(['Ana ', 'lives ', 'in ', 'Lisbon.']),
          chunkDelayInMs: 30,
        }),
      }),
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    const result = streamText({
      model: chat,
      prompt: 'My sister Ana lives in Lisbon.',
      abortSignal: controller.signal,
    });
    let shown = '';
    for await (const delta of result.textStream) {
      shown += delta;
      controller.abort();
    }
    expect(shown).not.toBe('');
    await new Promise((r) => setTimeout(r, 200));
    expect(await turns()).toEqual([]);
  });

  test('a stream that ends with an error saves nothing', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV4StreamPart>({
          chunks: [
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'Half an ans' },
            { type: 'error', error: new Error('connection reset') },
          ],
        }),
      }),
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    const errors: unknown[] = [];
    const result = streamText({ model: chat, prompt: 'My name is Ada.', onError: ({ error }) => errors.push(error) });
    await result.consumeStream();
    expect(errors.length).toBeGreaterThan(0);
    expect(await turns()).toEqual([]);
  });

  test('tool-call parts of a stream pass through untouched', async () => {
    const toolCall: LanguageModelV4StreamPart = {
      type: 'tool-call',
      toolCallId: 'c1',
      toolName: 'weather',
      input: '{"city":"Porto"}',
    };
    const model = new MockLanguageModelV4({
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [
              { type: 'stream-start', warnings: [] },
              toolCall,
              { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: USAGE },
            ],
          }),
        },
        { stream: simulateReadableStream({ chunks: textStream(['Rainy in Porto.']) }) },
      ],
    });
    const chat = wrapLanguageModel({ model, middleware: zerdaMemory({ memory, userId: 'me' }) });
    const result = streamText({
      model: chat,
      prompt: 'Weather in Porto?',
      tools: { weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async () => 'rain' }) },
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('Rainy in Porto.');
    const steps = await result.steps;
    expect(steps[0]?.toolCalls.map((c) => c.input)).toEqual([{ city: 'Porto' }]);
    expect(await turns()).toEqual([{ input: 'Weather in Porto?', output: 'Rainy in Porto.' }]);
  });
});
