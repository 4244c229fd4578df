/**
 * Loader for the LoCoMo long-term conversational memory benchmark (Maharana et al., ACL 2024;
 * snap-research/LoCoMo, data licensed CC BY-NC 4.0). The data is never copied into this
 * repository: it is read from a path (see `run.ts`).
 */
import { readFileSync } from 'node:fs';
import { MONTH_NAMES } from '../../../packages/core/src/language/lexicon.js';

/** One dialogue turn, ready to be stored as a memory. */
export interface LocomoTurn {
  /** `D<session>:<turn>`, normalised (no leading zeros). */
  diaId: string;
  session: number;
  speaker: string;
  /** The memory text: `"<speaker>: <text>"` plus `" [image: <blip_caption>]"` when an image was shared. */
  text: string;
}

/** One session: its turns in order and its date (epoch ms, UTC). */
export interface LocomoSession {
  number: number;
  dateText: string;
  timestamp: number;
  turns: LocomoTurn[];
}

/** One evaluated question. */
export interface LocomoQuestion {
  question: string;
  /** 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop (5, adversarial, is never loaded). */
  category: 1 | 2 | 3 | 4;
  /** Evidence turn ids after repair, each resolving to a turn of the conversation. */
  evidence: string[];
}

/** One conversation with its sessions (in order) and its evaluated questions. */
export interface LocomoConversation {
  sampleId: string;
  speakers: [string, string];
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  /** Evidence references that name no turn of the conversation (dropped from `evidence`). */
  unresolved: string[];
}

/** Category names, as fixed by the dataset README's totals. */
export const CATEGORY_NAMES: Readonly<Record<1 | 2 | 3 | 4, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

const DATE_RE = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i;

/** Parse a LoCoMo session date such as `"1:56 pm on 8 May, 2023"` to epoch ms (UTC). */
export function parseSessionDate(text: string): number {
  const m = DATE_RE.exec(text);
  if (!m) throw new Error(`Unrecognised LoCoMo session date: ${JSON.stringify(text)}`);
  const month = MONTH_NAMES.indexOf(m[5]!.toLowerCase());
  if (month < 0) throw new Error(`Unrecognised month in LoCoMo session date: ${JSON.stringify(text)}`);
  let hour = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === 'pm') hour += 12;
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/**
 * Split and normalise one raw evidence string into `D<s>:<t>` ids. Handles the malformed forms
 * found in the file: several ids joined by `;` or spaces (`"D8:6; D9:17"`), a stray colon
 * (`"D:11:26"`), leading zeros (`"D30:05"`). What cannot be read (`"D"`) yields nothing.
 */
export function repairEvidence(raw: string): string[] {
  const out: string[] = [];
  for (const m of raw.matchAll(/D:?(\d+):(\d+)/g)) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  return out;
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: { question: string; category: number; evidence?: string[] }[];
}

/** The memory text of a turn, exactly as the protocol defines it. */
export function turnText(turn: { speaker: string; text: string; blip_caption?: string }): string {
  const caption = turn.blip_caption?.trim();
  return `${turn.speaker}: ${turn.text}${caption ? ` [image: ${caption}]` : ''}`;
}

/** Parse the dataset (the parsed JSON array of `locomo10.json`). */
export function parseLocomo(data: unknown): LocomoConversation[] {
  if (!Array.isArray(data)) throw new Error('LoCoMo data must be a JSON array of conversations');
  return (data as RawSample[]).map((sample) => {
    const conv = sample.conversation;
    // conv-26 has more *_date_time keys than sessions: count sessions by their turn arrays.
    const numbers = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const known = new Set<string>();
    const sessions: LocomoSession[] = numbers.map((n) => {
      const dateText = String(conv[`session_${n}_date_time`]);
      const turns = (conv[`session_${n}`] as RawTurn[]).map((t) => {
        const [diaId] = repairEvidence(t.dia_id);
        if (!diaId) throw new Error(`Bad dia_id ${t.dia_id} in ${sample.sample_id}`);
        known.add(diaId);
        return { diaId, session: n, speaker: t.speaker, text: turnText(t) };
      });
      return { number: n, dateText, timestamp: parseSessionDate(dateText), turns };
    });
    const unresolved: string[] = [];
    const questions: LocomoQuestion[] = [];
    for (const q of sample.qa) {
      if (q.category < 1 || q.category > 4) continue;
      const ids = [
        ...new Set(
          (q.evidence ?? []).flatMap((raw) => {
            const ids = repairEvidence(raw);
            if (!ids.length) unresolved.push(raw);
            return ids;
          }),
        ),
      ];
      const evidence = ids.filter((id) => {
        if (known.has(id)) return true;
        unresolved.push(id);
        return false;
      });
      if (!evidence.length) continue;
      questions.push({ question: q.question, category: q.category as 1 | 2 | 3 | 4, evidence });
    }
    return {
      sampleId: sample.sample_id,
      speakers: [conv.speaker_a, conv.speaker_b],
      sessions,
      questions,
      unresolved,
    };
  });
}

/** Read and parse `locomo10.json` from `path`. */
export function loadLocomo(path: string): LocomoConversation[] {
  return parseLocomo(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}
