import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateLongMemEval, formatLongMemEval, percent, recallAllAt, type QuestionSystem } from './evaluate.js';
import { isLongMemEval, isAbstention, loadLongMemEval, parseLongMemEval, parseLongMemEvalDate } from './longmemeval.js';
import { REPO_ROOT } from './model.js';

/** A LongMemEval question in the dataset's raw shape. */
function raw(id: string, over: Record<string, unknown> = {}) {
  return {
    question_id: id,
    question_type: 'multi-session',
    question: `question ${id}`,
    answer: 'a',
    question_date: '2023/06/01 (Thu) 00:58',
    haystack_dates: ['2023/05/27 (Sat) 10:20', '2023/05/25 (Thu) 20:21', '2023/05/26 (Fri) 09:00'],
    haystack_session_ids: ['late', 'early', 'middle'],
    haystack_sessions: [
      [
        { role: 'user', content: 'I ran 25:50', has_answer: true },
        { role: 'assistant', content: 'Well done', has_answer: false },
      ],
      [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Your serve toss', has_answer: true },
      ],
      [{ role: 'user', content: 'Unrelated' }],
    ],
    answer_session_ids: ['late', 'early', 'gone'],
    ...over,
  };
}

describe('LongMemEval loader', () => {
  it('parses "2023/05/20 (Sat) 02:21" dates as UTC and checks them', () => {
    expect(new Date(parseLongMemEvalDate('2023/05/20 (Sat) 02:21')).toISOString()).toBe('2023-05-20T02:21:00.000Z');
    expect(new Date(parseLongMemEvalDate('2023/1/2 23:59')).toISOString()).toBe('2023-01-02T23:59:00.000Z');
    expect(() => parseLongMemEvalDate('2023/05/20 (Sun) 02:21')).toThrow(/Weekday/);
    expect(() => parseLongMemEvalDate('2023/02/30 (Thu) 02:21')).toThrow(/Invalid/);
    expect(() => parseLongMemEvalDate('2023/05/20 (Sat) 24:00')).toThrow(/Invalid/);
    expect(() => parseLongMemEvalDate('1:56 pm on 8 May, 2023')).toThrow(/Unrecognised/);
  });

  it('takes has_answer turns (user or assistant) and answer sessions as evidence, in chronological order', () => {
    const data = parseLongMemEval([raw('q1')]);
    const [q] = data.questions;
    expect(q!.questionTimestamp).toBe(Date.UTC(2023, 5, 1, 0, 58));
    expect(q!.sessions.map((s) => s.sessionId)).toEqual(['early', 'middle', 'late']);
    expect(q!.sessions[0]!.turns.map((t) => t.text)).toEqual(['user: Hello', 'assistant: Your serve toss']);
    // Ids keep the haystack position, so they survive the chronological sort.
    expect(q!.evidence).toEqual(['S0:T0', 'S1:T1']);
    expect(q!.evidenceSessions).toEqual(['S0', 'S1']);
    expect(q!.sessions.find((s) => s.key === 'S1')!.turns[1]).toMatchObject({
      id: 'S1:T1',
      sessionKey: 'S1',
      role: 'assistant',
      hasAnswer: true,
    });
    expect(data.unresolvedSessions).toEqual(['q1/gone']);
  });

  it('leaves out abstention questions (question_id ending in _abs)', () => {
    expect(isAbstention('gpt4_70e84552_abs')).toBe(true);
    expect(isAbstention('abs_6a1eabeb')).toBe(false);
    const data = parseLongMemEval([raw('a_abs'), raw('b'), raw('c_abs')]);
    expect(data.questions.map((q) => q.questionId)).toEqual(['b']);
    expect(data.abstention).toEqual(['a_abs', 'c_abs']);
  });

  it('rejects malformed questions', () => {
    expect(() => parseLongMemEval({})).toThrow(/array/);
    expect(() => parseLongMemEval([raw('q', { haystack_dates: ['2023/05/27 (Sat) 10:20'] })])).toThrow(
      /differ in length/,
    );
    expect(() => parseLongMemEval([raw('q', { question: 3 })])).toThrow(/question must be a string/);
    expect(() => parseLongMemEval([raw('q', { haystack_sessions: [[{ role: 'user' }], [], []] })])).toThrow(
      /string role and content/,
    );
  });

  it('tells the LongMemEval shape from LoCoMo', () => {
    expect(isLongMemEval([raw('q')])).toBe(true);
    expect(isLongMemEval([{ sample_id: 'conv-26', conversation: {}, qa: [] }])).toBe(false);
    expect(isLongMemEval([])).toBe(false);
    expect(isLongMemEval({ question_id: 'q', haystack_sessions: [] })).toBe(false);
  });

  const excerpt = `${REPO_ROOT}../shared/bench/data/longmemeval_oracle_excerpt_2q.json`;
  const hasExcerpt = existsSync(excerpt);
  // The excerpt is benchmark data kept outside the repository; without it the test says so.
  const why = `skipped: ${excerpt} is absent (LongMemEval data lives in ../shared/bench/data, outside the repository)`;
  if (!hasExcerpt) console.warn(`LongMemEval excerpt test ${why}`);
  it.skipIf(!hasExcerpt)(`reads the 2-question excerpt in the official schema${hasExcerpt ? '' : ` (${why})`}`, () => {
    const data = loadLongMemEval(excerpt);
    expect(data.abstention).toEqual(['gpt4_70e84552_abs']);
    expect(data.questions).toHaveLength(1);
    const [q] = data.questions;
    expect(q!.type).toBe('knowledge-update');
    expect(q!.sessions.reduce((n, s) => n + s.turns.length, 0)).toBe(24);
    expect(q!.evidence).toHaveLength(2);
    expect(q!.evidenceSessions).toEqual(['S0', 'S1']);
  });
});

