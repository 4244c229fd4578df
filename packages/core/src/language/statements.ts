import { repunctuate, restoreApostrophes, shouted, typedWithoutStops } from './chat-text.js';
import { clauseKind, leavesToDoSomething, REACTION_RULES, subjectOf, withoutOpener } from './kind-rules.js';
import {
  ANSWER_HEDGE_RE,
  IT_JUDGED_HOW_RE,
  BUSY_DOING_RE,
  LIFE_STEP_IN_FEW_WORDS_RE,
  GAME_FOR_RE,
  NAMED_AS_MINE_RE,
  CAPITALISED_NOT_NAME,
  CAPTION_RE,
  SHOWN_PLAINLY,
  DEMONSTRATIVE_INSIDE_RE,
  DISCOURSE_OPENER_RE,
  EXTRAPOSED_IT_RE,
  PRONOUN_SUBJECT_RE as REFERRING_SUBJECT_RE,
  REFERRING_WORD_RE,
  FAVOURITE_QUESTION_RE,
  canBeName,
  FIRST_PERSON_RE,
  IMPLIED_SPEAKER_FUTURE_RE,
  IMPLIED_SPEAKER_PAST_RE,
  IMPLIED_SPEAKER_RE,
  JUST_NOW_RE,
  OWN_NEWS_OPENER_RE,
  THING_NAMED_FIRST_RE,
  PARTICIPLE_SUBJECT_RE,
  LISTENER_ANY_RE,
  TELLING_OPENER_RE,
  BACKGROUND_DOING_RE,
  THIRD_PRONOUN_INSIDE_RE,
  MONTH_NAMES,
  NAME,
  NAMES_ALSO_WORDS,
  LIKE_AS_IF_AFTER,
  LIKING_QUESTION_RE,
  QUESTION_OPENER_RE,
  QUESTION_REFERS_BACK_RE,
  QUESTION_OBJECT_LEFT_OUT_RE,
  REMARK_AFTER_QUESTION_RE,
  ASKING_TO_TELL_RE,
  SHOWING_WORDS_RE,
  SINCE_WE_TALKED_RE,
  FEELING_FOR_LISTENER_RE,
  WH_QUESTION_RE,
  PURE_REACTION_RE,
  OPEN_QUESTION_RE,
  YES_NO_QUESTION_RE,
  NON_ANSWER_RE,
  NOT_AN_OBJECT_RE,
  INNER_PRONOUN_RE,
  NAME_BEFORE_RE,
  OBJECT_JUDGED_RE,
  GERUND_SUBJECT_REFERS_BACK_RE,
  PERSON_BEFORE_RE,
  PLACE_BEFORE_RE,
  PLURAL_BEFORE_RE,
  OBJECT_LEFT_OUT_RE,
  OBJECT_REFERS_BACK_RE,
  PAST_EXPERIENCE_RE,
  PASSING_AILMENT,
  PAST_VERB,
  PHATIC,
  RELATION_ADJECTIVE,
  RELATIONS,
  relationFiled,
  PLURAL_RELATION_RE,
  KIN_AS_NAME,
  SAFETY_STATE,
  SAFETY_STATEMENT_RE,
  THEIR_INSIDE_RE,
  TOLD_YOU_RE,
  LASTING_CONDITIONS,
  OCCUPATIONS,
  HAS_FAMILY_OR_PET,
  ASKS_TO_BE_REMINDED_RE,
  FORGET_REQUEST_RE,
  SCHEDULED_RE,
  UNDER_WAY_PLAN_RE,
  IDENTITY_IN_FEW_WORDS_RE,
  TRAILING_REFERENT_RE,
  WE_SUBJECT_RE,
  WITH_SPEAKER_RE,
  WEEKDAY_NAMES,
  personName,
  HABITUAL_RE,
  PURPOSE_AFTER_SO_RE,
  UNNAMED_THING_QUALIFIERS,
  FEELING_ONLY_RELATIVE_RE,
  UNNAMED_THING_RE,
  WH_BEFORE_PAST_RE,
} from './lexicon.js';
import { dueDay, monthAhead, parseTimeRanges } from './time-expressions.js';
import { foldName, sameName } from './names.js';
import { STOPWORDS, stem, tokenize } from '../retrieval/text.js';
import type { FormationDropReason, FormedStatement } from '../formation/types.js';

/**
 * The rules of offline formation: read a turn as sentences, leave out what is not worth keeping
 * (questions, greetings, acknowledgements, restatements, filler) and say what each remaining
 * statement is (kind), whom it is about and which slot it fills. English patterns; any script
 * passes through intact (text is never rewritten, only split), and a statement in another
 * language is kept as `conversation` rather than dropped.
 */

/** A speaker prefix: `"Ana: …"`, `"Ana Lopes: …"` (up to three capitalised words). */
const SPEAKER_RE =
  /^\s*(\p{Lu}[\p{L}\p{M}\p{N}'’.-]{0,39}(?:[ \t]\p{Lu}[\p{L}\p{M}\p{N}'’.-]{0,39}){0,2})[ \t]*:\s*(?=\S)/u;
/** Labels that look like a speaker prefix but are not one. */
const LABELS = new Set([
  'note',
  'ps',
  'p.s.',
  'todo',
  'reminder',
  'update',
  'edit',
  'warning',
  'fyi',
  're',
  'subject',
  'question',
  'answer',
  'q',
  'a',
  'summary',
  'example',
  'nb',
  'http',
  'https',
  'tip',
  'important',
]);
/** Speakers whose words are the assistant's: never formed (a restatement must not come back as a memory). */
const ASSISTANT_RE = /^(assistant|ai|bot|system|model|chatbot|chatgpt|gpt|claude|gemini|copilot|zerda)$/i;

/** Split `input` into its speaker (when it starts with `"Name: "`) and what was said. */
export function splitSpeaker(input: string): { speaker?: string; body: string; assistant: boolean } {
  const m = SPEAKER_RE.exec(input);
  if (!m || LABELS.has(m[1]!.toLowerCase())) return { body: input.trim(), assistant: false };
  const speaker = m[1]!;
  return { speaker, body: input.slice(m[0].length).trim(), assistant: ASSISTANT_RE.test(speaker) };
}

const ABBREVIATIONS = /\b(?:mr|mrs|ms|dr|st|prof|sr|jr|vs|etc|e\.g|i\.e|approx|no)\.$/i;
/** Initials that end no sentence: "J.K." ("a quote by J.K. Rowling"), "George R." ("George R. R. Martin"). */
const INITIALS = /(?:\b(?:\p{Lu}\.){2,}|\b\p{Lu}\p{Ll}+\s+(?:\p{Lu}\.\s*)*\p{Lu}\.)$/u;

/** Sentences of `text` (terminal punctuation of any script, and line breaks). */
export function sentences(typed: string): string[] {
  // "OMG I GOT THE JOB!!!": typed in capitals throughout, read as lower case.
  const text = restoreApostrophes(shouted(typed) ? typed.toLowerCase() : typed);
  // A caption before what is said of it ("[image: a puppy on a rug] This is my new puppy") is a sentence of its own.
  // An emoji ends a sentence as "!" does ("guess what 😱 i got into grad school", "back from
  // hawaii 🌺 best trip ever"), unless what follows goes on with it ("i love 🍕 and pasta").
  const parts = text.split(
    /(?<=[.!?…。！？])["'”’)\]]*\s+|(?<=^\[image:[^\]]*\])\s+|\s*\n+\s*|(?<=\p{Extended_Pictographic}(?:\u{FE0F}|\u{200D}|\p{Emoji_Modifier}|\p{Extended_Pictographic})*)\s+(?!(?:and|or|but|with|for|to|in|on|at|of|from|&|\+)(?:\s|$)|\p{Extended_Pictographic}|\[image:)/iu,
  );
  const out: string[] = [];
  // A stretch typed without full stops ("Thanks Mel I passed the interviews last Friday I'm so
  // excited") is split where its sentences start, each with the mark it was typed without.
  const stopless = typedWithoutStops(text);
  for (const p of parts.flatMap((raw) => (raw.trim() ? repunctuate(raw.trim(), { stopless }) : []))) {
    const prev = out.at(-1);
    if (prev !== undefined && (ABBREVIATIONS.test(prev) || (INITIALS.test(prev) && /^\p{Lu}/u.test(p))))
      out[out.length - 1] = `${prev} ${p}`;
    else out.push(p);
  }
  // "Hi, I'm Jeremy, what's your name?", "I'm planning a trip to Japan in April, any
  // recommendations?": the trailing question is its own sentence.
  return out.flatMap((s) => {
    const m =
      /^(.*\S)\s*[,;–—-]\s+((?:what|when|where|who|why|how|which|do|does|did|can|could|would|will|are|is|have|has|and you|you|want|wanna|any|anything|got\s+any|thoughts|ideas|tips|suggestions|recommendations|recs|advice)\b[^,;]*\?)$/iu.exec(
        s,
      );
    if (m && m[1]!.length > 3) return [m[1]!, m[2]!];
    // "I started my own store not so long ago - pretty cool, huh?": a statement with a tag.
    const tag = TAG_QUESTION_RE.exec(s);
    return tag && tag[1]!.length > 3 ? [tag[1]!, tag[2]!] : [s];
  });
}

/** A tag question after a statement ("…, huh?", "… - pretty cool, right?", "…, isn't it?"). */
const TAG_QUESTION_RE =
  /^(.*?\S)\s*[,–—-]\s+((?:(?:pretty|so|really|super)\s+)?(?:cool|nice|great|awesome|crazy|wild|right|huh|eh|yeah|no|ya\s+know|you\s+know|(?:is|was|does|did|do|are|were|has|have)n['’]t\s+(?:it|that|this|they|there|he|she)|don['’]t\s+you\s+think|am\s+i\s+right)(?:\s*,?\s*(?:huh|eh|right|no|yeah))?\s*[?？]+)$/iu;

const INTERJECTION =
  /^(?:hi|hello|hey|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening|night|day)|oh|ah|ooh|wow|whoa|oops|whoops|yikes|ouch|ugh|phew|aww*|well|so|yeah|yes|yep|yup|no(?=\s*[,!.…;:-]|\s*$)|nope|ok|okay|sure|thanks|thank\s+you|thx|haha+|lol|hmm+|um+|uh+|(?:great|cool|nice|awesome)(?:\s+(?:shot|idea|job|pic|photo|work|news|question|point|choice|pick|catch|find|move))?|omg|btw|anyway|also|actually|same\s+here|me\s+too|no\s+worries|no\s+prob(?:lem)?|np|miss(?:ed)?\s+(?:you|ya|u)(?:\s+(?:so\s+much|too|guys))?|i\s+see(?=\s*[,!.…])|long\s+time\s+no\s+(?:see|talk|chat)|(?:absolutely|definitely|totally|exactly|indeed|agreed|true|for\s+sure|of\s+course)(?=\s*[,!]))\b(?:\s+(?:there|everyone|all|guys|again|so\s+much|a\s+lot))?[\s,!.…:;-]*/iu;
