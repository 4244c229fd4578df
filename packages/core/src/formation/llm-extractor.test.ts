import { describe, expect, it } from 'vitest';
import type { LlmClient } from '../model/embedder.js';
import { createEntry } from '../model/entry.js';
import { isZerdaError } from '../model/errors.js';
import type { MemoryEntry } from '../model/types.js';
import { LlmExtractor } from './llm-extractor.js';
import type { FormationContext, FormationTurn } from './types.js';

const NOW = Date.UTC(2023, 4, 8, 12);
const turn: FormationTurn = {
  id: 't9',
  tenantId: 't',
  userId: 'me',
  input: 'I moved to Porto. My sister still lives in Lisbon.',
  output: 'Noted.',
  createdAt: NOW,
};
const lisbon = createEntry(
  't',
  {
    content: { title: 'me · lives in', text: 'I live in Lisbon.' },
    kind: 'fact',
    metadata: { about: 'me', attribute: 'lives in', value: 'Lisbon', sources: ['t1'] },
  },
  NOW,
);
const peanuts = createEntry(
  't',
  {
    content: { title: 'me', text: 'I am allergic to peanuts.' },
    kind: 'fact',
    metadata: { about: 'me', sources: ['t2'] },
  },
  NOW,
);
const context = (known: MemoryEntry[]): FormationContext => ({
  similar: async (_q, limit = 8) => known.slice(0, limit),
});

/** An LlmClient that answers from a script and records its prompts. */
function scripted(...answers: (string | Error)[]): LlmClient & { prompts: string[]; options: unknown[] } {
  const prompts: string[] = [];
  const options: unknown[] = [];
  return {
    prompts,
    options,
    async generate(prompt, o) {
      prompts.push(prompt);
      options.push(o);
      const a = answers.shift();
      if (a === undefined) throw new Error('script exhausted');
      if (a instanceof Error) throw a;
      return a;
    },
  };
}

describe('LlmExtractor', () => {
  it('maps ADD / UPDATE / NOOP / DELETE onto operations, aliases onto real ids', async () => {
    const llm = scripted(
      '```json\n' +
        JSON.stringify({
          operations: [
            {
              op: 'UPDATE',
              id: 'm1',
              text: 'Lives in Porto',
              kind: 'fact',
              about: 'me',
              attribute: 'Lives In',
              value: 'Porto',
            },
            {
              op: 'ADD',
              text: "The user's sister lives in Lisbon",
              kind: 'fact',
              about: "me's sister",
              date: '2023-05-07',
            },
            { op: 'noop', id: 'm2' },
            { op: 'DELETE', id: 'm2' },
          ],
        }) +
        '\n```',
    );
    const plan = await new LlmExtractor(llm).extract(turn, context([lisbon, peanuts]));
    expect(plan.keep).toBe(true);
    expect(plan.ops).toEqual([
      {
        op: 'update',
        id: lisbon.id,
        statement: { text: 'Lives in Porto', kind: 'fact', about: 'me', attribute: 'lives in', value: 'Porto' },
      },
      {
        op: 'add',
        statement: {
          text: "The user's sister lives in Lisbon",
          kind: 'fact',
          about: "me's sister",
          at: Date.UTC(2023, 4, 7),
        },
      },
      { op: 'reinforce', id: peanuts.id, statement: { text: 'I am allergic to peanuts.', kind: 'fact', about: 'me' } },
      { op: 'delete', id: peanuts.id },
    ]);
    expect(llm.prompts).toHaveLength(1);
    expect(llm.prompts[0]).toContain('m1 [fact] about "me" (lives in): "I live in Lisbon."');
    expect(llm.prompts[0]).toContain('2023-05-08');
    expect(llm.prompts[0]).not.toContain(lisbon.id);
    expect(llm.prompts[0]).not.toContain('Noted.');
  });

  it('an empty list means nothing to remember; a question-only turn is then not kept', async () => {
    const plan = await new LlmExtractor(scripted('{"operations": []}')).extract(
      { ...turn, input: 'Where do I live?' },
      context([]),
    );
    expect(plan).toEqual({ keep: false, ops: [], dropped: [{ text: 'Where do I live?', reason: 'question' }] });
  });

  it.each([
    ['not JSON', 'Sure! I will remember that.', /no JSON object/],
    ['broken JSON', '{"operations": [', /no JSON object|not valid JSON/],
    ['no operations array', '{"memories": []}', /"operations" is not an array/],
    ['unknown op', '{"operations":[{"op":"MERGE","text":"x","kind":"fact"}]}', /MERGE/],
    ['an id it was not shown', '{"operations":[{"op":"UPDATE","id":"m7","text":"x","kind":"fact"}]}', /m7/],
    [
      'a real id instead of an alias',
      `{"operations":[{"op":"DELETE","id":"${lisbon.id}"}]}`,
      /not one of the known memories/,
    ],
    ['no text', '{"operations":[{"op":"ADD","kind":"fact"}]}', /needs a text/],
    ['a bad kind', '{"operations":[{"op":"ADD","text":"x","kind":"opinion"}]}', /kind "opinion"/],
    ['a bad date', '{"operations":[{"op":"ADD","text":"x","kind":"event","date":"yesterday"}]}', /date "yesterday"/],
    [
      'too many ops',
      JSON.stringify({ operations: Array.from({ length: 13 }, () => ({ op: 'ADD', text: 'x', kind: 'fact' })) }),
      /more than 12/,
    ],
  ])('rejects %s with FORMATION', async (_name, answer, message) => {
    const err = await new LlmExtractor(scripted(answer))
      .extract(turn, context([lisbon, peanuts]))
      .catch((e: unknown) => e);
    expect(isZerdaError(err, 'FORMATION')).toBe(true);
    expect((err as Error).message).toMatch(message);
  });

  it('a failing LLM is a FORMATION error carrying the cause', async () => {
    const boom = new Error('503 from endpoint');
    const err = await new LlmExtractor(scripted(boom)).extract(turn, context([])).catch((e: unknown) => e);
    expect(isZerdaError(err, 'FORMATION')).toBe(true);
    expect((err as Error).cause).toBe(boom);
  });

  it('bounds the prompt: known memories, their length, the turn, the answer budget', async () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      createEntry(
        't',
        { content: { title: 'me', text: `memory ${i} ${'x'.repeat(500)}` }, kind: 'fact', metadata: { about: 'me' } },
        NOW,
      ),
    );
    const llm = scripted('{"operations":[]}');
    await new LlmExtractor(llm, { maxKnown: 3, maxMemoryChars: 50, maxTurnChars: 100, maxTokens: 200 }).extract(
      { ...turn, input: 'I live in Lisbon. '.repeat(50) },
      context(many),
    );
    const prompt = llm.prompts[0]!;
    expect(prompt).toContain('m3 ');
    expect(prompt).not.toContain('m4 ');
    expect(prompt).not.toContain('x'.repeat(51));
    expect(prompt.length).toBeLessThan(3000);
    expect(llm.options[0]).toEqual({ maxTokens: 200 });
  });
});
