/**
 * Loader for the LongMemEval benchmark (Wu et al., "LongMemEval: Benchmarking Chat Assistants on
 * Long-Term Interactive Memory", 2024; xiaowu0162/LongMemEval, MIT license). The data is never
 * copied into this repository: it is read from a path (see `run.ts`).
 *
 * The file is a JSON array of questions. Each question has its own haystack of dated chat
 * sessions (`[{role, content, has_answer?}]`), so each question is evaluated against a fresh
 * memory that holds its haystack only.
 */
import { readFileSync } from 'node:fs';

/** One chat turn, ready to be stored as a memory. */
export interface LongMemEvalTurn {
  /** `S<session position>:T<turn index>`, both 0-based; unique within the question's haystack. */
  id: string;
  /** Key of the turn's session: `S<session position>` (positions survive duplicate session ids). */
  sessionKey: string;
  role: string;
  /** The memory text: `"<role>: <content>"`. */
  text: string;
  /** `has_answer: true` in the data: an evidence turn. */
  hasAnswer: boolean;
}

/** One haystack session: its turns in order and its date (epoch ms, UTC). */
export interface LongMemEvalSession {
  key: string;
  /** The dataset's `haystack_session_ids` entry. */
  sessionId: string;
  dateText: string;
  timestamp: number;
  turns: LongMemEvalTurn[];
}

/** One evaluated (non-abstention) question with its haystack. */
export interface LongMemEvalQuestion {
  questionId: string;
  /** `question_type`, e.g. `knowledge-update`, `multi-session`, `temporal-reasoning`. */
  type: string;
  question: string;
  questionDate: string;
  /** `question_date` as epoch ms (UTC): the "now" of the question. */
  questionTimestamp: number;
  /** Haystack sessions in chronological order (stable for equal dates). */
  sessions: LongMemEvalSession[];
  /** Ids of the turns marked `has_answer: true` (may be empty; see {@link LongMemEvalData}). */
  evidence: string[];
  /** Keys of the haystack sessions named in `answer_session_ids`. */
  evidenceSessions: string[];
}

/** The parsed file: the evaluated questions and what was left out. */
export interface LongMemEvalData {
  questions: LongMemEvalQuestion[];
  /** Ids of abstention questions (`question_id` ending in `_abs`), which are not evaluated. */
  abstention: string[];
  /** `answer_session_ids` entries that name no session of their haystack, as `<question_id>/<session_id>`. */
  unresolvedSessions: string[];
}

const DATE_RE = /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})\s*(?:\(([A-Za-z]{3})\))?\s*(\d{1,2}):(\d{2})\s*$/;
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * Parse a LongMemEval date such as `"2023/05/20 (Sat) 02:21"` to epoch ms (UTC). The weekday is
 * optional but, when present, must match the date.
 */
export function parseLongMemEvalDate(text: string): number {
  const m = DATE_RE.exec(text);
  if (!m) throw new Error(`Unrecognised LongMemEval date: ${JSON.stringify(text)}`);
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute);
  const d = new Date(ms);
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || hour > 23 || minute > 59)
    throw new Error(`Invalid LongMemEval date: ${JSON.stringify(text)}`);
  if (m[4] && WEEKDAYS[d.getUTCDay()] !== m[4].toLowerCase())
    throw new Error(`Weekday does not match the date in ${JSON.stringify(text)}`);
  return ms;
}

/** Whether a question is an abstention question (its id ends in `_abs`). */
export function isAbstention(questionId: string): boolean {
  return questionId.endsWith('_abs');
}

interface RawTurn {
  role: string;
  content: string;
  has_answer?: boolean;
}

interface RawQuestion {
  question_id: string;
  question_type: string;
  question: string;
  question_date: string;
  haystack_dates: string[];
  haystack_session_ids: string[];
  haystack_sessions: RawTurn[][];
  answer_session_ids: string[];
}