const VOCATIVE = /^\p{Lu}[\p{L}\p{M}'’-]*[,!]+\s*/u;

/**
 * The listener called by name after a greeting, typed in lower case, cut short or spelled another
 * way ("hey john long time no see", "thanks sam we're off to Canada", "definitely, cal let's grab
 * food" to Calvin, "hey mohammed" to Muhammad): the length of the name and what follows it, or 0.
 * Their first name, a spelling of it (`sameName`), or its first three letters or more; never a
 * word like "will" or "and".
 */
function listenerCalled(rest: string, listener: string | undefined): number {
  const m = /^([\p{L}\p{M}'’-]{3,})(?:[,!]+\s*|\s+)/u.exec(rest);
  if (listener === undefined || !m) return 0;
  const typed = foldName(m[1]!);
  const name = foldName(listener.split(/\s+/u)[0]!);
  if (STOPWORDS.has(typed)) return 0;
  if (typed === name) return m[0].length;
  // Spelled another way or cut short, the name is typed with its capital or is no word in its own right ("Pat", "cal").
  const called = sameName(typed, name) || name.startsWith(typed);
  return called && (/^\p{Lu}/u.test(m[1]!) || !NAMES_ALSO_WORDS.has(typed)) ? m[0].length : 0;
}

/** Leading greetings and interjections removed ("Hi Ana, I moved" → "I moved"); whether any were. */
function stripInterjections(s: string, listener?: string): { rest: string; greeted: boolean } {
  let rest = s;
  let greeted = false;
  // "jon dance is just me", "bob yoga helps me …": the listener called by name, typed in lower
  // case, before what is said to them.
  const called = /^\p{Ll}/u.test(rest) ? listenerCalled(rest, listener) : 0;
  if (called > 0 && /\S+\s+\S/u.test(rest.slice(called))) rest = rest.slice(called);
  for (let i = 0; i < 4; i++) {
    // "And BTW, I started my own store", "oh and I have a bad knee", "And in my free time, I …":
    // an "and" that opens the sentence joins it to nothing a memory keeps.
    const and = /^and\s+(?=\S+\s+\S)/iu.exec(rest);
    if (and) rest = rest.slice(and[0].length);
    // "That reminds me, …", "You won't believe it - …": an opener, left out like a greeting; also
    // after a name ("Gina, you won't believe it - …").
    const named = VOCATIVE.exec(rest);
    const afterName = named ? DISCOURSE_OPENER_RE.exec(rest.slice(named[0].length)) : null;
    if (afterName) rest = rest.slice(named![0].length);
    const m = afterName ?? INTERJECTION.exec(rest) ?? DISCOURSE_OPENER_RE.exec(rest);
    if (!m?.[0]) break;
    greeted = true;
    rest = rest.slice(m[0].length);
    const v = VOCATIVE.exec(rest);
    if (v) rest = rest.slice(v[0].length);
    else rest = rest.slice(listenerCalled(rest, listener));
  }
  return { rest: rest.trim(), greeted };
}

const ACK_RE =
  /^(?:noted|got\s+it|understood|will\s+do|sure(?:\s+thing)?|of\s+course|no\s+problem|you'?re\s+welcome|sounds\s+good|all\s+right|alright|roger|makes\s+sense|fair\s+enough|i\s+see(?=\s*(?:[,.!?…]|$))|agreed|i\s+(?:will|'ll)\s+(?:remember|keep|note)|i\s+have\s+noted|i'?ve\s+noted|okay|ok)\b/iu;
const RESTATEMENT_RE =
  /^(?:you\s+(?:told|tell|said|mentioned|shared|say)\s+(?:me\s+)?(?:that\s+)?|as\s+you\s+(?:said|mentioned)|i\s+remember\s+(?:that\s+)?you\b|if\s+i\s+remember\s+(?:correctly|right))/iu;

/** Greetings said with content words ("Nice to meet you"; "Long time no see!" is an interjection, above). */
const GREETING_IDIOM_RE =
  /^(?:(?:it'?s\s+|it’s\s+)?(?:nice|good|great|lovely)\s+to\s+(?:meet|see|hear\s+from|chat\s+with|talk\s+to)\s+you(?:\s+again|\s+too)?|how\s+(?:are|have)\s+you(?:\s+been)?|talk\s+(?:to\s+you\s+)?(?:soon|later)|see\s+you(?:\s+(?:soon|later|tomorrow|around))?|have\s+a\s+(?:good|great|nice)\s+(?:day|one|night|weekend))\b[\s\p{L},!.…]{0,12}$/iu;

/** Content words of `s`: not stopwords, not reactions. */
export function contentWords(s: string): string[] {
  return tokenize(s).filter((t) => !STOPWORDS.has(t) && !PHATIC.has(t) && t.length > 1);
}

const MY_RELATION_RE = new RegExp(
  `^(?:[Mm]y|[Oo]ur)\\s+${RELATION_ADJECTIVE}(${RELATIONS})(?:,?\\s+(${NAME}))?\\b`,
  'u',
);
/** "Ana lives in …": a capitalised subject followed by a verb that says something about them. */
const NAMED_SUBJECT_RE = new RegExp(
  `^(${NAME})\\s+(?:(?:just|recently|finally|also|still|now|really)\\s+)?(lives|moved|works|is|was|has|likes|loves|hates|prefers|enjoys|got|went|started|studies|speaks|teaches|married)\\b`,
  'u',
);
/** A relation said as a name that opens a clause, before a verb that says something of them ("Mom moved …", "dad is allergic …"). */
const KIN_SUBJECT_RE = new RegExp(
  `^(${KIN_AS_NAME})\\s+(?:(?:just|recently|finally|also|still|now|really|always)\\s+)?(?:lives|lived|moved|works|worked|is|was|has|had|likes|loves|hates|prefers|enjoys|got|started|studies|speaks|teaches|turned|can['’]?t|cannot|doesn['’]?t|does\\s+not)\\b`,
  'iu',
);
/** A name that did something for the speaker: "Anna got me a vegan stir-fry", "Raj took me to the game". */
const DONE_FOR_ME_RE = new RegExp(
  `^(?:${NAME}|(?:[Mm]y|[Oo]ur)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})(?:,?\\s+${NAME})?)\\s+(?:(?:just|recently|finally|also|even)\\s+)?(?:got|gave|bought|made|sent|brought|showed|taught|took|invited|helped|surprised|cooked|baked)\\s+me\\b`,
  'u',
);
/** A name that says something of themselves: "Lea told me she is vegan", "Raj said he's moving to Oslo". */
const SAID_OF_THEMSELVES_RE = new RegExp(
  `^(${NAME})\\s+(?:just\\s+|also\\s+)?(?:told|tells|said|says|mentioned)\\s+(?:(?:to\\s+)?me\\s+)?(?:that\\s+)?(?:she|he)\\b`,
  'u',
);
/** A capitalised word that opens a clause: its subject, when the clause states a condition or a diet of it. */
const NAMED_HEAD_RE = new RegExp(`^(${NAME})(?=\\s|['’]s\\s)`, 'u');
/** Verbs that say a capitalised subject is a person even when no one has named them before ("Raj works at …"; "Athens is …" may be a city). */
const PERSON_VERBS = new Set(
  'lives moved works likes loves hates prefers enjoys studies speaks teaches married went got started'.split(' '),
);

/** "my sister Ana", "our neighbour, Raj", "my coworker raj": a relation and the name after it. */
const RELATION_NAMING_RE = new RegExp(
  `\\b(?:[Mm]y|[Oo]ur)\\s+${RELATION_ADJECTIVE}(${RELATIONS}),?\\s+(\\p{L}[\\p{L}\\p{M}'’-]*)`,
  'gu',
);

/**
 * The other name `about` goes by in `text`, said by `speaker`: "My sister Ana lives in Lisbon" →
 * "Ann's sister". Undefined when the text names them by no relation.
 */
export function relationAlias(text: string, about: string, speaker: string): string | undefined {
  for (const m of text.matchAll(RELATION_NAMING_RE)) {
    const relation = relationFiled(m[1]!);
    if (!PLURAL_RELATION_RE.test(relation) && personName(m[2]!).toLowerCase() === about.toLowerCase())
      return `${speaker}'s ${relation}`;
  }
  return undefined;
}

/**
 * Whom a statement is about: a named or related subject, else `speaker`. A subject that includes
 * the speaker ("My wife and I went to Rome", "Ana and me …") is about the speaker, like "we":
 * it is their experience, and the other person stays in the text.
 */
function aboutOf(s: string, speaker: string, people: ReadonlySet<string>, safety = false): string {
  if (WITH_SPEAKER_RE.test(s)) return speaker;
  // "Anna got me a vegan stir-fry", "My friend gave me this bouquet": what someone did for the
  // speaker is the speaker's experience.
  if (DONE_FOR_ME_RE.test(s)) return speaker;
  const rel = MY_RELATION_RE.exec(s);
  if (rel) {
    if (rel[2]) return personName(rel[2]);
    // "my coworker raj has a phd", "my dog max is 3": the name typed in lower case, before its verb.
    const typed = RELATION_NAMED_IN_LOWER_CASE_RE.exec(s.slice(rel[0].length));
    const name = typed ? lowerCaseName(typed[1]) : undefined;
    if (name !== undefined) return name;
    return `${speaker}'s ${relationFiled(rel[1]!)}`;
  }
  // "Mom moved to Florida", "sister got a new job" ("sis" as typed): a relation said as a name.
  const kin = KIN_SUBJECT_RE.exec(s);
  if (kin) return `${speaker}'s ${relationFiled(kin[1]!)}`;
  // "Lea told me she is vegan": what someone said of themselves is theirs.
  const reported = SAID_OF_THEMSELVES_RE.exec(s);
  if (reported && canBeName(reported[1]!)) return personName(reported[1]!);
  // "Raj is diabetic", "Raj can't eat peanuts": whoever has a condition or a diet is a person.
  const named = NAMED_SUBJECT_RE.exec(s) ?? (safety ? NAMED_HEAD_RE.exec(s) : null);
  const name = named ? personName(named[1]!) : undefined;
  if (name !== undefined && canBeName(named![1]!) && (people.has(name) || PERSON_VERBS.has(named![2] ?? '') || safety))
    return name;
  // Typed in lower case: "raj is allergic to peanuts", "jake loves hiking".
  return lowerCaseSubject(s, safety) ?? speaker;
}
/**
 * The name typed in lower case that opens `s` before a verb that says it is a person ("raj is
 * allergic …" when `safety`, "jake loves hiking"), or undefined.
 */
function lowerCaseSubject(s: string, safety = false): string | undefined {
  const lower = LOWER_NAMED_SUBJECT_RE.exec(s);
  return lower && (safety || LOWER_PERSON_VERBS.has(lower[2]!)) ? lowerCaseName(lower[1]) : undefined;
}
/** After "my coworker", a name typed in lower case and the verb after it ("raj has", "max is"). */
const RELATION_NAMED_IN_LOWER_CASE_RE =
  /^,?\s+(\p{Ll}[\p{L}'’-]+),?\s+(?:(?:just|recently|finally|also|still|now|really|always)\s+)?(?:is|was|has|had|lives|lived|moved|works|worked|got|loves|likes|hates|started|studies|teaches|turned|just)\b/u;
/** A word typed in lower case that opens a clause, and the verb after it ("raj is", "jake loves"). */
const LOWER_NAMED_SUBJECT_RE =
  /^(\p{Ll}[\p{L}'’-]+)\s+(?:(?:just|recently|finally|also|still|now|really)\s+)?(\p{L}+)/u;
/** Verbs that say a subject typed in lower case is a person (not "got", "went": "school got busy"). */
const LOWER_PERSON_VERBS = new Set(
  'lives moved works likes loves hates prefers enjoys studies teaches married'.split(' '),
);

/** A relation's possessive before what is theirs ("daughter's name" → "name"). */
const RELATION_POSSESSIVE_RE = new RegExp(`^(?:${RELATION_ADJECTIVE}(?:${RELATIONS}))['’]s\\s+`, 'u');

/** A slot value: up to a clause break, without trailing time words. */
const VALUE = "([\\p{L}\\p{M}\\p{N}'’&.-]+(?:\\s+[\\p{L}\\p{M}\\p{N}'’&.-]+){0,5}?)";
const WEEKDAYS = WEEKDAY_NAMES.join('|');
/** A point or span in time: "2019", "the 90s", "May 2019", "early 2019", "the summer", "Monday", "8 May". */
const TIME_PHRASE = `(?:(?:the\\s+)?(?:early|late|mid)[- ]?\\s*)?(?:\\d{4}s?|'\\d0s|(?:the\\s+)?\\d0s|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MONTH_NAMES.join('|')})|${MONTH_NAMES.join('|')}|${WEEKDAYS}|(?:the\\s+)?(?:spring|summer|autumn|fall|winter|weekends?|mornings?|afternoon|evening|night|past|end|beginning|start|middle|pandemic|holidays)\\b)`;
/** A quantity of time: "two weeks", "a few years", "3 months". */
const DURATION =
  '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d+|a\\s+few|a\\s+couple\\s+of|few|several|some|many)\\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?)';
/**
 * How long something has gone on, said in a clause: "Been doing it for 3 years", "for about two
 * months now", "since I was 17", "since 2019", "three years now". Read as the answer to a "How
 * long …?" ({@link HOW_LONG_ASKED_RE}).
 */
const HOW_LONG_SAID_RE = new RegExp(
  `\\b(?:for\\s+(?:about\\s+|almost\\s+|over\\s+|nearly\\s+|around\\s+)?${DURATION}|since\\s+(?:i\\s+was\\b|${TIME_PHRASE}|\\d)|${DURATION}\\s+(?:now|already))`,
  'iu',
);

/** Whether a clause says how long something has gone on ({@link HOW_LONG_SAID_RE}). */
export function saysHowLong(text: string): boolean {
  return HOW_LONG_SAID_RE.test(text);
}

/**
 * Where a slot value ends: a clause break, or an adjunct that says when, how long, with whom or
 * where else ("Porto | in 2019", "| two weeks ago", "| since March", "| for three years",
 * "| with my family", "Google | in Zurich", "nurse | at the hospital"). "on" ends it only
 * before a time ("| on Monday"; "Stoke on Trent" stays whole).
 */
const STOP_VALUE = `(?=\\s*(?:\\p{Extended_Pictographic}|\\p{Regional_Indicator})|\\s+(?:and|but|because|since|so|which|who|where|when|with|as|now|for|after|before|last|this|next|recently|yesterday|today|tonight|tomorrow|ago|anymore|too|though|in|at|near|during|until|till|throughout|from|by|around|together|again|already|permanently|temporarily|earlier|later|once|twice|full[- ]time|part[- ]time|back\\s+(?:in|on|when|then)|about\\s+${DURATION}|${DURATION}\\s+(?:ago|back|earlier|later)|a\\s+while\\s+(?:ago|back)|on\\s+${TIME_PHRASE})\\b|\\s*[,.;!?…]|\\s*$)`;

export interface SlotRule {
  re: RegExp;
  attribute: string | ((m: RegExpExecArray) => string);
  kind: 'fact' | 'preference' | 'event';
  /** Group holding the value. */
  group: number;
  /** Whether the value read fills the slot (default: any non-empty value). */
  accept?: (value: string) => boolean;
  /** The slot's value from what was read (default: as read). */
  value?: (read: string) => string;
}

/** Words that may follow "call me" capitalised without being a name ("Call me Tomorrow", "Call me Monday"). */
const NOT_NAME_WORDS = new Set([
  ...MONTH_NAMES,
  ...WEEKDAYS.split('|'),
  ...'tomorrow tonight today later soon now back anytime asap sometime whenever maybe please crazy'.split(' '),
]);
/** A nationality or language rather than a name ("I'm Italian", "I'm Japanese", "I'm Finnish"). */
const NATIONALITY_RE = /(?:ian|ese|ish)$/i;

/**
 * A slot said to hold, right before it ("I don't live in Lisbon", "I no longer work at Google")
 * or right after its value ("… in Lisbon anymore"): what no longer holds fills no slot.
 */
const SLOT_DENIED_BEFORE_RE =
  /(?:\b(?:not|never|no\s+longer)|n['’]t)\s+(?:(?:really|actually|even|currently|still|yet)\s+)?$/iu;
const SLOT_DENIED_AFTER_RE = /^\s*(?:any\s*more|no\s+more|no\s+longer)\b/iu;
/** Each slot rule's pattern, global, to read past a denied match. */
const SLOT_ALL = new WeakMap<SlotRule, RegExp>();
/**
 * The first match of `slot` in `text` that is not denied: "I don't live in Lisbon anymore, I
 * moved to Berlin" fills lives-in with Berlin, "I don't live in Lisbon anymore" fills nothing
 * (consolidation reads it as a denial of the slot it names).
 */
function affirmedSlot(slot: SlotRule, text: string): RegExpExecArray | null {
  const first = slot.re.exec(text);
  if (!first || !slotDenied(text, first)) return first;
  let all = SLOT_ALL.get(slot);
  if (!all) SLOT_ALL.set(slot, (all = new RegExp(slot.re.source, `${slot.re.flags}g`)));
  all.lastIndex = first.index + first[0].length;
  for (let m = all.exec(text); m; m = all.exec(text)) if (!slotDenied(text, m)) return m;
  return null;
}
function slotDenied(text: string, m: RegExpExecArray): boolean {
  return (
    SLOT_DENIED_BEFORE_RE.test(text.slice(Math.max(0, m.index - 40), m.index)) ||
    SLOT_DENIED_AFTER_RE.test(text.slice(m.index + m[0].length))
  );
}

export const SLOTS: SlotRule[] = [
  {
    re: new RegExp(`\\bmy\\s+name(?:'s|’s|\\s+is)\\s+${VALUE}${STOP_VALUE}`, 'iu'),
    attribute: 'name',
    kind: 'fact',
    group: 1,
  },
  {
    re: new RegExp(`\\b(?:i'?m|i’m|i\\s+am)\\s+called\\s+${VALUE}${STOP_VALUE}`, 'iu'),
    attribute: 'name',
    kind: 'fact',
    group: 1,
  },
  // "Call me Ishmael": a name only when capitalised words follow ("call me after six", "call me
  // back", "call me at 5" are requests; see CALL_ME_AT_RE).
  {
    re: /(?<!\b(?:[Dd]on['’]?t|[Dd]o\s+not|[Nn]ever|[Pp]lease\s+don['’]?t)\s+)\b(?:[Cc]all|CALL)\s+me\s+(\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})(?![\p{L}\p{M}\p{N}])/u,
    attribute: 'name',
    kind: 'fact',
    group: 1,
    accept: (v) => !v.split(/\s+/u).some((w) => NOT_NAME_WORDS.has(w.toLowerCase()) || STOPWORDS.has(w.toLowerCase())),
  },
  {
    re: new RegExp(
      // "living" only after its subject or an auxiliary ("I'm living in Porto", "we've been living
      // in …"): a clause that opens with it says something of anyone ("Living in a mansion must
      // be stunning").
      `(?:\\b(?:live|lives|moved|relocated|reside|resides|based)|(?<=(?:['’]m|['’]re|\\b(?:i|we|am|are|is|was|were|been|be|currently|still|now|happily))\\s+)living)\\s+(?:back\\s+)?(?:from\\s+(?:[\\p{L}'’-]+\\s+){1,3}?(?=to\\b))?(?:in|to)\\s+(?:the\\s+)?${VALUE}${STOP_VALUE}`,
      'iu',
    ),
    attribute: 'lives in',
    kind: 'fact',
    group: 1,
  },
  {
    // Not a job lost or left ("I lost my job at Door Dash"), nor "a time that works for both of us".
    re: new RegExp(
      `(?<!\\b(?:lost|quit|left|leaving|losing|quitting|lose|leave)\\s+(?:my|his|her|their|our|a|the)\\s+)(?<!\\b(?:that|which|what|it|this)\\s+)\\b(?:work|works|working|job(?:\\s+as\\s+(?:an?\\s+)?[\\p{L}-]+(?:\\s+[\\p{L}-]+){0,2}?)?)\\s+(?:at|for)\\s+(?:the\\s+)?${VALUE}${STOP_VALUE}`,
      'iu',
    ),
    attribute: 'works at',
    kind: 'fact',
    group: 1,
  },
  {
    re: new RegExp(`\\b(?:work|works|working)\\s+as\\s+(?:an?\\s+)?${VALUE}${STOP_VALUE}`, 'iu'),
    attribute: 'works as',
    kind: 'fact',
    group: 1,
    // "… to learn something new and work as a team": how, not a job.
    accept: (v) => !COLLECTIVE_VALUE_RE.test(v),
  },
  // "Now I teach biology at a high school": a job said by its work, which supersedes "I work as a nurse".
  {
    re: new RegExp(
      `^(?:(?:now|currently|also)\\s+)?i\\s+(?:now\\s+|currently\\s+)?teach\\s+${VALUE}${STOP_VALUE}`,
      'iu',
    ),
    attribute: 'works as',
    kind: 'fact',
    group: 1,
    value: (v) => `${v.toLowerCase()} teacher`,
  },
  // "I'm a nurse", "I'm now a software engineer", "im a high school teacher": a job said as who
  // the speaker is fills the same slot ("I'm a lawyer now" supersedes "I'm a teacher"); so does
  // one said of a relation ("My sister is a nurse", "mom is a teacher"), whose slot it is.
  {
    re: new RegExp(
      `^(?:(?:so|and|well|actually|now|also)[,\\s]+)*(?:i['’]?m|i\\s+am|(?:(?:my|our)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})(?:,?\\s+[\\p{L}'’-]+)?|${KIN_AS_NAME})\\s+is)\\s+(?:now\\s+|currently\\s+|also\\s+|still\\s+)?(?:a|an)\\s+((?:[\\p{L}-]+\\s+){0,2}?(?:${OCCUPATIONS}))(?![\\p{L}'’-])`,
      'iu',
    ),
    attribute: 'works as',
    kind: 'fact',
    group: 1,
    // "I'm a big fan of …" is no job; nor "a former …", "a retired …".
    accept: (v) => !/^(?:former|retired|ex|wannabe|aspiring|bad|terrible|good|great|huge|big)\b/iu.test(v),
  },
  {
    // Not said of a thing ("The photo is from a forest near my hometown", "This recipe is from my grandma").
    re: new RegExp(
      `\\b(?:i'?m|i’m|i\\s+am|(?<!\\b(?:the|this|that|these|those|it|which|a|an)\\s+(?:[\\p{L}'’-]+\\s+)?)(?:is|are))\\s+(?:originally\\s+)?from\\s+${VALUE}${STOP_VALUE}`,
      'iu',
    ),
    attribute: 'is from',
    kind: 'fact',
    group: 1,
  },
  {
    // "I'm 34", "she is 8 years old", "I just turned 35".
    re: /\b(?:i'?m|i’m|i\s+am|is|(?:i|she|he)\s+(?:just\s+)?turned)\s+(\d{1,3})(?:\s+years?\s+old\b|\s*[.!]?\s*$|(?<=turned\s+\d{1,3})(?![\d\s]*(?:%|percent|times|points|degrees|minutes|hours|miles|km|k)\b))/iu,
    attribute: 'age',
    kind: 'fact',
    group: 1,
  },
  {
    re: new RegExp(
      `\\b(?:my|our|his|her|their)\\s+(?:all[- ]time\\s+|absolute\\s+)?fav(?:ou?rite)?\\s+([\\p{L}\\s]{2,30}?)\\s+(?:is|are|was|has\\s+to\\s+be)\\s+${VALUE}${STOP_VALUE}`,
      'iu',
    ),
    attribute: (m) => `favourite ${m[1]!.trim().toLowerCase()}`,
    kind: 'preference',
    group: 2,
    // "Watching them enjoy their favorite snacks is so fun": what is said of the favourite, not which.
    accept: (v) => !DEGREE_VALUE_RE.test(v),
  },
  {
    re: new RegExp(
      `\\b(?:my|our)\\s+((?:[\\p{L}'’-]+\\s+){0,2}(?:name|email|e-mail|phone|number|address|birthday|birthdate|anniversary|job|occupation|profession|nationality|hometown|major|username|zip\\s+code|blood\\s+type|size))\\s+(?:is|are)\\s+${VALUE}${STOP_VALUE}`,
      'iu',
    ),
    // "My daughter's name is Lily": the daughter's `name` (whom it is about says whose).
    attribute: (m) => m[1]!.trim().toLowerCase().replace(/\s+/g, ' ').replace(RELATION_POSSESSIVE_RE, ''),
    kind: 'fact',
    group: 2,
  },
  // "I'm single", "we're married", "I just got engaged to Mark!": where the speaker stands, a slot
  // the next step supersedes (a step taken is an event of its day).
  {
    re: /^(?:(?:so|and|well|actually|now|also|yeah|oh)[,\s]+)*(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+(?:now\s+|still\s+|happily\s+|newly\s+|officially\s+)?(single|married|engaged|divorced|widowed|separated)\b/iu,
    attribute: 'relationship status',
    kind: 'fact',
    group: 1,
    value: (v) => v.toLowerCase(),
  },
  {
    re: /^(?:(?:so|and|well|actually|now|also|yeah|oh|guess\s+what)[,!\s]+)*(?:i|we)\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?got\s+(married|engaged|divorced)\b/iu,
    attribute: 'relationship status',
    kind: 'event',
    group: 1,
    value: (v) => v.toLowerCase(),
  },
  // "I have two kids", "we've got three dogs now": how many, a slot a later count supersedes
  // ("I have three kids now, we just had a baby!").
  {
    re: /^(?:(?:so|and|well|actually|now|also|yeah)[,\s]+)*(?:i|we)\s+(?:now\s+)?(?:have|own|['’]ve\s+got|have\s+got)\s+(?:now\s+)?(two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+(kids|children|sons|daughters|dogs|cats|pets|siblings|brothers|sisters|grandkids|grandchildren)\b/iu,
    attribute: (m) => `number of ${m[2]!.toLowerCase() === 'kids' ? 'children' : m[2]!.toLowerCase()}`,
    kind: 'fact',
    group: 1,
    value: (v) => v.toLowerCase(),
  },
  // "I'm Jeremy": a capitalised word right after "I'm" is a name (nationalities and the like excepted).
  {
    re: /^(?:[Ii]'?m|[Ii]’m|[Ii]\s+am)\s+(\p{Lu}[\p{L}\p{M}'’-]+)(?=\s*(?:[,.!;]|$|\s+(?:and|from|by)\b))/u,
    attribute: 'name',
    kind: 'fact',
    group: 1,
    accept: (v) => !NATIONALITY_RE.test(v),
  },
];

/**
 * A cue of the future. "I got to see …" is a chance the speaker had, and "… remind me how much
 * …" a reflection: neither is one.
 */
const FUTURE_RE =
  /\b(?:i|we)\s+(?:really\s+|still\s+|also\s+)?(?:(?:need|have|ought)\s+to|must|should)\b|\b(?:i['’]ll|i\s+will|we['’]ll|we\s+will|(?:i'?m|i’m|i\s+am|we'?re|we’re)\s+(?:(?:definitely|really|totally|probably|finally|also|still|actually|seriously)\s+)?(?:going\s+to|gonna)|(?:i|we)\s+plan\s+to|(?:i|we)(?:'?m|’m|'?re|’re|\s+am|\s+are)\s+planning\s+(?:to|on|an?|our|my)|remind\s+me(?!\s+(?:how|why|what|that|so|of)\b)|don'?t\s+(?:let\s+me\s+)?forget|do\s+not\s+(?:let\s+me\s+)?forget|i\s+promised\s+to|i\s+intend\s+to)\b|\b(?:deadline|appointment|due\s+(?:on|by)|meeting\s+(?:on|at|tomorrow|next))\b/iu;
/** Words that open a clause inside another, where a cue of the future is reported, not said ("I made it to show how we should …"). */
const REPORTED_BEFORE_RE = /\b(?:how|what|why|which|who|whom|whether)\b/iu;

/**
 * What a cue of the future right after it is part of: a purpose ("a painting in my room to remind
 * me to stay true") or what someone has to do ("on top of everything I need to do"), not a plan
 * ("I want you to remind me to call mom" asks for one).
 */
const CUE_INSIDE_RE = /\b(?:(?<!\b(?:you|u)\s+)to|everything|anything|something|whatever|things|stuff)\s+$/iu;
/** After a cue of the future, what makes it no plan: negated ("I'll never forget"). */
const NOT_A_PLAN_AFTER_RE = /^\s*(?:never|not)\b/iu;

/** A cue of the future said of the clause itself: not inside what it reports, not negated ("I'll never forget"). */
function saysFuture(s: string): boolean {
  const m = FUTURE_RE.exec(s);
  if (!m) return false;
  const before = s.slice(0, m.index);
  if (REPORTED_BEFORE_RE.test(before) || CUE_INSIDE_RE.test(before)) return false;
  return !NOT_A_PLAN_AFTER_RE.test(s.slice(m.index + m[0].length));
}

/**
 * A request to be contacted at a time ("Call me after six", "Please text me tomorrow", "Call me
 * back at 5"): a task, like "remind me". Without a time ("call me back", "call me when you can"),
 * or not said as a request ("She'll call me after dinner", "He didn't call me at all"), it is not;
 * nor is where to reach the user ("You can email me at ada@example.com", "call me on +44 20 …",
 * "text me at [PHONE_1]" once masked): a contact detail, not a time.
 */
const CALL_ME_AT_RE =
  /^(?:(?:please|pls|just|so|then|you\s+can|feel\s+free\s+to)\s+)*(?:call|ring|phone|text|e-?mail|message|ping)\s+me\s+(?:back\s+)?(?:after|(?:at|on)(?!\s+all\b)(?!\s+(?:\[[A-Z_]+_\d+\]|\+|\S+@|\d[\d\s().-]{6,}))|before|around|by|this|next|tomorrow|tonight|today|in\s+(?:a|an|\d+|one|two|three|four|five|ten|twenty|thirty)\s+(?:minutes?|hours?|days?|weeks?))\b/iu;
const PAST_RE = new RegExp(
  `\\b(?:[Ii]|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|[Mm]y\\s+\\p{L}+|(?:and|&)\\s+me|(?![Ii]['’]|(?:The|This|That|It|${CAPITALISED_NOT_NAME})\\b)${NAME})\\s+(?:(?:all|just|recently|finally|also|actually|even|already|first|once)\\s+)?(?:${PAST_VERB})\\b`,
  'u',
);
const EVENT_WORDS_RE =
  /\b(?:yesterday|last\s+(?:night|week|weekend|month|year|\p{L}+day)|ago|this\s+(?:morning|afternoon|evening|past))\b/iu;
const PREFERENCE_RE = new RegExp(
  `\\b(?<who>i|we|he|she|they|and\\s+me|(?!(?:${LIKE_AS_IF_AFTER})\\b)${NAME}|my\\s+\\p{L}+)(?:['’]ve)?\\s+(?:(?:really|absolutely|just|also|still|kinda|totally|both|do|don['’]?t|do\\s+not|never|always|(?:have\\s+)?(?:started|begun|come|grown|learned|learnt)\\s+to)\\s+){0,2}(like|likes|love|loves|enjoy|enjoys|prefer|prefers|hate|hates|dislike|dislikes|adore|adores|can'?t\\s+stand|cannot\\s+stand)\\s+(.+)`,
  'giu',
);
/** A pronoun or "my …" that may like something ("I love hiking", "my kids love the beach"). */
const LIKING_PRONOUN_RE = /^(?:i|we|he|she|they|and\s+me|my\s+\p{L}+)$/iu;

/**
 * A liking said of its subject: "I love hiking", "Ana loves jazz", "my kids love the beach", "I've
 * started to enjoy running". A
 * name is one as written, capitalised ("Ana"): the case-blind pattern would take any word for one,
 * and "My team is like my second family", "We're like a family", "emotions like relief" or
 * "they'll love it" like nothing.
 */
function likingIn(typed: string): RegExpExecArray | null {
  // "jake loves hiking": a name typed in lower case likes as a capitalised one does.
  const text = lowerCaseSubject(typed) !== undefined ? typed.charAt(0).toUpperCase() + typed.slice(1) : typed;
  PREFERENCE_RE.lastIndex = 0;
  for (let m = PREFERENCE_RE.exec(text); m !== null; m = PREFERENCE_RE.exec(text)) {
    const who = m.groups!.who!;
    if (LIKING_PRONOUN_RE.test(who) || (/^\p{Lu}/u.test(who) && canBeName(who))) return m;
    PREFERENCE_RE.lastIndex = m.index + 1;
  }
  return null;
}
/**
 * The speaker a fan of something named: "I'm a big fan of jazz", "I'm totally into hiking", "I'm
 * all about healthy food", "I've always been passionate about veterans' rights". Not of what was
 * said before ("I'm really into it") nor of the listener's ("I'm a fan of your work").
 */
const FAN_RE =
  /\b(?:i'?m|i’m|i\s+am|i['’]ve\s+(?:always\s+)?been|i\s+have\s+(?:always\s+)?been)\s+(?:(?:really|so|totally|truly|super|very|pretty|quite|just|also|still|always|definitely|seriously|kinda|absolutely|deeply)\s+)*(?:a\s+)?(?:(?:big|huge|massive)\s+)?(?:fan\s+of|into|all\s+about|passionate\s+about|obsessed\s+with|drawn\s+to|hooked\s+on|crazy\s+about|keen\s+on)\s+(?!(?:it|that|this|them|those|these|you|your)\b)\S/iu;
/**
 * Whether a clause says something of the speaker's own in fewer words than a statement usually
 * needs ("I'm totally into hiking", "Dance is my passion", "I'm down for a hike", "I've been busy
 * with pottery"): a liking, a thing they are game for, or what keeps them busy, each named.
 */
export function saysOwnInFewWords(text: string): boolean {
  return (
    FAN_RE.test(text) ||
    NAMED_AS_MINE_RE.test(text) ||
    GAME_FOR_RE.test(text) ||
    BUSY_DOING_RE.test(text) ||
    LIFE_STEP_IN_FEW_WORDS_RE.test(text) ||
    IDENTITY_IN_FEW_WORDS_RE.test(text)
  );
}
const FACT_RE = new RegExp(
  `\\b(?:i'?m|i’m|i\\s+am|is)\\s+(?:${SAFETY_STATE}|married|divorced|single|engaged|retired|left-handed|right-handed|adopted|an?\\s+(?!(?:bit|little|lot|few|huge|big|fan)\\b)\\p{L}+)|\\b(?:have|own|owns|has|(?:['’]ve|have|has)\\s+got)\\s+(?:a|an|two|three|four|five|\\d+)\\s+(?!(?:lot|few|bit|blast|great|good|nice|question|feeling|chance|look|funny|quick|crazy|story|update|idea|confession|secret|surprise|favou?r|request|suggestion|problem|plan|meeting|thought|tip)\\b)(?!(?:(?:bad|terrible|nasty|little|slight|mild|splitting|killer|high|horrible|awful)\\s+)?(?:${PASSING_AILMENT})\\b)\\p{L}+|\\b(?:have|has)\\s+(?:twins|triplets)\\b|\\b${HAS_FAMILY_OR_PET}\\b|\\b(?:have|has|['’]ve\\s+got|(?:was|been|got)\\s+diagnosed\\s+with)\\s+(?:${LASTING_CONDITIONS})\\b|\\b(?:i['’]?m|i\\s+am|we['’]?re|we\\s+are)\\s+(?:not\\s+(?:[\\p{L}-]+\\s+){1,2}?any\\s*more|no\\s+longer\\s+\\p{L})|\\b(?:we['’]?re|we\\s+are|i['’]?m|i\\s+am)\\s+expecting\\s+(?:(?:a|our|my)\\s+(?:first\\s+|second\\s+|third\\s+)?(?:baby|child|kid|little\\s+one)|twins)\\b(?!\\s+(?:in|on|next|this|by|around|any|due)\\b)|\\b(?:i\\s+was|was)\\s+born\\b|\\b(?:grew|raised)\\s+up\\b|\\b(?:i|we)\\s+(?:studied|graduated|speak|speaks)\\b`,
  'iu',
);

/** Coordinators that may join two independent clauses ("…, and I …", "… but my sister …", "…; we …"). */
const COORDINATOR_RE = /(?:\s*,)?\s+(?:and|but|so|yet)\s+|\s*;\s+|,\s+(?:while|whereas)\s+/giu;
/** Adverbs that may sit between the coordinator (or a dash) and the next clause's subject ("and now I …", "- last week I …"). */
const CLAUSE_ADVERB_RE =
  /^(?:then|now|also|later|still|actually|recently|today|yesterday|last\s+(?:night|week|weekend|month|year|\p{L}+day)|this\s+(?:morning|afternoon|evening|week|weekend)|over\s+the\s+weekend|the\s+other\s+day)(?:\s*,)?\s+/iu;
/** A verb after a named or possessive subject ("my sister lives", "Ana works", "our dog is"). */
const CLAUSE_VERB = `(?:(?:just|recently|finally|also|still|now|really|never|always|often|usually)\\s+)?(?:(?:is|are|was|were|has|have|had|does|did|do|could|would|should|must)(?:n['’]?t)?|can(?:['’]?t|not)?|won['’]?t|am|will|might|may|lives|live|moves|works|work|likes|like|loves|love|hates|hate|prefers|enjoys|enjoy|studies|speaks|${PAST_VERB})\\b`;
const PRONOUN_SUBJECT_RE = /^(?:i|we)(?:['’](?:m|re|ve|d|ll))?\s+\p{L}/iu;
const POSSESSIVE_SUBJECT_RE = new RegExp(`^(?:my|our)\\s+(?:[\\p{L}'’-]+\\s+){1,3}?${CLAUSE_VERB}`, 'iu');
const NAMED_CLAUSE_RE = new RegExp(`^(${NAME})\\s+${CLAUSE_VERB}`, 'u');
/** A finite verb (a pronoun subject with a word after it, an auxiliary, a contraction). */
const FINITE_RE =
  /\b(?:i|we|you|they|he|she|it)(?:['’](?:m|re|ve|ll|d|s))?\s+(?!(?:and|or)\b)\p{L}|\b(?:am|is|are|was|were|has|have|had|does|did|can|could|will|would|should|must)\b|['’](?:m|re|ve|ll)\b/iu;
/** A noun phrase ending a clause: a name, a pronoun, or a determiner and one or two words. */
const FINAL_NOUN_PHRASE_RE = new RegExp(
  `(?:^|\\s)(?:(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Tt]he|[Aa]n?)\\s+(?:[\\p{L}'’-]+\\s+)?[\\p{L}'’-]+(?:\\s+of\\s+(?:(?:my|our|the)\\s+)?[\\p{L}'’-]+)?|${NAME}(?:\\s+${NAME})?|[Yy]ou|[Hh]e|[Ss]he|[Ww]e|[Tt]hey|[Mm]e|[Hh]im|[Tt]hem)$`,
  'u',
);
/**
 * Words after which a noun phrase starts a (reported, subordinate or coordinated) clause: "I think
 * | Ana and I …", "… on my own so | a group of friends and I teamed up".
 */
const CLAUSE_OPENERS = new Set(
  (
    'and but so or that when whenever if because since although though after before while once unless until whether ' +
    'think thought know knew hope guess believe believed said say says feel felt heard wish bet mean meant suppose sure both either neither'
  ).split(' '),
);

/** The coordinator "so" ("…, so …", "… so …"). */
const SO_RE = /^(?:\s*,)?\s+so\s+$/iu;
const AND_RE = /^(?:\s*,)?\s+and\s+$/iu;
/** ", and" after a list: "I've been gathering information, watching videos, and I even got …". */
const LIST_AND_RE = /^\s*,\s+and\s+$/iu;
/** A clause that lists, with a comma inside it: "gathering information, watching videos". */
const LIST_ITEM_RE = /\S,\s+\p{L}/u;

/** Whether `text` starts a clause with a subject of its own (`I …`, `we …`, `my sister lives …`, `Ana works …`). */
function startsOwnClause(text: string): boolean {
  const t = text.replace(CLAUSE_ADVERB_RE, '');
  if (PRONOUN_SUBJECT_RE.test(t) || POSSESSIVE_SUBJECT_RE.test(t) || TELLING_OPENER_RE.test(t)) return true;
  const named = NAMED_CLAUSE_RE.exec(t);
  return named !== null && named[1] !== 'I' && canBeName(named[1]!);
}

/** Whether `text` reads as a clause: a finite verb, a subject with its verb, or a past action. */
export function hasVerb(text: string): boolean {
  return FINITE_RE.test(text) || startsOwnClause(text) || PAST_RE.test(text);
}

/**
 * Words of time that may open a clause before its subject: "yesterday | my friends and I …",
 * "last weekend | my brother and I …", "then | my sister and I …".
 */
const OPENING_TIME_WORDS = new Set(
  'yesterday today tonight tomorrow recently lately finally then now later also once weekend week month year night morning summer winter spring autumn fall'.split(
    ' ',
  ),
);

/**
 * Whether `text` ends with the first half of a coordinated subject ("I think my sister" | "and I
 * …"): a noun phrase at the start, after a word that opens a clause, after a word of time
 * ("yesterday my friends"), or after a comma, colon or dash ("I almost forgot, my friends").
 */
function endsInSubject(text: string): boolean {
  const np = FINAL_NOUN_PHRASE_RE.exec(text);
  if (!np) return false;
  const before = text.slice(0, np.index).trim().split(/\s+/u).at(-1) ?? '';
  if (before === '' || /[,:;—–-]$/u.test(before)) return true;
  const word = before.toLowerCase();
  return CLAUSE_OPENERS.has(word) || OPENING_TIME_WORDS.has(word);
}

/** One clause of a sentence, as said, with the words that joined it to the clause before. */
export interface ClausePart {
  /** The clause as said (its first letter as written). */
  said: string;
  /** What stood between it and the clause before (", and ", " but ", "; "); empty for the first. */
  joiner: string;
}

/**
 * The independent clauses of one sentence, as said. It is split where a coordinator ("and",
 * "but", "so", "yet", ", while", ";") stands between a clause with a verb and one with its own
 * subject: `I`, `we`, `my/our <noun> <verb>`, `<Name> <verb>` ("My name is Ada and I love
 * hiking" → two). Pronouns that refer back (he, she, they, it) do not start one: such a clause
 * says nothing about anyone on its own. Noun-phrase coordination stays whole: "I love hiking and
 * skiing", "Ana and I went to Porto", "I think my sister and I will go". A question is never
 * split (it is left out whole). Each part keeps the coordinator that joined it, so a clause that
 * is joined back ("… and my kids love it") reads as it was said.
 */
export function clauseParts(sentence: string): ClausePart[] {
  const s = sentence.trim();
  if (/[?？]\s*["'”’)]*$/u.test(s)) return [{ said: s, joiner: '' }];
  const out: ClausePart[] = [];
  let start = 0;
  let joiner = '';
  for (const m of s.matchAll(COORDINATOR_RE)) {
    const left = s.slice(start, m.index).trim();
    const right = s.slice(m.index + m[0].length);
    if (!startsOwnClause(right) || !hasVerb(left) || endsInSubject(left)) continue;
    // "I wanna start a dance studio so I can teach others": why, said with what is done.
    if (SO_RE.test(m[0]) && PURPOSE_AFTER_SO_RE.test(right)) continue;
    // "I noticed they weren't acting normally, so I made an appointment": a clause whose "they" or
    // "it" the result after it goes on with stays whole with it.
    if (SO_RE.test(m[0]) && THIRD_PRONOUN_INSIDE_RE.test(left)) continue;
    // "I was playing video games and my pet slinked out of her cage": what was going on when it
    // happened stays with it. "I've been gathering information, watching videos, and I even got a
    // guide": after items with no verb of their own, the last item of a list said with its own "I"
    // is still one of the list.
    if (AND_RE.test(m[0]) && BACKGROUND_DOING_RE.test(left)) continue;
    if (LIST_AND_RE.test(m[0]) && LIST_ITEM_RE.test(left) && !hasVerb(left.slice(left.lastIndexOf(',') + 1).trim()))
      continue;
    out.push({ said: left, joiner });
    joiner = m[0];
    start = m.index + m[0].length;
  }
  out.push({ said: s.slice(start).trim(), joiner });
  return out;
}

/** A clause after a split, as a statement of its own: it starts with a capital; nothing else is rewritten. */
export function clauseText(part: ClausePart): string {
  return part.joiner ? part.said.charAt(0).toUpperCase() + part.said.slice(1) : part.said;
}

/** The independent clauses of one sentence ({@link clauseParts}), each as a statement of its own. */
export function clauses(sentence: string): string[] {
  return clauseParts(sentence).map(clauseText);
}

/**
 * A past date named in `s` (8 May 2023, yesterday, last week, last Tuesday, 3 days ago), anchored
 * at `now`: the first span `parseTimeRanges` reads that starts by `now` ("next Friday" and a
 * "this Sunday" still ahead are no past date).
 */
function pastDate(s: string, now: number): number | undefined {
  return parseTimeRanges(s, now).find((r) => r.from <= now)?.from;
}

/** A sentence read: kept (with what it is) or dropped (with why). */
export type ReadSentence =
  | {
      kept: Omit<FormedStatement, 'about'> & { about?: string };
      continuation: boolean;
      /** Its subject refers back ("It was so powerful."): kept whole with the statement before, or left as conversation. */
      refersBack?: boolean;
      /**
       * Its object is a pronoun and more follows ("I also use it to speak up for …"): what "it" is,
       * is said in a clause before it in the turn, or by the other speaker.
       */
      pronounObject?: boolean;
      /** It says "her", "them" or "there" of someone or somewhere it does not name ("I remember the smell of her dish"): right after a statement, what that statement named. */
      pronounInside?: boolean;
      /** Its subject is "we" ("We cook together every Sunday"): right after a statement, whom that statement named. */
      weSubject?: boolean;
      /**
       * Its subject is an "it" that stands for the phrase after it ("It was fun spending time with
       * my dogs"): a remark of its own, which right after a statement of the speaker's goes on with it.
       */
      extraposed?: boolean;
      /** The rule that decided its kind ({@link clauseKind}); absent for a slot or a request. */
      rule?: string;
    }
  | { dropped: FormationDropReason; text: string };

const CONTINUATION_RE = /^(?:it|it's|it’s|this|that|that's|they|they're|there|he|she|which|and|but|so|plus|also)\b/iu;

/** What reading a sentence may know of the turn it is in. */
export interface SentenceContext {
  /** A sentence before it in the turn reacted to what the other speaker showed or said. */
  afterReaction?: boolean;
  /** A statement came right before it in the turn (what "those friends" may point back at). */
  afterStatement?: boolean;
  /** It answers the other speaker's question, which the memory quotes: what its pronouns stand for is given. */
  referentGiven?: boolean;
}

/** Read one sentence of a turn said by `speaker` at `now`. */
export function readSentence(
  sentence: string,
  speaker: string,
  now: number,
  listener?: string,
  context: SentenceContext = {},
): ReadSentence {
  const people = new Set(listener !== undefined ? [speaker, listener] : [speaker]);
  let text = sentence.trim();
  // "Did I tell you I adopted a puppy?": a statement, asked.
  const told = TOLD_YOU_RE.exec(text);
  const toldRest = told ? text.slice(told[0].length).replace(/[\s?？]+$/u, '') : '';
  if (told && startsOwnClause(toldRest)) text = toldRest.charAt(0).toUpperCase() + toldRest.slice(1);
  // "Can you remind me to call the dentist tomorrow?": the request it asks, a task.
  const remind = ASKS_TO_BE_REMINDED_RE.exec(text);
  if (remind) text = `R${text.slice(remind[0].length + 1).replace(/\s*[?？]+\s*$/u, '.')}`;
  // "Please forget that I'm vegetarian": asked of the assistant (in a chat of two people, of the
  // other person, whom no memory obeys), a request to forget what it names; it forms nothing.
  const forget = listener === undefined ? FORGET_REQUEST_RE.exec(text) : null;
  if (forget) {
    const said = forget[1]!.charAt(0).toUpperCase() + forget[1]!.slice(1);
    return {
      kept: { text: said, kind: 'fact', about: aboutOf(said, speaker, people), forget: true },
      continuation: false,
    };
  }
  if (/[?？]\s*["'”’)]*$/u.test(text) || /^¿/u.test(text)) return { dropped: 'question', text };
  const { rest, greeted } = stripInterjections(text, listener);
  const stripped = rest.replace(/^[,;:–—-]+\s*/u, '');
  // What remains once a greeting is cut off starts the statement: capitalised as one.
  const body = stripped !== text && stripped ? stripped.charAt(0).toUpperCase() + stripped.slice(1) : stripped;
  if (!body) return { dropped: greeted ? 'greeting' : 'filler', text };
  if (RESTATEMENT_RE.test(body)) return { dropped: 'restatement', text };
  // "I have asthma", "I'm vegan", "Raj is diabetic": an allergy, a condition or a dietary limit of
  // the clause's subject, a fact however few its words.
  const safety = SAFETY_STATEMENT_RE.test(body);
  let about = aboutOf(body, speaker, people, safety);
  for (const slot of SLOTS) {
    const m = affirmedSlot(slot, body);
    if (!m) continue;
    const read = cleanValue(m[slot.group]!);
    const value = read && slot.value ? slot.value(read) : read;
    const attribute = typeof slot.attribute === 'string' ? slot.attribute : slot.attribute(m);
    if (!value || CLAUSE_VALUE_RE.test(value) || NOT_A_VALUE_RE.test(value) || (slot.accept && !slot.accept(value)))
      continue;
    // "They just live in the woods": whose home it is, is said elsewhere.
    if (about === speaker && SUBJECT_SLOTS.has(attribute) && PRONOUN_SLOT_SUBJECT_RE.test(body)) continue;
    // "Max is already old, he is 8 years old", "… and Ana lives in Porto": the verb's own subject,
    // right before it, is someone else (the speaker's "I'm" / "I live" is no such verb).
    if (about === speaker && SUBJECT_SLOTS.has(attribute) && othersSlot(body, m)) continue;
    // "ana moved to porto last week", "jake got a new job at google": the slot is of the person
    // named in lower case, never the speaker's.
    const named = about === speaker && SUBJECT_SLOTS.has(attribute) ? namedInLowerCase(body) : undefined;
    // When the slot came to hold its value ("I moved to Porto in 2019"): the time stays out of
    // the value and anchors the memory, as it does for an event. A date that is the value itself
    // ("My birthday is 8 May") is no such time.
    const end = m.index + m[0].length;
    const start = end - m[slot.group]!.length;
    const since = pastDate(body.slice(0, start) + body.slice(end), now);
    // "My daughter's name is Lily": she is also Lily, whom a later "Lily …" means.
    const subject = named ?? about;
    const aka = attribute === 'name' && subject !== speaker && canBeName(value) ? [personName(value)] : undefined;
    return {
      kept: {
        text: body,
        kind: slot.kind,
        about: subject,
        ...(aka ? { aka } : {}),
        attribute,
        value,
        ...(since !== undefined ? { at: since } : {}),
      },
      continuation: false,
    };
  }
  if (CALL_ME_AT_RE.test(body)) {
    const at = dueDay(body, now);
    return { kept: { text: body, kind: 'task', about, ...(at !== undefined ? { at } : {}) }, continuation: false };
  }
  const words = contentWords(body);
  if (ACK_RE.test(body) && words.length < 3) return { dropped: 'acknowledgement', text };
  if (GREETING_IDIOM_RE.test(body)) return { dropped: 'greeting', text };
  // "I'm off to do some taekwondo!" says in one word what the speaker leaves to do.
  if (words.length < 2 && !safety && !leavesToDoSomething(body) && !saysOwnInFewWords(body))
    return {
      dropped:
        greeted || /^(?:bye|goodbye|see\s+you|take\s+care|talk\s+(?:to\s+you\s+)?soon|good\s+night)\b/iu.test(body)
          ? 'greeting'
          : 'filler',
      text,
    };
  // "It's been a tough time for me since we last caught up": catching up opens what follows, it
  // goes on with nothing said before it.
  const continuation = CONTINUATION_RE.test(body) && !SINCE_WE_TALKED_RE.test(body);
  // The statement as said, without the greeting in front of it.
  text = body;
  // "I'm planning a trip to Japan in April": a month ahead of a plan is the next April.
  const futureAt = dueDay(body, now) ?? (saysFuture(body) ? monthAhead(body, now) : undefined);
  const future =
    saysFuture(body) ||
    (futureAt !== undefined &&
      (IMPLIED_SPEAKER_FUTURE_RE.test(body) || SCHEDULED_RE.test(body) || UNDER_WAY_PLAN_RE.test(body)));
  const pastAt = pastDate(body, now);
  const pref = likingIn(body);
  const subject = subjectOf(body, about !== speaker, context.afterStatement === true);
  const nounBefore = nounSaidBefore(body);
  const objectPronoun = pronounObject(body) ?? (nounBefore === 'little else' ? 'more after' : undefined);
  const { kind, rule, ahead, tags } = clauseKind({
    text: body,
    subject,
    contentWords: words.length,
    future,
    futureDate: futureAt !== undefined,
    pastDate: pastAt !== undefined,
    past:
      EVENT_WORDS_RE.test(body) ||
      pastDone(body) ||
      (IMPLIED_SPEAKER_PAST_RE.test(body) && !PARTICIPLE_SUBJECT_RE.test(body)) ||
      PAST_EXPERIENCE_RE.test(body),
    identity: FACT_RE.test(body) || IDENTITY_IN_FEW_WORDS_RE.test(body),
    safety,
    namesNothing: namesNothing(body, words),
    doneBeforePlan: doneBeforePlan(body),
    objectRefersBack: objectPronoun === 'little after',
    afterReaction: context.afterReaction === true,
    referentGiven: context.referentGiven === true,
    calledByName: listener !== undefined && callsByName(body, listener),
    liking:
      (pref !== null && contentWords(pref[3]!).length > 0 && !NOT_AN_OBJECT_RE.test(pref[3]!)) ||
      FAN_RE.test(body) ||
      NAMED_AS_MINE_RE.test(body),
  });
  if (subject === 'listener') {
    // "You …" in a two-person chat is about the other speaker; with no one known, about no one.
    if (listener === undefined) return { kept: { text, kind: 'conversation', about }, continuation };
    about = listener;
  }
  if (kind === 'continuation')
    return { kept: { text, kind: 'conversation', about }, continuation: true, refersBack: true, rule };
  // What is ahead ("Can't wait for our trip next month") takes only a future date.
  const at = ahead
    ? futureAt
    : kind === 'task'
      ? (futureAt ?? pastAt)
      : kind === 'event' || kind === 'conversation'
        ? pastAt
        : undefined;
  return {
    kept: { text, kind, about, ...(at !== undefined ? { at } : {}), ...(tags ? { tags: [...tags] } : {}) },
    continuation,
    rule,
    ...(objectPronoun === 'more after' ? { pronounObject: true } : {}),
    ...(objectPronoun === undefined && (pronounInside(body) || nounBefore === 'more') ? { pronounInside: true } : {}),
    ...(WE_SUBJECT_RE.test(body) ? { weSubject: true } : {}),
    ...(EXTRAPOSED_IT_RE.test(body) ? { extraposed: true } : {}),
  };
}

/**
 * Whether a clause says only when, besides its verb: "Started last Monday", "Finished it
 * yesterday" (the times `parseTimeRanges` reads at `now` left out, one content word at most).
 */
function saysOnlyWhen(clause: string, now: number): boolean {
  let rest = clause;
  for (const r of parseTimeRanges(clause, now)) rest = rest.replace(r.text, ' ');
  return contentWords(rest).length <= 1;
}
/** Where the first part of a clause ends: a comma, or a coordinator ("Went there last week | and loved it"). */
const HEAD_END_RE = /\s*[,;–—]\s*|\s+(?:and|but|so)\s+/u;
/**
 * Whether a clause whose "I" is left out goes on with the speaker's statement before it in the
 * turn (`before`), kept whole with it: "I started learning guitar last month. Been practicing
 * every day.", "The hike by the lake was stunning. Went there last week and loved it." `said` is
 * the clause as read at `now`. Not news of its own ({@link OWN_NEWS_OPENER_RE}: "Got some great news - …"),
 * nor a slot ("Moved to Lisbon"), nor after a reaction to what the other speaker said
 * (`beforeReacts`), nor a clause dated otherwise than `before` ("I moved in May. Yesterday got a
 * puppy"); after a remark that forms nothing, only when the remark names its thing first ({@link
 * THING_NAMED_FIRST_RE}: "It's been hectic. Been working a lot" names nothing to go on with).
 */
export function goesOnWithoutI(
  clause: string,
  said: FormedStatement,
  before: FormedStatement,
  beforeReacts: boolean,
  now: number,
): boolean {
  // "I got a new job at Google! Starting next Monday.": a verb's "-ing" form and when, nothing else.
  const whenItStarts = /^(?:(?:just|also|finally)\s+)?\p{L}{2,}ing\b/iu.test(clause) && saysOnlyWhen(clause, now);
  if (
    (!IMPLIED_SPEAKER_RE.test(clause) && !whenItStarts) ||
    PARTICIPLE_SUBJECT_RE.test(clause) ||
    OWN_NEWS_OPENER_RE.test(clause)
  )
    return false;
  // "Moved to Lisbon with my sister" fills a slot of its own: it stands alone.
  if (beforeReacts || said.kind === 'conversation' || said.attribute !== undefined || said.about !== before.about)
    return false;
  if (said.at !== undefined && before.at !== undefined && said.at !== before.at) return false;
  // "Still working on my biz. Took a short trip last week to Rome": news dated on its own is news
  // of its own, and so is news of just now after a dated statement ("I went to a festival last
  // year. Just got back from a trip"), unless its first part points back ("I love Lisbon. Went
  // there last week"; "Twisted my knee last Friday and it's really painful" says "it" of its own)
  // or it says nothing but when ("I love my new job. Started last Monday").
  const ownTime = said.at !== undefined ? before.at === undefined : before.at !== undefined && JUST_NOW_RE.test(clause);
  if (ownTime && !REFERRING_WORD_RE.test(clause.split(HEAD_END_RE, 1)[0]!) && !saysOnlyWhen(clause, now)) return false;
  return before.kind !== 'conversation' || THING_NAMED_FIRST_RE.test(before.text);
}

/**
 * Whether a clause says of something only that it is "something", "stuff" or "things", and one
 * verb besides: "Lately, I've been stumped about something", "I'm starting some big new things
 * too!". What it is, the turn says elsewhere or not at all. "I bought some stuff for my garden"
 * names it; "I'm always trying new things" says a habit.
 */
function namesNothing(text: string, words: readonly string[]): boolean {
  if (!UNNAMED_THING_RE.test(text) || HABITUAL_RE.test(text)) return false;
  // "We both have discovered something that brings us fulfillment": how it makes the speaker
  // feel names it no more ({@link FEELING_ONLY_RELATIVE_RE}).
  const said = FEELING_ONLY_RELATIVE_RE.test(text) ? contentWords(text.replace(FEELING_ONLY_RELATIVE_RE, '$1')) : words;
  return said.filter((w) => !UNNAMED_THING_QUALIFIERS.has(w)).length <= 1;
}

/** {@link PAST_RE}, every match. */
const PAST_ALL_RE = new RegExp(PAST_RE.source, 'gu');

/**
 * Whether a clause says what someone did: a past action not inside "why …" ("Gotta focus on
 * success and why I started" says what the speaker will do).
 */
function pastDone(text: string): boolean {
  for (const m of text.matchAll(PAST_ALL_RE)) if (!WH_BEFORE_PAST_RE.test(text.slice(0, m.index))) return true;
  return false;
}

/**
 * Whether a clause says what the speaker (or someone of theirs) did before its cue of the future:
 * "My exam went really well, I'll celebrate tonight" tells what happened, not something to do.
 */
function doneBeforePlan(text: string): boolean {
  const plan = FUTURE_RE.exec(text);
  if (plan === null) return false;
  // "Had a tough week and a doc's appointment, …": the "I" left out.
  if (IMPLIED_SPEAKER_PAST_RE.test(text)) return true;
  const done = PAST_RE.exec(text);
  return done !== null && done.index < plan.index;
}

/** Whether a clause ends by calling `listener` by name ("Enjoy the collaborations, Calvin!", "… is awesome, Dave!"). */
function callsByName(text: string, listener: string): boolean {
  const m = /,\s+(\p{Lu}[\p{L}\p{M}'’-]*)\s*[!.…?]*$/u.exec(text);
  return m !== null && m[1] === listener.split(/\s+/u)[0];
}

/**
 * A dash between two clauses ("… - I …", "…— we …", "they're good- we …"; not a hyphen inside a
 * word), or a comma before "I" or "we" that splices two ("It reminds me of the camera I had as a
 * kid, I took plenty of beach pics").
 */
const CLAUSE_DASH_RE =
  /\s+[-–—]+\s+|\s*(?:--|—|–)\s*|(?<=\p{L})-\s+|,\s+(?=(?:[Ii]|[Ww]e)(?:['’](?:m|ve|d|ll|re))?\s)/gu;

/** What a clause after a spliced comma may be, when the clause before it forms nothing. */
const SPLICED_KINDS: ReadonlySet<string> = new Set(['event', 'preference']);

/**
 * The first clause after a dash (or a spliced comma) in `clause` that has a subject of its own,
 * says nothing to the listener and, read alone, says something about someone ("Gina, you won't
 * believe it - I got mentored yesterday!", "It's been a rough week - I gave in and bought some
 * snacks", "Yesterday was so relaxing, we went to the lake"): what a clause that forms nothing
 * before it goes on to say. Undefined when none does.
 */
export function clauseAfterDash(
  clause: string,
  speaker: string,
  now: number,
  listener?: string,
): ReadSentence | undefined {
  for (const m of clause.matchAll(CLAUSE_DASH_RE)) {
    const tail = clause.slice(m.index + m[0].length);
    // "… - I love working on it to chill out": what "it" is, is before the dash.
    const first = tail.split(CLAUSE_DASH_RE, 1)[0]!;
    if (!startsOwnClause(tail) || LISTENER_ANY_RE.test(tail) || /\b(?:it|them)\b/iu.test(first)) continue;
    const r = readSentence(tail.charAt(0).toUpperCase() + tail.slice(1), speaker, now, listener);
    if (!('kept' in r) || r.kept.kind === 'conversation' || r.continuation || r.pronounObject) continue;
    // After a comma, only what the speaker did or likes, or a slot ("Hopefully, I can raise
    // enough", "You will succeed, I look forward to the details!" hope and promise).
    if (m[0].startsWith(',') && r.kept.attribute === undefined && !SPLICED_KINDS.has(r.kept.kind)) continue;
    return r;
  }
  return undefined;
}

/** Where the clause before a remark ends: a dash, a spliced comma, or a comma before what is said to the listener (", maybe you would like that!"). */
const HEAD_BREAK_RE = new RegExp(
  `${CLAUSE_DASH_RE.source}|,\\s+(?=(?:(?:maybe|hopefully|so|and|but|if|hope|bet)\\s+)?(?:you|your)\\b)`,
  'iu',
);

/**
 * The clause before the first dash (or spliced comma, or a comma before a remark to the listener) of `clause`, when it has a subject of its
 * own, says nothing to the listener and, read alone, says something about someone, and what
 * follows the break is what made the whole form nothing: "We played this game Catan - it's a
 * great strategy game where you build settlements", "I plan to return on July 20, I'll bring you a
 * souvenir!", "I also made a dairy-free cake the other day, maybe you would like that!". Undefined
 * when it does not.
 */
export function clauseBeforeBreak(
  clause: string,
  speaker: string,
  now: number,
  listener?: string,
): ReadSentence | undefined {
  const m = HEAD_BREAK_RE.exec(clause);
  if (m === null) return undefined;
  const head = clause.slice(0, m.index);
  if (!startsOwnClause(head) || LISTENER_ANY_RE.test(head)) return undefined;
  const r = readSentence(head, speaker, now, listener);
  // "I went there last year, you should go too!": where, is said elsewhere.
  if (!('kept' in r) || r.kept.kind === 'conversation' || r.continuation || r.pronounObject || r.pronounInside)
    return undefined;
  return r;
}

/** A word of time or condition that opens a phrase in front of a clause ("Whenever I'm …, …", "Every time we …, …"). */
const OPENING_WHEN_RE = /^(?:whenever|when|while|every\s+time|each\s+time|once|if|as\s+soon\s+as|after|before)\s+/iu;

/** Content words a clause may say before a trailing pronoun object and still be a fragment ("I even swapped numbers with a couple of them": 4). */
const MAX_WORDS_BEFORE_REFERENT = 4;

/**
 * Whether a clause's object is a pronoun said of something elsewhere ("it", "them", "there",
 * "with a few of them"), and whether little follows it ("I want to pass it on to others") or
 * more does ("I also use it to speak up for the community", "I made it in pottery class
 * yesterday").
 */
function pronounObject(s: string): 'little after' | 'more after' | undefined {
  // "Whenever I come here, I bring it with me.": the speaker's clause behind an opening phrase.
  const rest = withoutOpener(s);
  const behind = rest !== undefined && FIRST_PERSON_RE.test(rest) ? rest : undefined;
  const trailing = (t: string) => {
    const m = TRAILING_REFERENT_RE.exec(t);
    // "I stumbled upon a book from the 1900s with sketches of the people living there": a clause
    // that says this much before its "there" is no fragment.
    return m !== null && contentWords(m[0]).length <= MAX_WORDS_BEFORE_REFERENT ? m : null;
  };
  // "I'm starting next month": what is started is said elsewhere, as an "it" would be.
  if (OBJECT_LEFT_OUT_RE.test(s)) return 'little after';
  // "Taking care of it motivates me": the subject's "it" is said elsewhere; the clause says more of it.
  if (GERUND_SUBJECT_REFERS_BACK_RE.test(s)) return 'more after';
  // "I find it really rewarding": what is said after "it" is what the speaker thinks of it.
  if (OBJECT_JUDGED_RE.test(s) || (behind !== undefined && OBJECT_JUDGED_RE.test(behind))) return 'little after';
  const m =
    OBJECT_REFERS_BACK_RE.exec(s) ??
    trailing(s) ??
    (behind !== undefined ? (OBJECT_REFERS_BACK_RE.exec(behind) ?? trailing(behind)) : null);
  if (m === null) {
    // "Whenever I'm working on one, it's like I'm connecting back with myself": the pronoun is in
    // the opening phrase, what it stands for is said before; the clause after it says more.
    const opener = rest !== undefined ? s.slice(0, s.length - rest.length).replace(OPENING_WHEN_RE, '') : '';
    return opener !== s && FIRST_PERSON_RE.test(opener) && trailing(opener.replace(/,\s*$/u, '')) !== null
      ? 'more after'
      : undefined;
  }
  const after = contentWords(m.input.slice(m[0].length)).length;
  return after <= 1 ? 'little after' : 'more after';
}

/**
 * Whether a clause names something by a word that stands for a noun said before it, not as its
 * subject: "that game" ("I've heard of that game, been meaning to try it out"), "that view"
 * ("Capturing that view was amazing"), or "their" of no one it names ("Things can be tough
 * sometimes, but their support means everything to me"). It joins the speaker's statement before
 * it in the turn, which names the game or the siblings. With none, a clause that says little else
 * (`'little else'`), or says "their", forms nothing, the picture shared with it aside, as an object pronoun would;
 * one that says more (`'more'`: "I've been working on that Ford Mustang I found in a junkyard")
 * is kept.
 */
function nounSaidBefore(s: string): 'little else' | 'more' | undefined {
  const t = THEIR_INSIDE_RE.exec(s);
  const before = t !== null ? s.slice(0, t.index) : '';
  const their =
    t !== null && !PLURAL_BEFORE_RE.test(before) && !NAME_BEFORE_RE.test(before) && !THEIR_OWNER_BEFORE_RE.test(before);
  // Whose "their" is, the clause never says, however much else it says.
  if (their) return 'little else';
  if (!DEMONSTRATIVE_INSIDE_RE.test(s)) return undefined;
  return contentWords(s).length <= MAX_WORDS_WITH_NOUN_SAID_BEFORE ? 'little else' : 'more';
}
/** Whom a "their" may be of, said just before it: "others reach their potential", "a lost tourist find their way". */
const THEIR_OWNER_BEFORE_RE =
  /(?:\b(?:others|every(?:one|body)|some(?:one|body)|any(?:one|body)|each)\s+(?:[\p{L}'’-]+\s+){0,2}|\b(?:a|an)\s+(?:[\p{L}'’-]+\s+){1,3})$/iu;
/** Content words a clause with a noun said before may say and still be a fragment ("I've heard of that game, been meaning to try it out": 3). */
const MAX_WORDS_WITH_NOUN_SAID_BEFORE = 3;

/**
 * Whether a clause of the speaker's says "her", "him", "them" or "there" of someone or somewhere
 * it does not name before ("I can still remember the smell of her special dish", "Once I read a
 * book there"): what it stands for is said in a clause before it.
 */
function pronounInside(s: string): boolean {
  if (!SPEAKER_SUBJECT_NEAR_START_RE.test(s)) return false;
  const m = INNER_PRONOUN_RE.exec(s);
  if (m === null) return false;
  const before = s.slice(0, m.index);
  const word = m[1]!.toLowerCase();
  if (word === 'there') return !PLACE_BEFORE_RE.test(before);
  if (word === 'them' || word === 'their') return !PLURAL_BEFORE_RE.test(before);
  return !PERSON_BEFORE_RE.test(before) && !NAME_BEFORE_RE.test(before);
}
/** The speaker as the subject, after at most a few words in front ("Once I …", "Every morning we …"). */
const SPEAKER_SUBJECT_NEAR_START_RE = /^(?:[\p{L}'’]+,?\s+){0,3}?(?:i|we)(?:['’](?:m|ve|d|ll|re))?\s/iu;

/** A group one works in, not a job: "work as a team", "work as one". */
const COLLECTIVE_VALUE_RE = /^(?:team|group|unit|pair|couple|family|whole|one|community)$/iu;
/** A judgement, not a thing: "… is so fun", "… is really nice". */
const DEGREE_VALUE_RE =
  /^(?:so|really|very|such|super|pretty|too|quite|absolutely|totally|truly|incredibly|extremely)\b/iu;
/**
 * A slot value that names nothing: a pronoun ("works at | it"), a preposition ("favourite book |
 * of mice"), or a when or how after a verb with its place left out ("Moved in last week", "We
 * moved in together": no "lives in | last week").
 */
const NOT_A_VALUE_RE =
  /^(?:it|this|that|them|they|there|here|one|me|you|him|her|us|of|to|for|with|about|from|some|something|both|all|each|every|everyone|everybody|anyone|anybody|last|next|yesterday|today|tonight|tomorrow|recently|lately|together|already|just)\b/iu;
/** Slots said of the clause's subject (not of "me": "They call me Mary" still names the speaker). */
const SUBJECT_SLOTS = new Set(['lives in', 'works at', 'works as', 'is from', 'age']);
/** A slot verb said in the third person, subject first ("he is 8", "Ana lives in", "Max works at"). */
const THIRD_PERSON_SLOT_VERB_RE = /^(?:is|are|was|lives|resides|moved|relocated|works|worked|working|living|based)\b/iu;
/** The words right before such a verb: its subject, with adverbs between ("she now lives in"). */
const SUBJECT_BEFORE_VERB_RE =
  /(?:^|[^\p{L}\p{M}'’-])([\p{L}\p{M}'’-]+)\s+(?:(?:just|also|now|still|already|currently|originally|actually|really)\s+)*$/u;
const OTHER_PRONOUN_RE = /^(?:he|she|they|it|you)$/iu;

/**
 * Whether the slot matched by `m` is said of someone else by its own subject: a third-person verb
 * ("is", "lives", "works") right after "he" / "she" / "they" / "it" / "you" or a capitalised name.
 */
function othersSlot(body: string, m: RegExpExecArray): boolean {
  if (!THIRD_PERSON_SLOT_VERB_RE.test(m[0])) return false;
  const subject = SUBJECT_BEFORE_VERB_RE.exec(body.slice(0, m.index))?.[1];
  if (!subject) return false;
  if (OTHER_PRONOUN_RE.test(subject)) return true;
  return /^\p{Lu}\p{Ll}/u.test(subject) && canBeName(subject);
}
/**
 * A clause typed in lower case whose subject is a name ("ana moved to porto last week", "jake got
 * a new job at google"): a word that can be a name, before the verb of a slot, opening the clause.
 * Whose home or job it is, is theirs, never the speaker's. Not "just moved …", "we
 * moved …", "finally got a job …", "work got busy".
 */
const LOWER_CASE_SUBJECT_RE =
  /^(\p{Ll}[\p{L}'’-]+)\s+(?:(?:just|also|finally|recently|now|already)\s+)?(?:got|moved|relocated|is|was|works|worked|lives|lived|started|quit|left|landed|found|took|joined|turned)\b/u;
function namedInLowerCase(body: string): string | undefined {
  return lowerCaseName(LOWER_CASE_SUBJECT_RE.exec(body)?.[1]);
}
/** `w` as the name it may be when typed in lower case ("ana" → "Ana"), or undefined: no name. */
function lowerCaseName(w: string | undefined): string | undefined {
  if (
    w === undefined ||
    /ly$/u.test(w) ||
    STOPWORDS.has(w) ||
    /^(?:i|we|me|us|my|our|and|so|but|then|just|also|finally|recently|now|already|today|yesterday|work|school|life|everything|everyone|nothing|dinner|lunch|breakfast|mom|dad|mum|family)$/u.test(
      w,
    ) ||
    !canBeName(w)
  )
    return undefined;
  return personName(w.charAt(0).toUpperCase() + w.slice(1));
}

/** A slot said of a pronoun subject ("They live in the woods", "She works at it"). */
const PRONOUN_SLOT_SUBJECT_RE = /^(?:(?:just|also|now|still)\s+)?(?:they|he|she|it|you)\b/iu;

/** A value that is a clause rather than a thing ("my fav memory was | when my team won"). */
const CLAUSE_VALUE_RE = /^(?:when|where|what|how|why|who|whom|which|that|because|if|whether|while)\b/iu;

function cleanValue(v: string): string {
  return v
    .trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    .replace(/[\s,.;:!?…'"”’)]+$/u, '')
    .trim();
}

/** Comparable form of a slot value: case, diacritics, articles and punctuation ignored. */
export function normalizeValue(v: string): string {
  return tokenize(v)
    .filter((t) => t !== 'the' && t !== 'a' && t !== 'an')
    .join(' ');
}

/** A question the other speaker asked, as the answer after it reads it ({@link questionAsked}). */
export interface AskedQuestion {
  /** The question as said ("Did you go to the concert on Saturday?"). */
  text: string;
  /** The slot a "What's your favourite …?" asks the listener to fill (`'favourite board game'`). */
  favourite?: string;
  /** Whether it asks what the listener likes ("What kind of music do you listen to?", "Do you enjoy …?"). */
  liking: boolean;
  /** Whether it asks which, what, who, where or when: a phrase without a verb can answer it ("Catan!"). */
  wh: boolean;
  /**
   * Whether it asks whether the listener has ever done something ("Have you been camping
   * before?"): how often, without a verb, answers it ("Plenty of times.").
   */
  experience?: boolean;
  /**
   * Whether the turn went on after the question with a remark of its own ("Did you take advantage
   * of the skiing in Banff? Sounds like it would have been a lot of fun!"): only a reply that
   * opens with yes or no (`YES_OR_NO_FIRST_RE`: "Yeah, it was great for skiing!") answers it.
   */
  remarkAfter?: boolean;
  /**
   * What the answerer said in their own turn before that a question of few words asks of ("I
   * painted a lake sunrise last year." → "What inspired it?"), quoted with it ({@link shortQuestionAsked}).
   */
  about?: string;
}

/** A sentence that ends as a question does. */
export const QUESTION_END_RE = /[?？]\s*["'”’)]*$/u;
/** Content words a question must have to say what its answer is about ("How was it?", "And you?" say nothing). */
const MIN_QUESTION_WORDS = 2;
/**
 * Content words the sentence before a question that refers back must have to be quoted with it:
 * one names what "it" is ("That plate is awesome! Did you make it?"); the two together must still
 * have {@link MIN_QUESTION_WORDS}.
 */
const MIN_BEFORE_QUESTION_WORDS = 1;

/**
 * The question a turn ends with, when it says what it asks about: the referent of an answer
 * after it ("Did you go to the concert?" → "Yes, it was amazing"). A question of fewer than two
 * content words gives none. A turn that goes on after its question (a picture's caption aside)
 * gives its last question only when that asks yes or no ({@link YES_NO_QUESTION_RE}), marked
 * {@link AskedQuestion.remarkAfter}: "Did you join in? Looks like fun!" → "Yes, I did. It was amazing!".
 */
export function questionAsked(said: string): AskedQuestion | undefined {
  const all = sentences(said).filter((s) => !CAPTION_RE.test(s));
  // "Have you ever tried skiing? It looks like loads of fun!": a remark on what the question
  // asked about, or a request to tell ("Tell me all about it!"), after it, leaves the question
  // the one to answer.
  const said_ =
    all.length >= 2 &&
    !QUESTION_END_RE.test(all.at(-1)!) &&
    QUESTION_END_RE.test(all.at(-2)!) &&
    (REMARK_AFTER_QUESTION_RE.test(all.at(-1)!) || ASKING_TO_TELL_RE.test(all.at(-1)!))
      ? all.slice(0, -1)
      : all;
  if (said_.length > 0 && !QUESTION_END_RE.test(said_.at(-1)!)) {
    const at = said_.findLastIndex((s) => QUESTION_END_RE.test(s));
    const asked = at >= 0 && YES_NO_QUESTION_RE.test(said_[at]!) ? lastQuestion(said_.slice(0, at + 1)) : undefined;
    return asked !== undefined ? { ...asked, remarkAfter: true } : undefined;
  }
  return lastQuestion(said_);
}

/** The question `said` (sentences, no caption) ends with, read as {@link questionAsked} reads it. */
function lastQuestion(said_: readonly string[]): AskedQuestion | undefined {
  const last = said_.at(-1);
  if (last === undefined || !QUESTION_END_RE.test(last) || !QUESTION_OPENER_RE.test(last)) return undefined;
  // "That whiteboard's got a bunch of good ideas! How have you been using it?": what the question
  // refers back to is said in the sentence before it, quoted with it.
  // "Congrats on getting your dream job. I'm so happy for you. When do you start?": what is
  // started, the sentence before that names it says (a feeling for the listener names nothing).
  const leftOut = QUESTION_OBJECT_LEFT_OUT_RE.test(last);
  const before = leftOut ? said_.slice(0, -1).findLast((t) => !FEELING_FOR_LISTENER_RE.test(t)) : said_.at(-2);
  const named =
    before !== undefined &&
    (QUESTION_REFERS_BACK_RE.test(last) || leftOut) &&
    !QUESTION_END_RE.test(before) &&
    // Names said in passing ("Wow, John!") name nothing the question is about.
    contentWords(before.replace(/\b\p{Lu}[\p{L}\p{M}'’-]*/gu, ' ')).length >= MIN_BEFORE_QUESTION_WORDS;
  const text = named ? `${before} ${last}` : last;
  // "Have you been camping before?" names in one word what it asks the listener to have done.
  const experience = EXPERIENCE_QUESTION_RE.test(last);
  if (contentWords(text).length < (experience ? 1 : MIN_QUESTION_WORDS)) return undefined;
  const fav = FAVOURITE_QUESTION_RE.exec(last);
  return {
    text,
    liking: LIKING_QUESTION_RE.test(last),
    wh: WH_QUESTION_RE.test(last),
    ...(experience ? { experience: true } : {}),
    ...(fav ? { favourite: `favourite ${fav[1]!.trim().toLowerCase().replace(/\s+/g, ' ')}` } : {}),
  };
}

/** Content words a question may have and still say too little of what it asks about: "Which one?", "What inspired it?" (1). */
const MAX_SHORT_QUESTION_WORDS = 2;

/**
 * The question of few words a turn ends with ("Which one?", "How so?", "What inspired it?",
 * "Who was the headliner?"), which {@link questionAsked} leaves out: it asks of what the listener
 * said before, and an answer after it is read with that. Not one that asks yes or no ("Did you
 * celebrate?": the answer says what it is of), nor one that asks how the listener is, what is
 * new, or for advice ({@link OPEN_QUESTION_RE}); undefined also when the turn goes on after it.
 */
export function shortQuestionAsked(said: string): AskedQuestion | undefined {
  const last = sentences(said)
    .filter((s) => !CAPTION_RE.test(s))
    .at(-1)
    ?.trim();
  if (
    last === undefined ||
    !QUESTION_END_RE.test(last) ||
    !QUESTION_OPENER_RE.test(last) ||
    YES_NO_QUESTION_RE.test(last) ||
    OPEN_QUESTION_RE.test(last) ||
    contentWords(last).length > MAX_SHORT_QUESTION_WORDS
  )
    return undefined;
  return { text: last, liking: LIKING_QUESTION_RE.test(last), wh: WH_QUESTION_RE.test(last) };
}

/** The rules that show a picture ("Take a look at this cool Disney poster!", "Here's a pic from my hike"). */
const SHOWING_RULES: ReadonlySet<string> = new Set(['pointing', 'showing']);
/** Content words a remark must have to name what a reply to it refers to ("I started yoga last month": 3; "That's awesome!" names nothing). */
const MIN_REMARK_WORDS = 2;
/** Content words a remark that also says "it", "that" … must have ("I started yoga, it's great for my back": 4; "I'd love to learn how you do it": 2). */
const MIN_REMARK_WORDS_WITH_REFERRING_WORD = 3;

/**
 * What the other speaker's turn said that a reply after it may refer to: its last sentence that
 * says something of its own ("I started yoga last month, it's been great for my back" →
 * "It helped me a lot with my back pain too"), not a question, a caption, a greeting, a reaction
 * ("That's awesome!"), a wish ("Let's work together on it") nor a sentence whose subject refers
 * back itself ("It was so cute!": the sentence before it is the one that names it). `speaker` is who said it; `listener`, whom it was said to.
 * Undefined when no sentence of the turn names anything.
 */
export function remarkMade(said: string, speaker: string, listener: string, now: number): string | undefined {
  const all = sentences(said);
  const sharesPicture = all.some((s) => CAPTION_RE.test(s));
  for (const sentence of all.reverse()) {
    // "Mm, yum!", "Thanks for the support.": a reaction names nothing a reply refers to.
    if (CAPTION_RE.test(sentence) || QUESTION_END_RE.test(sentence) || PURE_REACTION_RE.test(sentence.trim())) continue;
    const r = readSentence(sentence, speaker, now, listener);
    if ('dropped' in r || r.refersBack) continue;
    // "Take a look at this cool Disney poster! [image: …]": the sentence that shows the picture,
    // when it says what the picture is, is what a reply to the picture replies to.
    if (sharesPicture && r.rule !== undefined && SHOWING_RULES.has(r.rule)) {
      if (contentWords(r.kept.text.replace(SHOWING_WORDS_RE, ' ')).length >= MIN_REMARK_WORDS) return sentence.trim();
      continue;
    }
    if (
      // "It's so cool how gaming can bring people together": the "how" clause names what "it" is.
      (REFERRING_SUBJECT_RE.test(r.kept.text) && !IT_JUDGED_HOW_RE.test(r.kept.text)) ||
      (r.rule !== undefined && (REACTION_RULES.has(r.rule) || r.rule === 'wish'))
    )
      continue;
    // "I'd love to learn how you do it": a sentence that says "it" or "that" of what it does not
    // name needs a word more to name something.
    const least = REFERRING_WORD_RE.test(r.kept.text) ? MIN_REMARK_WORDS_WITH_REFERRING_WORD : MIN_REMARK_WORDS;
    if (contentWords(r.kept.text).length < least) continue;
    return sentence.trim();
  }
  return undefined;
}

/** How many content words (stemmed) `b` shares with `a` ("His name's Ned" and "what's their name?": 1). */
export function sharedWords(a: string, b: string): number {
  const stems = new Set(contentWords(a).map(stem));
  return contentWords(b).filter((w) => stems.has(stem(w))).length;
}

/**
 * The question asked in the middle of the other speaker's turn that a reply answers, when the
 * turn goes on to say something else ("Your pup is so cute, remind me what's their name? I've been
 * helping my siblings with programming." → "His name's Ned"): the last question of `said` that
 * shares a word with `reply` ({@link sharedWords}), and as many as the sentence it would be quoted
 * instead of (`least`): a reply answers before it remarks. Undefined when none does.
 */
export function questionAnswered(said: string, reply: string, least: number): string | undefined {
  return sentences(said)
    .findLast((s) => QUESTION_END_RE.test(s) && !CAPTION_RE.test(s) && sharedWords(s, reply) >= Math.max(1, least))
    ?.trim();
}

/** "Have you (ever) been …?", "Have you tried …?": whether the listener has done something. */
const EXPERIENCE_QUESTION_RE =
  /^(?:(?:so|and|but|oh|ok|okay|well|also|btw|hey)[,\s]+|[\p{L}'’-]+,\s+)*have\s+(?:you|u|ya)\s+(?:ever\s+|already\s+)?(?:been|\p{L}+(?:ed|en|wn|ne|ght|ung|ook|ot|ade|ad|id|one|ied))\b/iu;
/** How often something was done, said without a verb: "Plenty of times", "A few times", "Twice", "Once, in Peru". */
export const HOW_OFTEN_RE =
  /^(?:(?:yes|yeah|yep|yup|sure|oh\s+yeah|definitely|absolutely|totally)[\s,!.]+)*(?:(?:plenty|lots|loads|tons|a\s+bunch|a\s+couple)\s+of\s+times|(?:a\s+few|a\s+couple|several|many|so\s+many|countless|a\s+dozen|two|three|four|five|six|ten|\d+)\s+times|once|twice|every\s+(?:year|summer|winter|week|weekend|month))\b/iu;

/** Words an answer without a verb may have ("Mostly old punk rock from the eighties": 6). */
const MAX_ANSWER_WORDS = 6;
/** A verb contracted onto its subject ("photo's", "they're"): a clause, not a phrase. */
const CONTRACTED_VERB_RE = /\p{L}['’](?:s|re|m|ve|ll|d)\b/iu;

/**
 * What a clause without a verb answers ("Definitely Catan!" → "Catan", "Mostly old punk rock." →
 * "old punk rock"), read as the answer to a question before it; undefined when the clause has a
 * verb, says nothing ("Thanks!", "Yes!") or declines ("No idea!", "Good question!").
 */
export function ellipticAnswer(clause: string): string | undefined {
  const answer = cleanValue(clause.trim().replace(ANSWER_HEDGE_RE, ''));
  // "That photo's amazing!", "Looks yummy!": a verb the clause readers do not list, in a reaction.
  if (!answer || hasVerb(answer) || CONTRACTED_VERB_RE.test(answer) || answer.split(/\s+/u).length > MAX_ANSWER_WORDS)
    return undefined;
  if (!answer || NON_ANSWER_RE.test(answer) || contentWords(answer).length === 0) return undefined;
  return answer;
}

/**
 * A clause that points at a picture, said plainly: what the speaker did or has ("Here's a pic of a
 * cake I made recently!" → "I made a cake recently!"), by the first row of `SHOWN_PLAINLY` that
 * reads it; undefined when none does (the clause keeps its words).
 */
export function shownPlainly(clause: string): string | undefined {
  const text = clause.trim();
  for (const row of SHOWN_PLAINLY) {
    const m = row.re.exec(text);
    if (m) return row.plain(m);
  }
  return undefined;
}