describe('LongMemEval metrics', () => {
  it('recall_all is 1 only when every evidence id is in the top k', () => {
    expect(recallAllAt(['a', 'b', 'c'], ['a', 'c'], 2)).toBe(0);
    expect(recallAllAt(['a', 'b', 'c'], ['a', 'c'], 3)).toBe(1);
  });

  it('scores turns and sessions per question type, a session hit by any of its turns', async () => {
    const { questions } = parseLongMemEval([
      raw('q1'),
      raw('q2', { question_type: 'temporal-reasoning' }),
      // No evidence turns: counted at session level only.
      raw('q3', {
        question_type: 'temporal-reasoning',
        haystack_sessions: [
          [{ role: 'user', content: 'x' }],
          [{ role: 'user', content: 'y' }],
          [{ role: 'user', content: 'z' }],
        ],
      }),
      // Nothing to measure: skipped.
      raw('q4', { haystack_sessions: [[{ role: 'user', content: 'x' }], [], []], answer_session_ids: [] }),
    ]);
    // q1: a non-evidence turn of S0 first, then S1's evidence turn; q2/q3: a turn of S2 first, then S0's first turn.
    const rankings: Record<string, string[]> = {
      'question q1': ['S0:T1', 'S1:T1', 'S2:T0'],
      'question q2': ['S2:T0', 'S0:T0'],
      'question q3': ['S2:T0', 'S0:T0'],
    };
    const opened: string[] = [];
    const system: QuestionSystem = {
      async open(q) {
        opened.push(q.questionId);
        return { search: async (query) => rankings[query]!, close: async () => {} };
      },
    };
    const [r] = await evaluateLongMemEval(system, questions, ['hybrid']);
    expect(opened).toEqual(['q1', 'q2', 'q3']);
    expect(r!.overall.turn.questions).toBe(2);
    expect(r!.overall.session.questions).toBe(3);
    const ms = r!.byType['multi-session']!;
    expect(percent(ms.turn, 5)).toBe(50); // S1:T1 found, S0:T0 not
    expect(percent(ms.session, 5)).toBe(100); // S0 hit through its assistant turn
    expect(percent(ms.sessionAll, 5)).toBe(100);
    const tr = r!.byType['temporal-reasoning']!;
    expect(tr.turn.questions).toBe(1);
    expect(percent(tr.turn, 5)).toBe(50);
    expect(percent(tr.session, 5)).toBe(50); // S0 hit, S1 missed (both questions)
    expect(percent(tr.sessionAll, 5)).toBe(0);
    expect(r!.latencies).toHaveLength(3);
    const table = formatLongMemEval([r!]);
    expect(table).toContain('| hybrid | 50.0 | 50.0 | 50.0 | 66.7 | 66.7 | 66.7 | 33.3 / 33.3 / 33.3 |');
    expect(table).toContain(
      '| temporal-reasoning | 1 | 2 | hybrid | 50.0 / 50.0 / 50.0 | 50.0 / 50.0 / 50.0 | 0.0 / 0.0 / 0.0 |',
    );
  });
});