/** Whether parsed JSON has the LongMemEval shape (an array of questions with `haystack_sessions`). */
export function isLongMemEval(data: unknown): boolean {
  if (!Array.isArray(data) || !data.length) return false;
  const first = data[0] as Partial<RawQuestion> | null;
  return (
    typeof first === 'object' &&
    first !== null &&
    typeof first.question_id === 'string' &&
    Array.isArray(first.haystack_sessions)
  );
}

function check(q: RawQuestion, i: number): void {
  const where = `LongMemEval question ${i} (${JSON.stringify(q?.question_id)})`;
  if (typeof q !== 'object' || q === null) throw new Error(`${where} is not an object`);
  for (const key of ['question_id', 'question_type', 'question', 'question_date'] as const)
    if (typeof q[key] !== 'string') throw new Error(`${where}: ${key} must be a string`);
  for (const key of ['haystack_dates', 'haystack_session_ids', 'haystack_sessions', 'answer_session_ids'] as const)
    if (!Array.isArray(q[key])) throw new Error(`${where}: ${key} must be an array`);
  const n = q.haystack_sessions.length;
  if (q.haystack_dates.length !== n || q.haystack_session_ids.length !== n)
    throw new Error(`${where}: haystack_sessions, haystack_dates and haystack_session_ids differ in length`);
}

/** Parse the dataset (the parsed JSON array of a LongMemEval file). Abstention questions are left out. */
export function parseLongMemEval(data: unknown): LongMemEvalData {
  if (!Array.isArray(data)) throw new Error('LongMemEval data must be a JSON array of questions');
  const out: LongMemEvalData = { questions: [], abstention: [], unresolvedSessions: [] };
  (data as RawQuestion[]).forEach((q, i) => {
    check(q, i);
    if (isAbstention(q.question_id)) {
      out.abstention.push(q.question_id);
      return;
    }
    const sessions = q.haystack_sessions.map<LongMemEvalSession>((raw, s) => {
      const key = `S${s}`;
      if (!Array.isArray(raw)) throw new Error(`LongMemEval ${q.question_id}: session ${s} is not an array of turns`);
      return {
        key,
        sessionId: String(q.haystack_session_ids[s]),
        dateText: String(q.haystack_dates[s]),
        timestamp: parseLongMemEvalDate(String(q.haystack_dates[s])),
        turns: raw.map((t, j) => {
          if (typeof t?.role !== 'string' || typeof t.content !== 'string')
            throw new Error(`LongMemEval ${q.question_id}: turn ${j} of session ${s} needs a string role and content`);
          return {
            id: `${key}:T${j}`,
            sessionKey: key,
            role: t.role,
            text: `${t.role}: ${t.content}`,
            hasAnswer: t.has_answer === true,
          };
        }),
      };
    });
    const wanted = new Set(q.answer_session_ids);
    const evidenceSessions = sessions.filter((s) => wanted.has(s.sessionId)).map((s) => s.key);
    const known = new Set(sessions.map((s) => s.sessionId));
    for (const id of wanted) if (!known.has(id)) out.unresolvedSessions.push(`${q.question_id}/${id}`);
    out.questions.push({
      questionId: q.question_id,
      type: q.question_type,
      question: q.question,
      questionDate: q.question_date,
      questionTimestamp: parseLongMemEvalDate(q.question_date),
      sessions: sessions
        .map((s, pos) => ({ s, pos }))
        .sort((a, b) => a.s.timestamp - b.s.timestamp || a.pos - b.pos)
        .map(({ s }) => s),
      evidence: sessions.flatMap((s) => s.turns.filter((t) => t.hasAnswer).map((t) => t.id)),
      evidenceSessions,
    });
  });
  return out;
}

/** Read and parse a LongMemEval file (e.g. `longmemeval_s_cleaned.json`) from `path`. */
export function loadLongMemEval(path: string): LongMemEvalData {
  return parseLongMemEval(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}
