import { describe, expect, it } from 'vitest';
import { evaluate, percent, percentile, recallAt, type RetrievalSystem } from './evaluate.js';
import { parseLocomo, parseSessionDate, repairEvidence, turnText } from './locomo.js';

/** A raw LoCoMo sample `c` between speakers A and B whose first session is dated 1 May 2023. */
function sample(sessions: Record<string, unknown>, qa: unknown[]) {
  return {
    sample_id: 'c',
    conversation: { speaker_a: 'A', speaker_b: 'B', session_1_date_time: '1:00 pm on 1 May, 2023', ...sessions },
    qa,
  };
}

describe('LoCoMo loader', () => {
  it('repairs malformed evidence ids', () => {
    expect(repairEvidence('D8:6; D9:17')).toEqual(['D8:6', 'D9:17']);
    expect(repairEvidence('D9:1 D4:4 D4:6')).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(repairEvidence('D:11:26')).toEqual(['D11:26']);
    expect(repairEvidence('D30:05')).toEqual(['D30:5']);
    expect(repairEvidence('D')).toEqual([]);
  });

  it('parses session dates as UTC', () => {
    expect(new Date(parseSessionDate('1:56 pm on 8 May, 2023')).toISOString()).toBe('2023-05-08T13:56:00.000Z');
    expect(new Date(parseSessionDate('12:09 am on 13 September, 2023')).toISOString()).toBe('2023-09-13T00:09:00.000Z');
    expect(() => parseSessionDate('yesterday')).toThrow(/Unrecognised/);
  });

  it('builds turns, counts sessions by their turn arrays, keeps categories 1-4 with resolvable evidence', () => {
    const [conv] = parseLocomo([
      sample(
        {
          session_1: [
            { speaker: 'A', dia_id: 'D1:1', text: 'Hi' },
            { speaker: 'B', dia_id: 'D1:2', text: 'Look', blip_caption: 'a photo of a cat' },
          ],
          session_2_date_time: '1:00 pm on 2 May, 2023',
          session_3_date_time: '1:00 pm on 3 May, 2023',
          session_2: [{ speaker: 'A', dia_id: 'D2:1', text: 'Bye' }],
        },
        [
          { question: 'q1', category: 4, evidence: ['D1:2; D2:1'] },
          { question: 'q2', category: 5, evidence: ['D1:1'] },
          { question: 'q3', category: 3, evidence: [] },
          { question: 'q4', category: 1, evidence: ['D9:9', 'D1:1'] },
          { question: 'q5', category: 2, evidence: ['D'] },
        ],
      ),
    ]);
    expect(conv!.sessions.map((s) => s.number)).toEqual([1, 2]);
    expect(conv!.sessions[0]!.turns[1]!.text).toBe('B: Look [image: a photo of a cat]');
    expect(turnText({ speaker: 'A', text: 'Hi' })).toBe('A: Hi');
    expect(conv!.questions.map((q) => [q.question, q.evidence])).toEqual([
      ['q1', ['D1:2', 'D2:1']],
      ['q4', ['D1:1']],
    ]);
    expect(conv!.unresolved).toEqual(['D9:9', 'D']);
  });
});

describe('metrics', () => {
  it('recall@k is the share of evidence in the top k', () => {
    expect(recallAt(['a', 'b', 'c'], ['b', 'z'], 1)).toBe(0);
    expect(recallAt(['a', 'b', 'c'], ['b', 'z'], 2)).toBe(0.5);
    expect(recallAt(['a', 'b'], ['a', 'b'], 25)).toBe(1);
  });

  it('percentile uses the nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 50)).toBe(0);
  });

  it('micro-averages over questions, per category and per conversation', async () => {
    const [conv] = parseLocomo([
      sample({ session_1: ['D1:1', 'D1:2', 'D1:3'].map((dia_id) => ({ speaker: 'A', dia_id, text: dia_id })) }, [
        { question: 'D1:1', category: 4, evidence: ['D1:1'] },
        { question: 'D1:3', category: 4, evidence: ['D1:3', 'D1:2'] },
        { question: 'D1:2', category: 1, evidence: ['D1:3'] },
      ]),
    ]);
    // A "memory" that always ranks the turn named by the question first, then the rest in order.
    const system: RetrievalSystem = {
      async open() {
        return {
          search: async (q) => [q, ...['D1:1', 'D1:2', 'D1:3'].filter((id) => id !== q)],
          close: async () => {},
        };
      },
    };
    const [r] = await evaluate(system, [conv!], ['lexical']);
    expect(r!.overall.questions).toBe(3);
    expect(r!.byCategory[4]!.sums[5]).toBe(2); // 1 + 1
    expect(percent(r!.byCategory[1]!, 5)).toBe(100);
    expect(r!.byConversation.c!.questions).toBe(3);
    expect(r!.latencies).toHaveLength(3);
  });
});
