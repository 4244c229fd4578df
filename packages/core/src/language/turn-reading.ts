import { estimateImportance } from './importance.js';
import { clauseParts, clauseText, readSentence, sentences, splitSpeaker } from './statements.js';
import { extractTopics } from './topics.js';
import type { FormationPlan, FormationTurn, FormedStatement } from '../formation/types.js';

/** What reading a turn may know beyond the turn. */
export interface ReadTurnOptions {
  /**
   * The other speaker of a two-person chat (the speaker of the turn before, when it was someone
   * else): "you …" is about them. Unknown: a statement about "you" forms nothing.
   */
  listener?: string;
}

/** What reading a turn found in a turn. */
export interface TurnReading {
  /** The speaker named by a `"Name: "` prefix, if any. */
  speaker?: string;
  /** Statements worth keeping, in order (kind `conversation` included). */
  statements: FormedStatement[];
  dropped: FormationPlan['dropped'];
  /** Base importance of the turn (`estimateImportance`), for a save that names none. */
  importance: number;
  /** Topics for the speaker's profile (`extractTopics`). */
  topics: string[];
  /** Whether the turn carries anything worth keeping in long-term memory (a statement of any kind). */
  keep: boolean;
}

/**
 * Read a turn offline: split the user's words into sentences and a sentence into its independent
 * clauses ({@link clauses}: "My name is Ada and I love hiking" is a name and a preference),
 * drop questions, greetings,
 * acknowledgements, restatements and filler, and say what each remaining statement is. A
 * sentence that continues the one before ("It was so powerful.") joins it. The assistant's
 * reply (`output`) is never read, nor is a turn whose speaker is the assistant.
 * Deterministic; no LLM.
 */
export function readTurn(
  turn: Pick<FormationTurn, 'input' | 'userId' | 'createdAt'> & { output?: string },
  options: ReadTurnOptions = {},
): TurnReading {
  const { speaker, body, assistant } = splitSpeaker(turn.input);
  const reading: TurnReading = {
    ...(speaker !== undefined ? { speaker } : {}),
    statements: [],
    dropped: [],
    importance: estimateImportance(turn.input, turn.output ?? ''),
    topics: extractTopics(turn.input),
    keep: false,
  };
  if (!body) return reading;
  if (assistant) {
    reading.dropped.push({ text: body, reason: 'restatement' });
    return reading;
  }
  const who = speaker ?? turn.userId;
  let last: FormedStatement | undefined;
  for (const part of sentences(body).flatMap(clauseParts)) {
    const clause = clauseText(part);
    const r = readSentence(clause, who, turn.createdAt, options.listener !== who ? options.listener : undefined);
    // A clause of the same sentence joins the one before with the words that joined it ("I
    // finished my first painting, and my kids love it"); a sentence of its own, with a space.
    const join = (into: FormedStatement, text: string) => {
      into.text = part.joiner
        ? `${into.text}${part.joiner}${text === clause ? part.said : text}`
        : `${into.text} ${text}`;
    };
    if ('dropped' in r) {
      // "I adopted a puppy; we love it": too little to stand alone, but part of what was said.
      if (last && part.joiner && r.dropped === 'filler') {
        join(last, r.text);
        continue;
      }
      reading.dropped.push({ text: r.text, reason: r.dropped });
      last = undefined;
      continue;
    }
    const s = { ...r.kept, about: r.kept.about ?? who } as FormedStatement;
    // "It was so powerful." continues the statement before it, kept whole with it.
    if (last && r.continuation && s.kind === 'conversation') {
      join(last, s.text);
      continue;
    }
    reading.statements.push(s);
    last = s;
  }
  // A slot filled twice in one turn ("I lived in Paris, but now I live in Lisbon"): the later
  // statement holds it; the earlier one stays a statement without the slot. One pass from the
  // end, so a long turn costs linear time.
  const filledLater = new Set<string>();
  for (let i = reading.statements.length - 1; i >= 0; i--) {
    const s = reading.statements[i]!;
    if (s.attribute === undefined) continue;
    const slot = `${s.about}\u0000${s.attribute}`;
    if (filledLater.has(slot)) {
      delete s.attribute;
      delete s.value;
    } else filledLater.add(slot);
  }
  // A date said in a clause that forms nothing ("Today turned out nice, and I finished my thesis")
  // belongs to the clause beside it that does.
  for (const [i, s] of reading.statements.entries()) {
    if (s.kind !== 'conversation' || s.at === undefined) continue;
    const near = [reading.statements[i + 1], reading.statements[i - 1]].find(
      (t) => t !== undefined && t.kind === 'event' && t.at === undefined && t.about === s.about,
    );
    if (near) near.at = s.at;
  }
  for (const s of reading.statements) if (s.kind === 'conversation') delete s.at;
  reading.keep = reading.statements.length > 0;
  // A turn that says something about someone is worth its statements, however it ends.
  if (reading.statements.some((s) => s.kind !== 'conversation'))
    reading.importance = Math.max(reading.importance, estimateImportance(turn.input, turn.output ?? '', true));
  return reading;
}
