import { estimateImportance } from './importance.js';
import { ANNOUNCING_RULES, announcesOnly, REACTION_RULES, WEAK_REPLY_RULES } from './kind-rules.js';
import {
  CAPTION_OF_OWN_RE,
  CAPTION_RE,
  DEFINED_BY_THE_SPEAKER_RE,
  DEFINITE_NOUN_RE,
  FIRST_PERSON_RE,
  FOR_ING_FRAGMENT_RE,
  FRAMING_OPENER_RE,
  IT_JUDGED_RE,
  IT_MAY_BE_PICTURED_RE,
  JUDGED_ACTIVITY_RE,
  LIKING_IT_RE,
  LISTENER_ANY_RE,
  LISTENER_POSSESSIVE_RE,
  MY_RE,
  NAME_EXCLAIMED_RE,
  canBeName,
  NAME,
  personName,
  PLURAL_RELATION_RE,
  RELATION_ADJECTIVE,
  RELATIONS,
  relationFiled,
  NAMED_BEFORE_RE,
  OPINION_RE,
  POINTED_NOUN_RE,
  POINTING_RE,
  PRAISE_RE,
  REFERENT_DID_RE,
  HOW_LONG_ASKED_RE,
  REFERRING_WORD_RE,
  SHOWN_OR_THANKS_RE,
  SIMILE_RE,
  SINGULAR_SPEAKER_RE,
  SPEAKER_ANY_RE,
  SPEAKERS_THING_RE,
  THE_PICTURE_RE,
  THIS_THING_RE,
  THIS_THING_SUBJECT_RE,
  THIS_ALONE_RE,
  THIS_OBJECT_RE,
  THING_LIKE_THIS_RE,
  THIS_ONE_SUBJECT_RE,
  // "They" for the speaker's own named before
  CAPTION_HEAD_END_RE,
  NOT_A_REFERENT_OF_THEY_RE,
  PLURAL_NAMED_RE,
  PLURAL_PRONOUN_RE,
  REPLY_PRONOUN_RE,
  OWN_PLURAL_RE,
  LISTENERS_PLURAL_RE,
  THEY_MAY_STAND_FOR_RE,
  THEY_SAID_RE,
  THING_NAMED_FIRST_RE,
  THEY_SUBJECT_RE,
  HE_OR_SHE_SUBJECT_RE,
  HE_RELATIONS,
  SHE_RELATIONS,
  YES_OR_NO_FIRST_RE,
  YOURS_RE,
} from './lexicon.js';
import {
  type AskedQuestion,
  clauseAfterDash,
  clauseBeforeBreak,
  clauseParts,
  clauseText,
  contentWords,
  ellipticAnswer,
  goesOnWithoutI,
  HOW_OFTEN_RE,
  hasVerb,
  questionAnswered,
  questionAsked,
  QUESTION_END_RE,
  readSentence,
  relationAlias,
  saysHowLong,
  remarkMade,
  sentences,
  sharedWords,
  shortQuestionAsked,
  shownPlainly,
  splitSpeaker,
} from './statements.js';
import { extractTopics } from './topics.js';
import { stem } from '../retrieval/text.js';
import type { FormationPlan, FormationTurn, FormedStatement } from '../formation/types.js';

/**
 * Whether a statement can be what a "we" after it stands for: one the speaker made about
 * themselves or their own ("My kids are so excited about summer break!" | "We're thinking about
 * going camping"), not a remark about the listener or the world ("Bet the atmosphere was
 * incredible!" | "We went to the beach").
 */
function namesTheSpeakersOwn(s: FormedStatement): boolean {
  return s.kind !== 'conversation' || (SPEAKER_ANY_RE.test(s.text) && !LISTENER_ANY_RE.test(s.text));
}

/** Rules that read a statement as about no one in particular ("Flowers bring joy.", "This support network has been amazing."). */
const ABOUT_NO_ONE_RULES: ReadonlySet<string> = new Set(['generic', 'none']);
/** A clause that shows, or says "this …", in more words than this says enough of its own: it takes no caption. */
const MAX_WORDS_WITH_CAPTION = 12;
/** "it" / "them" in what a picture shows, before its caption: what the statement before named ("Check it out", "Here it is" name nothing). */
const SHOWN_IT_RE = /^(?:(?!\[image:).)*?(?<!\b(?:check|here)\s+)\b(?:it|them)\b(?!\s+(?:out|is)\b)/iu;
/**
 * The rules that show or point at something ("Here's a photo I took at the marathon", "Check out
 * my new workbench"): in a turn that shares a picture, what they show is its caption, kept with
 * the statement they form or join; so does where it is from ("These are from my trip to Peru").
 * "This is my new puppy" names what it shows: no caption.
 */
const PICTURE_RULES: ReadonlySet<string> = new Set([
  'showing what the speaker did',
  'what the picture is from',
  "showing the speaker's own",
  'pointing',
  'showing',
  // Coverage 3
  "showing the speaker's own, briefly",
  "introducing someone of the speaker's by name",
  'showing what the speaker is doing',
  'showing when the speaker did something',
]);

/** The rules that point at a picture and name nothing it shows ("Take a look at this!", "Here it is"). */
const POINTING_ONLY_RULES: ReadonlySet<string> = new Set(['pointing', 'showing']);

/**
 * What pointing that names nothing ("Take a look at this!", "Look at this!") shares, when the
 * picture's caption shows the speaker or theirs ("[image: me crossing the finish line]",
 * "[image: a photo of my new puppy]"): what the speaker did (an event) or has (a fact), said from
 * the caption. Undefined for any other picture ("[image: a sunset]" is no one's), or one `said` already shares.
 */
function sharedOwnPicture(
  caption: string | undefined,
  who: string,
  said: readonly FormedStatement[],
): FormedStatement | undefined {
  const own = caption !== undefined ? CAPTION_OF_OWN_RE.exec(caption) : null;
  const text = `Shared a picture of ${own?.[1]?.trim()}`;
  // Pointed at twice ("Look at this! Here it is!"): one memory.
  if (own === null || said.some((t) => t.text === text)) return undefined;
  return {
    text,
    kind: /^(?:me|us)$/iu.test(own[2]!) ? 'event' : 'fact',
    about: who,
  };
}

/** Whether a clause says something is the speaker's ("my", "mine") and not the listener's: "They were part of my wedding decor". */
function saysTheSpeakersOwn(text: string): boolean {
  return MY_RE.test(text) && !LISTENER_ANY_RE.test(text);
}

/**
 * Whether a remark and what follows it react to what the other speaker showed or offered ("That
 * pic is gorgeous! It really brightens my day", "That dessert looks amazing. I'll have to try
 * it") or thank them ("Appreciate the help. …", "For the support, John! …"): not the speaker's own.
 */
function remarksOnWhatWasShown(remark: string, next: string): boolean {
  return (
    SHOWN_OR_THANKS_RE.test(remark) ||
    SHOWN_OR_THANKS_RE.test(next) ||
    FRAMING_OPENER_RE.test(remark) ||
    OPINION_RE.test(remark) ||
    FOR_ING_FRAGMENT_RE.test(next)
  );
}

/** What reading a turn may know beyond the turn. */
export interface ReadTurnOptions {
  /**
   * The other speaker of a two-person chat (the speaker of the turn before, when it was someone
   * else): "you …" is about them. Unknown: a statement about "you" forms nothing.
   */
  listener?: string;
  /**
   * The turn before this one in the conversation, as stored (`"Ana: …"`, and the assistant's
   * reply to it, if any). Whoever spoke it (or the assistant, in a chat without speaker names)
   * may have asked what this turn answers: "Did you go to the concert?" → "Yes, it was amazing".
   * In a chat of named speakers, its speaker is also the `listener` when none is given.
   */
  previous?: { input: string; output?: string };
  /**
   * The turns before `previous`, as stored, newest first (a few at most): in a chat of named
   * speakers, the speaker's own turns before the other speaker's reply, where what a "they" first
   * in this turn stands for may be named ("Last Friday I took my fur kids to the pet salon" →
   * "They absolutely adore it!"). Read only as far as needed, and perhaps more than once: an
   * iterable whose iterator is a generator lets the caller prepare each turn only when it is read.
   */
  earlier?: Iterable<{ input: string; output?: string }>;
}

/**
 * What a "they" first in a turn may stand for when nothing before it in the turn says: something
 * of the speaker's, in the plural, named in the speaker's own turn before the other speaker's
 * ({@link OWN_PLURAL_RE}: "my fur kids"), the last one it names. A turn of the speaker's that
 * names none but says "they" or "them" itself goes on talking of the same, so the speaker's turn
 * before that is read as well. None when the turn before is someone else's, or names nothing of the kind.
 */
function ownPluralBefore(earlier: ReadTurnOptions['earlier'], speaker: string | undefined): string | undefined {
  if (earlier === undefined || speaker === undefined) return undefined;
  for (const turn of earlier) {
    const before = splitSpeaker(turn.input);
    if (before.assistant) return undefined;
    if (before.speaker !== speaker) continue;
    const last = [...before.body.matchAll(OWN_PLURAL_RE)].map((m) => m[0]).at(-1);
    if (last !== undefined) return NOT_A_REFERENT_OF_THEY_RE.test(last) ? undefined : last.toLowerCase();
    if (!THEY_SAID_RE.test(before.body)) return undefined;
  }
  return undefined;
}

/**
 * What a "they" first in the speaker's turn may stand for when the other speaker's turn just
 * before named it as the listener's, in the plural ("It's great that you care so much about your
 * pets!" → "They are the source of my joy"): the speaker's own, "my pets". The last one it names;
 * undefined when it names none, or only thoughts, plans or times ({@link NOT_A_REFERENT_OF_THEY_RE}).
 */
function listenersPluralBefore(previous: ReadTurnOptions['previous'], speaker: string | undefined): string | undefined {
  if (previous === undefined || speaker === undefined) return undefined;
  const before = splitSpeaker(previous.input);
  if (before.assistant || before.speaker === undefined || before.speaker === speaker) return undefined;
  const last = [...before.body.matchAll(LISTENERS_PLURAL_RE)].map((m) => m[1]!).at(-1);
  return last === undefined || NOT_A_REFERENT_OF_THEY_RE.test(last) ? undefined : `my ${last.toLowerCase()}`;
}

/**
 * What the speaker said in their own turns before the other speaker's reply ({@link
 * ReadTurnOptions.earlier}), newest first, up to a turn of the assistant's.
 */
function* ownSaidBefore(earlier: ReadTurnOptions['earlier'], speaker: string | undefined): Generator<string> {
  if (earlier === undefined || speaker === undefined) return;
  for (const turn of earlier) {
    const before = splitSpeaker(turn.input);
    if (before.assistant) return;
    if (before.speaker === speaker) yield before.body;
  }
}

/** What `text` points back at by "that" or "those" and a noun ({@link POINTED_NOUN_RE}): "that fellow fan" → "fellow fan". */
function pointedNouns(text: string): string[] {
  return [...text.matchAll(POINTED_NOUN_RE)].map((m) => m[1]!).filter((words) => contentWords(words).length > 0);
}

/**
 * Whether what a reply points back at by "that" or "those" and a noun ("I had an incredible time
 * meeting with that fellow fan") is the speaker's own: the other speaker's turn (`said`) names none
 * of its words, nor points back at anything that way itself ("Wow, that spot looks gorgeous" →
 * "That place shaped me": the same place), and a turn of the speaker's own before it does name
 * one ("I had a nice chat with a Harry Potter fan"). Only on that evidence: "that place" may still
 * stand for the other speaker's "spot".
 */
function pointsAtOwn(clause: string, said: string, ownSaid: () => Iterable<string>): boolean {
  const pointed = pointedNouns(clause);
  if (pointed.length === 0 || pointedNouns(said).length > 0 || pointed.some((words) => sharedWords(said, words) > 0))
    return false;
  for (const own of ownSaid()) if (pointed.some((words) => sharedWords(own, words) > 0)) return true;
  return false;
}

/**
 * A clause whose subject "they" stands for `named` (the speaker's own, named in their turn
 * before), read as if it said so ("My dogs have tons of energy …"): a statement of the kind that
 * reading gives, which says what "they" is in front ("About my dogs: They have tons of energy …").
 * `undefined`: even with its referent it says nothing of anyone, or reacts.
 */
function ownReferent(
  named: string,
  clause: string,
  who: string,
  now: number,
  listener: string | undefined,
): FormedStatement | undefined {
  const m = THEY_SUBJECT_RE.exec(clause);
  if (m === null) return undefined;
  const at = m.index + m[0].length - m[1]!.length;
  const said = `${named.charAt(0).toUpperCase()}${named.slice(1)}${clause.slice(at + m[1]!.length)}`;
  const r = readSentence(said, who, now, listener);
  if ('dropped' in r || r.kept.kind === 'conversation' || r.kept.about === listener) return undefined;
  if (r.rule !== undefined && REACTION_RULES.has(r.rule)) return undefined;
  return { ...r.kept, about: r.kept.about ?? who, text: `About ${named}: ${clause}` };
}

/** Whom a "she" or "he" may stand for: whom a memory is about, and how the speaker names them ("My wife", "Max"). */
interface Person {
  about: string;
  named: string;
  /** The relation they are to the speaker ("wife"), when the speaker names them by it. */
  relation?: string;
  /** Another name they go by ("Ann's son" for "my son Max"). */
  aka?: string;
}

/** Whom `before` (a statement of the turn) is about, as a "she" or "he" after it may stand for; not the speaker nor the listener. */
function personOf(before: FormedStatement, who: string, listener: string | undefined): Person | undefined {
  if (before.about === who || before.about === listener) return undefined;
  const relation = before.about.startsWith(`${who}'s `) ? before.about.slice(who.length + 3) : undefined;
  const aka = before.aka?.[0];
  return {
    about: before.about,
    named: relation !== undefined ? `My ${relation}` : before.about,
    ...(relation !== undefined ? { relation } : aka !== undefined ? { relation: aka.slice(who.length + 3) } : {}),
    ...(aka !== undefined ? { aka } : {}),
  };
}

/** A verb of thinking or saying after "she" or "he": what follows is their view, not about them. */
const SAYS_OR_THINKS_RE =
  /^\s+(?:(?:also|still|really|just|always)\s+)?(?:thinks?|thought|says?|said|feels?|felt|believes?|believed|knows?|knew|agrees?|agreed|wonders?|wondered|told|tells?|reckons?|mentioned|asked|asks?)\b/iu;
/** A singular relation of the speaker's, and the name after it: "my wife", "my son Max", "our neighbour, Raj". */
const OWN_PERSON_RE = new RegExp(
  `\\b(?:[Mm]y|[Oo]ur)\\s+${RELATION_ADJECTIVE}(${RELATIONS})(?:,?\\s+(${NAME}))?`,
  'gu',
);
/** Something said of someone's relation ("my brother", "your sister"): a "she" or "he" after it may be theirs. */
const ANY_RELATION_RE = new RegExp(
  `\\b(?:my|your|our|his|her|their)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})\\b`,
  'iu',
);

/**
 * Whom a "she" or "he" first in the speaker's turn may stand for when nothing before it in the
 * turn names anyone: the last person the speaker named by their relation in their own turn before
 * ("My wife is coming with me to Porto." → "she's vegetarian btw"). In a chat without speaker
 * names the turn before is the user's own; in a chat of named speakers, the speaker's turn before
 * the other speaker's, when the other speaker named no one's relation themselves.
 */
function ownPersonBefore(
  options: ReadTurnOptions,
  speaker: string | undefined,
  who: string,
  she: boolean,
): Person | undefined {
  const previous = options.previous;
  if (previous === undefined) return undefined;
  const before = splitSpeaker(previous.input);
  let said: string | undefined;
  if (speaker === undefined) said = before.speaker === undefined && !before.assistant ? before.body : undefined;
  else if (before.speaker !== speaker && !before.assistant && !ANY_RELATION_RE.test(before.body))
    said = ownSaidBefore(options.earlier, speaker).next().value ?? undefined;
  if (said === undefined) return undefined;
  for (const m of [...said.matchAll(OWN_PERSON_RE)].reverse()) {
    const relation = relationFiled(m[1]!);
    if (PLURAL_RELATION_RE.test(relation) || (she ? HE_RELATIONS : SHE_RELATIONS).has(relation)) continue;
    const name = m[2] !== undefined && canBeName(m[2]) ? personName(m[2]) : undefined;
    return name !== undefined
      ? { about: name, named: name, relation, aka: `${who}'s ${relation}` }
      : { about: `${who}'s ${relation}`, named: `my ${relation}`, relation };
  }
  return undefined;
}

/**
 * A clause whose subject "she" or "he" stands for `person` ("My wife is coming too. She's
 * vegetarian."), read as if it named them ("My wife's vegetarian"): what that reading says of
 * them, when it says something of its own (a slot, an allergy, a liking, an event), not merely
 * how they are or what they think. Undefined when the pronoun cannot be theirs ("he" of "my wife").
 */
function heOrSheSaid(
  person: Person,
  clause: string,
  who: string,
  now: number,
  listener: string | undefined,
): FormedStatement | undefined {
  const m = HE_OR_SHE_SUBJECT_RE.exec(clause);
  if (m === null) return undefined;
  const she = m[1]!.toLowerCase() === 'she';
  if (person.relation !== undefined && (she ? HE_RELATIONS : SHE_RELATIONS).has(person.relation)) return undefined;
  const rest = clause.slice(m.index + m[0].length);
  // "She thinks it's a great idea", "he said it was fun": what they think or say is no fact of theirs.
  if (SAYS_OR_THINKS_RE.test(rest)) return undefined;
  const named = person.named.charAt(0).toUpperCase() + person.named.slice(1);
  const r = readSentence(`${named}${rest}`, who, now, listener);
  if ('dropped' in r || r.kept.kind === 'conversation' || r.kept.about !== person.about) return undefined;
  if (r.rule !== undefined && (REACTION_RULES.has(r.rule) || r.rule === "about the speaker's own")) return undefined;
  return { ...r.kept, about: person.about, ...(person.aka !== undefined ? { aka: [person.aka] } : {}) };
}

/**
 * The question this turn may answer: the one the turn before ends with, asked by the other
 * speaker (in a chat of named speakers) or by the assistant in its reply (in a chat without
 * names). The speaker's own question before is none.
 */
function questionBefore(
  previous: ReadTurnOptions['previous'],
  speaker: string | undefined,
  earlier: ReadTurnOptions['earlier'],
  now: number,
): AskedQuestion | undefined {
  if (previous === undefined) return undefined;
  const before = splitSpeaker(previous.input);
  if (before.speaker !== undefined) {
    if (speaker === undefined || before.speaker === speaker) return undefined;
    return questionAsked(before.body) ?? shortQuestionOfOwn(before.body, before.speaker, speaker, earlier, now);
  }
  return speaker === undefined && previous.output ? questionAsked(previous.output) : undefined;
}

/**
 * A question of few words ({@link shortQuestionAsked}: "Which one?", "What inspired it?") asked
 * of what the speaker said in their own turn right before it: that turn's remark ({@link
 * remarkMade}: "I painted a lake sunrise last year.") is what it asks about, quoted with it. None
 * when that turn is not the speaker's, or names nothing.
 */
function shortQuestionOfOwn(
  said: string,
  by: string,
  speaker: string,
  earlier: ReadTurnOptions['earlier'],
  now: number,
): AskedQuestion | undefined {
  const asked = shortQuestionAsked(said);
  if (asked === undefined || earlier === undefined) return undefined;
  for (const turn of earlier) {
    const own = splitSpeaker(turn.input);
    if (own.assistant || own.speaker !== speaker) return undefined;
    // "… I've been dancing since I was a kid. I'm starting a studio!" → "Why dancing?": the
    // sentence that names what it asks of, else the turn's remark.
    // What the speaker said to or of the listener ("Your future fam will love you.") is not it.
    const about =
      sentences(own.body).findLast(
        (s) => !CAPTION_RE.test(s) && !QUESTION_END_RE.test(s) && sharedWords(s, asked.text) > 0,
      ) ?? remarkMade(own.body, speaker, by, now);
    return about !== undefined && !LISTENER_ANY_RE.test(about) ? { ...asked, about: about.trim() } : undefined;
  }
  return undefined;
}

/** A statement that answers `asked`, the question quoted so that what it refers to is said with it. */
function answering(asked: AskedQuestion, said: string): string {
  return asked.about !== undefined
    ? `Asked "${asked.text}" about "${asked.about}": ${said}`
    : `Asked "${asked.text}": ${said}`;
}

/**
 * What the other speaker said last that this turn may reply to ({@link remarkMade}): "I started
 * yoga last month" → "It helped me a lot with my back pain too". Only in a chat of named speakers
 * (an assistant's reply is only read for its question). Read when a clause first needs it: most
 * turns never do, and each save reads its turn before once at most.
 */
function remarkBefore(
  previous: ReadTurnOptions['previous'],
  speaker: string | undefined,
  now: number,
): (() => Remark) | undefined {
  if (previous === undefined || speaker === undefined) return undefined;
  const before = splitSpeaker(previous.input);
  const by = before.speaker;
  if (by === undefined || by === speaker || before.assistant) return undefined;
  let read: Remark | undefined;
  return () => {
    if (read !== undefined) return read;
    const text = remarkMade(before.body, by, speaker, now);
    // "When things get rough, keep going! [image: a sign that says never give up]" → "That sign
    // reminds me to never give up": what the other speaker showed is part of what they said.
    const said = sentences(before.body);
    const caption = said.find((s) => CAPTION_RE.test(s));
    const shown = caption !== undefined ? whatIsShown(caption) : undefined;
    // "Remember this photo from elementary school? [image: …]": the sentence that speaks of it.
    const showing =
      shown !== undefined ? said.findLast((s) => !CAPTION_RE.test(s) && THE_PICTURE_RE.test(s)) : undefined;
    read = {
      by,
      said: before.body,
      ...(text !== undefined ? { text } : {}),
      ...(shown !== undefined ? { shown } : {}),
      ...(showing !== undefined ? { showing } : {}),
    };
    return read;
  };
}

/**
 * What the other speaker (`by`) said, or showed, that a reply may refer to. Neither: their turn
 * named nothing ("That's awesome! So cool."), and a fragment first in the reply has no referent.
 */
interface Remark {
  by: string;
  /** The whole of their turn. */
  said: string;
  /** The sentence ({@link remarkMade}). */
  text?: string;
  /** The picture they shared with it, as {@link whatIsShown} gives it. */
  shown?: string;
  /** The sentence that speaks of that picture ("Remember this photo from elementary school?"), if any. */
  showing?: string;
}

/** A statement that replies to `remark`, quoted with whose it is, so that what it refers to is said with it. */
function replying(remark: Omit<Remark, 'said'>, said: string): string {
  const quoted = [remark.text !== undefined ? `"${remark.text}"` : undefined, remark.shown].filter(Boolean).join(' ');
  return `Replying to ${remark.by}'s ${quoted}: ${said}`;
}

/**
 * Whether what a reply points back at may be what `quoted` (the remark or question it would be
 * quoted with) names: a reply whose first pointing word is "they", "them" or "their" ({@link
 * REPLY_PRONOUN_RE}) needs one that names more than one ({@link PLURAL_NAMED_RE}: "Those flowers
 * look great! What kind are they?" → "They're called Peruvian Lilies"); asked "How long have you
 * been prioritizing your health?", "Yes, they bring me such joy" speaks of something else (her
 * kids), which the question does not say. A "they" the reply names itself first ("My kids love
 * it, they …") needs nothing. Of a picture, only what it shows counts ("[image: a path in the
 * woods]": one path). "It" needs nothing.
 */
function pronounAgrees(clause: string, quoted: string, shown?: string, saidBefore = ''): boolean {
  const m = REPLY_PRONOUN_RE.exec(clause);
  const word = m?.[1] ?? m?.[2];
  if (m === null || word === undefined || !PLURAL_PRONOUN_RE.test(word)) return true;
  const before = `${saidBefore} ${m[0].slice(0, -word.length)}`;
  if (THEY_MAY_STAND_FOR_RE.test(before) || PLURAL_NAMED_RE.test(before)) return true;
  // Of a picture, only what it shows: "[image: a path in the woods]" is one path.
  const said = `${quoted} ${shown ?? ''}`.replace(
    /\[image:\s*([^\]]*)\]?/giu,
    (_, c: string) => c.split(CAPTION_HEAD_END_RE)[0]!,
  );
  return PLURAL_NAMED_RE.test(said);
}

/** What a picture shows, without the "a photo of" that every caption says: "[image: a red sports car]". */
function whatIsShown(caption: string): string {
  return caption.replace(/^\[image:\s*(?:an?\s+)?(?:photo(?:graphy)?|picture|image)\s+of\s+/iu, '[image: ');
}

/** Content words a clause that points back at what no turn near it names may say and still be a fragment ("We had tons of fun outside": 3). */
const MAX_WORDS_OF_A_FRAGMENT = 5;

/**
 * A clause read as the reply to the other speaker's `remark`, when what its subject or object
 * stands for is not said in the turn ("It helped me a lot with my back pain too", "I tried it
 * last year", "I went there in 2019"): it forms a memory about the speaker (or the person it
 * names) of the kind the kind rules give it, the remark quoted in front. `'not yet'`: a greeting,
 * thanks or a reaction that may come before the reply ("Wow, that's great!"); `undefined`: the
 * clause is read as any other (it names what it says, or says nothing of anyone even with the
 * remark: "Yeah, they were amazing!"), and no clause after it replies; `'no referent'`: it points back
 * and the other speaker's turn names nothing, so it forms no memory however it reads.
 * `saidBefore`: the clause before it in the turn that pointed back at the same remark and said
 * nothing of the speaker ("It's our shared language and passion."), kept in front of it.
 */
function replyTo(
  remarkOf: () => Remark,
  clause: string,
  r: ReturnType<typeof readSentence>,
  who: string,
  now: number,
  listener: string | undefined,
  ownSaid: () => Iterable<string>,
  saidBefore?: string,
): FormedStatement | undefined | 'not yet' | 'no referent' {
  if ('dropped' in r) return r.dropped === 'question' ? undefined : 'not yet';
  if (
    !(
      r.refersBack ||
      r.pronounObject ||
      r.pronounInside ||
      r.rule === 'object refers back' ||
      NAMED_BEFORE_RE.test(clause) ||
      REFERENT_DID_RE.test(clause) ||
      THE_PICTURE_RE.test(clause)
    )
  )
    return r.rule !== undefined && REACTION_RULES.has(r.rule) ? 'not yet' : undefined;
  // "That's awesome!" → "I went there last year": where, no turn near it says. A clause that says
  // more ("That picture was from a trip we took last year for my daughter's birthday") stands.
  const remark = remarkOf();
  // "I don't remember when we took this picture": in a reply that shares none, the picture the
  // other speaker shared, quoted with it; with none shared, the clause is read as any other.
  const ofThePicture =
    THE_PICTURE_RE.test(clause) &&
    !(r.refersBack || r.pronounObject || r.pronounInside || r.rule === 'object refers back');
  if (ofThePicture && remark.shown === undefined) return undefined;
  if (remark.text === undefined && remark.shown === undefined)
    return contentWords(clause).length <= MAX_WORDS_OF_A_FRAGMENT ? 'no referent' : undefined;
  // "I had an incredible time meeting with that fellow fan": the fan the speaker spoke of before,
  // not the other speaker's remark; "that recurring dream again where I'm flying": the clause says which.
  if (!ofThePicture && (DEFINED_BY_THE_SPEAKER_RE.test(clause) || pointsAtOwn(clause, remark.said, ownSaid)))
    return undefined;
  // What the speaker says of their own ("It helped me a lot", "I tried it"), not a remark about
  // the world or the listener ("It's important to help family", "It'll help you focus").
  if (!SINGULAR_SPEAKER_RE.test(clause) || LISTENER_ANY_RE.test(clause) || r.extraposed || SIMILE_RE.test(clause))
    return undefined;
  const again = readSentence(clause, who, now, listener, { referentGiven: true });
  if ('dropped' in again || again.kept.kind === 'conversation' || again.kept.about === listener) return undefined;
  if (again.rule !== undefined && REACTION_RULES.has(again.rule)) return undefined;
  if (again.rule !== undefined && WEAK_REPLY_RULES.has(again.rule) && !REFERENT_DID_RE.test(clause)) return undefined;
  // "Remind me what's their name? I've been helping my siblings …" → "His name's Ned": the
  // question the reply answers, when it shares as many words with the reply as the remark does.
  const answered =
    remark.text !== undefined ? questionAnswered(remark.said, clause, sharedWords(remark.text, clause)) : undefined;
  const quoted = ofThePicture
    ? { by: remark.by, shown: remark.shown, ...(remark.showing !== undefined ? { text: remark.showing } : {}) }
    : answered !== undefined
      ? { ...remark, text: answered }
      : remark;
  // "Somewhere like this [image: a path in the woods]" → "They really bring me joy": her dogs, not the path.
  if (!pronounAgrees(clause, quoted.text ?? '', quoted.shown, saidBefore)) return undefined;
  return {
    ...again.kept,
    about: again.kept.about ?? who,
    text: replying(quoted, saidBefore !== undefined ? `${saidBefore} ${clause}` : clause),
  };
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
 * The first clause of a turn read as the answer to `asked`, when what it says needs the question
 * to be understood: its subject or object refers back ("It was amazing, they played for hours",
 * "My aunt showed it to me") or it has no verb ("Definitely Catan!"). Such a clause is about the
 * answerer (or the person it names), and the memory quotes the question. `undefined`: the
 * clause is read as any other (it names what it says, reacts, speaks to the asker, or asks
 * back); `'not yet'`: a greeting, thanks or "Yes!" before the answer. `held`: the clause before it
 * held as the start of the answer ({@link isBare}).
 */
function answerTo(
  asked: AskedQuestion,
  clause: string,
  r: ReturnType<typeof readSentence>,
  who: string,
  now: number,
  listener: string | undefined,
  held?: string,
): FormedStatement | undefined | 'not yet' {
  if ('dropped' in r && r.dropped !== 'filler') return r.dropped === 'question' ? undefined : 'not yet';
  // Asked "What's the second one's name?": "They bring lots of joy to our home" speaks of more
  // than the question names ("Mainly the roadways. They're full of potholes" names them first).
  const quoted = asked.about !== undefined ? `${asked.text} ${asked.about}` : asked.text;
  if (!pronounAgrees(clause, quoted, undefined, held)) return undefined;
  // Only a clause no rule read as more than words: "That sounds like a fascinating trip!" has no
  // verb the reading knows, but is a reaction.
  const bare = 'dropped' in r || r.rule === 'generic' || r.rule === 'none';
  // Asked "Have you been camping before?": "Yeah, plenty of times." says that the answerer has.
  if (bare && asked.experience === true && HOW_OFTEN_RE.test(clause))
    return { text: answering(asked, clause), kind: 'fact', about: who };
  const elliptic = bare && asked.wh ? ellipticAnswer(clause) : undefined;
  if (elliptic !== undefined && (asked.favourite !== undefined || elliptic.split(/\s+/u).length >= 2))
    return {
      text: answering(asked, clause),
      kind: asked.favourite !== undefined || asked.liking ? 'preference' : 'fact',
      about: who,
      ...(asked.favourite !== undefined ? { attribute: asked.favourite, value: elliptic } : {}),
    };
  // Asked "How long have you been doing yoga?": "Been doing it for 3 years." says how long, in few words.
  if ('dropped' in r && HOW_LONG_ASKED_RE.test(asked.text) && saysHowLong(clause))
    return { text: answering(asked, clause), kind: 'fact', about: who };
  // "Yes!", "Thanks, Maria!" come before the answer; "I see them once a week", too short to keep, was it.
  if ('dropped' in r) return hasVerb(clause) ? undefined : 'not yet';
  // "We looked through her photos": a statement that stands without the question, but says of it.
  if (r.kept.kind !== 'conversation' && !r.refersBack && !r.pronounObject) {
    if (r.kept.attribute !== undefined || r.kept.about === listener || !REFERRING_WORD_RE.test(r.kept.text))
      return undefined;
    if (r.rule !== undefined && REACTION_RULES.has(r.rule)) return undefined;
    return { ...r.kept, about: r.kept.about ?? who, text: answering(asked, clause) };
  }
  // Asked "Are you reading any books?": "I'm reading this book": the speaker's own clause, too
  // short to stand alone, says what the question asked of them.
  if (r.rule === 'none' && ownShortAnswer(asked, clause))
    return { ...r.kept, kind: 'fact', about: r.kept.about ?? who, text: answering(asked, clause) };
  if (!(r.refersBack || r.pronounObject || r.rule === 'object refers back')) return undefined;
  const again = readSentence(clause, who, now, listener, { referentGiven: true });
  if ('dropped' in again || again.kept.kind === 'conversation') return undefined;
  if (again.rule !== undefined && REACTION_RULES.has(again.rule)) return undefined;
  return { ...again.kept, about: again.kept.about ?? who, text: answering(asked, clause) };
}

/**
 * The name a clause of the speaker's exclaims or asks alone ({@link NAME_EXCLAIMED_RE}: "Paris?!"),
 * which an "it" after it in the turn may stand for. Not an interjection or praise ("Wow!",
 * "Awesome!"), nor a call of a speaker by name ("Jon!").
 */
function nameExclaimed(clause: string, speakers: readonly (string | undefined)[]): string | undefined {
  const name = NAME_EXCLAIMED_RE.exec(clause.trim())?.[1];
  if (name === undefined || PRAISE_RE.test(name) || speakers.includes(name)) return undefined;
  return name
    .replace(/^the\s+/iu, '')
    .split(/\s+/u)
    .every(canBeName)
    ? name.replace(/^The\b/u, 'the')
    : undefined;
}

/**
 * Whether a question of the speaker's names something a statement after it may point back at:
 * "Remember the tough engineering project?", "Have you ever been to Lisbon?". Not one about the
 * listener's own ("How was your trip?") nor one that names too little ("Did you see it?").
 */
function namesWhatItAsks(question: string): boolean {
  return !LISTENER_POSSESSIVE_RE.test(question) && contentWords(question).length >= 2;
}

/**
 * Whether a clause answers what a question asked of the listener with a statement of the
 * speaker's own, in the affirmative: "Are you reading any books?" → "I'm reading this book". Not
 * a denial ("No, I haven't tried them yet"), nor a promise.
 */
function ownShortAnswer(asked: AskedQuestion, clause: string): boolean {
  return (
    LISTENER_ANY_RE.test(asked.text) &&
    FIRST_PERSON_RE.test(withoutInterjection(clause)) &&
    !LISTENER_ANY_RE.test(clause) &&
    !NEGATION_RE.test(clause)
  );
}
/**
 * Whether a clause names, by "the", "that" or "this" and a noun, something the question asked
 * about ("Have you found any non-profit organizations …?" → "… find the organization I need"):
 * the noun is one of the question's, stemmed (singular or plural alike).
 */
function namesWhatWasAsked(clause: string, asked: AskedQuestion | undefined): boolean {
  if (asked === undefined) return false;
  const asks = new Set(contentWords(asked.text).map(stem));
  for (const m of clause.matchAll(DEFINITE_NOUN_RE))
    if (contentWords(m[1]!).some((w) => w.length >= MIN_NOUN_LETTERS && asks.has(stem(w)))) return true;
  return false;
}
/** Letters a noun must have to be matched with the question's ("the one", "that day" match nothing). */
const MIN_NOUN_LETTERS = 4;

/** A denial or a negated clause: "No, …", "I haven't …", "I don't …", "never". */
const NEGATION_RE = /^(?:no|nope|not)\b|\b(?:not|never)\b|n['’]t\b/iu;
/** A clause without "Yes, " or "Yeah! " in front. */
function withoutInterjection(clause: string): string {
  return clause.replace(
    /^(?:(?:yes|yeah|yep|yup|sure|definitely|absolutely|totally|of\s+course|indeed)[\s,!.]+)+/iu,
    '',
  );
}

/**
 * Whether a clause that answers nothing on its own says nothing of anyone either: no rule read it
 * as more than words ("Since I was 17 or so.", "Every weekend for a few years now."). The clause
 * after it, when it refers back, goes on with the answer.
 */
function isBare(r: ReturnType<typeof readSentence>): boolean {
  return 'kept' in r && (r.rule === 'none' || r.rule === 'generic');
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
  const listener =
    options.listener ?? (options.previous !== undefined ? splitSpeaker(options.previous.input).speaker : undefined);
  const other = listener !== who ? listener : undefined;
  // The first clause that says something may answer the question before ("Yes!" or thanks before it aside).
  let asked = questionBefore(options.previous, speaker, options.earlier, turn.createdAt);
  // "Did you join in? Looks like fun!": a question with a remark after it is answered only by a
  // reply that says yes or no first ("Yes, I did. It was amazing!").
  if (asked?.remarkAfter && !YES_OR_NO_FIRST_RE.test(body)) asked = undefined;
  const parts = sentences(body).flatMap(clauseParts);
  // A picture shared in the turn ("[image: a painting of a lighthouse]"): what its "this" is.
  const caption = parts.find((p) => CAPTION_RE.test(p.said))?.said;
  // With no question before, the first clause that says something may reply to what the other
  // speaker said; in a turn that shares a picture, what "it" is, is the picture.
  // A reply to a question with a remark after it ("… Have you come across any good resources? I've
  // been using this app.") may not answer it ("Yeah! I've been using that app too!"): it may reply to the remark.
  let remark =
    (asked === undefined || asked.remarkAfter) && caption === undefined
      ? remarkBefore(options.previous, speaker, turn.createdAt)
      : undefined;
  const ownSaid = () => ownSaidBefore(options.earlier, speaker);
  /** What a "they" first in the turn may stand for ({@link ownPluralBefore}); read when a clause first needs it. */
  let ownPlural: string | null | undefined;
  const ownNamed = (): string | undefined => {
    if (ownPlural === undefined) ownPlural = ownPluralBefore(options.earlier, speaker) ?? null;
    return ownPlural ?? undefined;
  };
  /** The statements that point at that picture: each keeps its caption, at its end ({@link PICTURE_RULES}). */
  const pictured = new Set<FormedStatement>();
  let last: FormedStatement | undefined;
  /** The statement pushed right before `last`, next to it in the turn. */
  let beforeLast: FormedStatement | undefined;
  /** Whether `last` is a reaction to what the other speaker showed or said. */
  let lastReacts = false;
  /** Whether `last` is a remark about no one ("Flowers bring joy."), which a clause after it may make the speaker's. */
  let lastAboutNoOne = false;
  let afterReaction = false;
  /** Whether `last` only announces news ("I have some big news!"): the statement after it says what. */
  let lastAnnounces = false;
  /** The first clause of an answer that says nothing alone, held for the clause after it ({@link isBare}). */
  let held: FormedStatement | undefined;
  let holdTried = false;
  /** The first statement of the turn, when it points back at the other speaker's remark and says nothing of the speaker. */
  let pointedBack: FormedStatement | undefined;
  /** The speaker's own question just before, when it names what it asks about ({@link namesWhatItAsks}). */
  let askedBack: string | undefined;
  /** A remark just before that names its thing first and formed nothing ("Athens was amazing!"): what a "there" or "it" after it stands for. */
  let namedRemark: string | undefined;
  /** A name the speaker exclaimed or asked alone before in the turn ({@link nameExclaimed}: "Paris?!"), not yet pointed back at. */
  let namedOwn: string | undefined;
  /** The answer just given, while the clauses of its sentence go on ({@link answerTo}). */
  let answered: FormedStatement | undefined;
  /** The question `answered` answers. */
  let answeredOf: AskedQuestion | undefined;
  for (const part of parts) {
    const clause = clauseText(part);
    const announced = lastAnnounces;
    lastAnnounces = false;
    let r = readSentence(clause, who, turn.createdAt, other, {
      afterReaction,
      afterStatement: last !== undefined,
    });
    // A clause of the same sentence joins the one before with the words that joined it ("I
    // finished my first painting, and my kids love it"); a sentence of its own, with a space.
    const join = (into: FormedStatement, text: string) => {
      into.text = part.joiner
        ? `${into.text}${part.joiner}${text === clause ? part.said : text}`
        : `${into.text} ${text}`;
    };
    let holding = false;
    // "It took time and effort, but I slowly formed connections by listening": the answer goes on
    // to the end of its sentence, the clauses after it with it.
    // "I haven't found it yet. I think it won't be hard to find the organization I need": the
    // sentence right after the answer that names, as "the …" or "that …", what the question asked
    // about goes on with the answer, quoted with it.
    if (!part.joiner && !(answered !== undefined && last === answered && namesWhatWasAsked(clause, answeredOf)))
      answered = undefined;
    if (
      answered !== undefined &&
      'kept' in r &&
      (r.kept.about ?? who) === answered.about &&
      !(r.rule !== undefined && REACTION_RULES.has(r.rule))
    ) {
      join(answered, clause);
      if (answered.at === undefined && r.kept.at !== undefined && r.kept.kind === 'event') answered.at = r.kept.at;
      continue;
    }
    if (asked !== undefined) {
      const answer = answerTo(asked, clause, r, who, turn.createdAt, other, held?.text);
      if (answer !== 'not yet' && answer !== undefined) {
        // "Since I was 17 or so. I find it so empowering": the answer began a clause before.
        if (held !== undefined) {
          answer.text = answering(asked, `${held.text} ${clause}`);
          reading.statements.splice(reading.statements.indexOf(held), 1);
        }
        // Asked "Do you have a favorite spot for hanging out?": "Yeah, today we are going to that
        // spot. Look at that lovely photo. [image: …]": what the answer points at, the question
        // does not name; the picture shared with it shows it, kept with it.
        if (caption !== undefined && 'kept' in r && r.pronounObject) pictured.add(answer);
        answeredOf = asked;
        asked = undefined;
        held = undefined;
        reading.statements.push(answer);
        last = answer;
        beforeLast = undefined;
        answered = answer;
        lastReacts = false;
        continue;
      }
      // A first clause that forms nothing alone and says nothing of its own ("Since I was 17 or
      // so.") is held: a clause after it that refers back is the rest of the answer.
      holding =
        answer === undefined &&
        !holdTried &&
        'kept' in r &&
        r.kept.kind === 'conversation' &&
        isBare(r) &&
        !r.continuation;
      if (answer === undefined && !holding) {
        asked = undefined;
        held = undefined;
      }
      if (holding) holdTried = true;
    }
    /** The clause points back at what no turn near it names: read as any other, it forms no memory. */
    let noReferent = false;
    /** The clause points back at the other speaker's remark and says nothing of the speaker: the clause after it may ({@link pointedBack}). */
    let mayPointBack = false;
    // Only a clause whose subject points back too goes on with it ("It's been a refuge for me").
    const pointing =
      pointedBack !== undefined && last === pointedBack && 'kept' in r && r.refersBack === true
        ? pointedBack
        : undefined;
    // Any other clause after it: the remark is no longer what the turn replies to.
    if (pointedBack !== undefined && pointing === undefined) remark = undefined;
    pointedBack = undefined;
    // "Paris?! That is really great Jon! Never had a chance to visit it.": what "it" is, the name the
    // speaker exclaimed (or asked) alone before says, said in front of it; not the other speaker's
    // remark. One name is no "they" ("Max! They bring lots of joy": both cats).
    if (
      namedOwn !== undefined &&
      (last === undefined || lastReacts) &&
      'kept' in r &&
      (r.pronounObject || r.refersBack || r.rule === 'object refers back') &&
      !THEY_SAID_RE.test(clause)
    ) {
      const again = readSentence(clause, who, turn.createdAt, other, { referentGiven: true });
      if (
        'kept' in again &&
        again.kept.kind !== 'conversation' &&
        again.kept.about !== other &&
        !REACTION_RULES.has(again.rule ?? '')
      ) {
        const own = { ...again.kept, about: again.kept.about ?? who, text: `About ${namedOwn}: ${clause}` };
        reading.statements.push(own);
        namedOwn = undefined;
        remark = undefined;
        last = own;
        beforeLast = undefined;
        lastReacts = false;
        continue;
      }
    }
    if (remark !== undefined && (last === undefined || lastReacts || pointing !== undefined)) {
      const reply = replyTo(remark, clause, r, who, turn.createdAt, other, ownSaid, pointing?.text);
      // "Yeah, it's our shared language and passion. It's been a refuge for me in tough times": a
      // first clause that points back at the remark and says nothing of the speaker may be followed
      // by one that says what it is for them; the remark waits for that clause.
      mayPointBack =
        reply === undefined &&
        last === undefined &&
        'kept' in r &&
        r.kept.kind === 'conversation' &&
        r.refersBack === true &&
        !(r.rule !== undefined && REACTION_RULES.has(r.rule)) &&
        !SINGULAR_SPEAKER_RE.test(clause) &&
        !LISTENER_ANY_RE.test(clause);
      if (reply !== 'not yet' && !mayPointBack) remark = undefined;
      noReferent = reply === 'no referent';
      if (reply !== undefined && reply !== 'not yet' && reply !== 'no referent') {
        // The clause before it that pointed back at the same remark is part of the reply.
        if (pointing !== undefined) reading.statements.splice(reading.statements.indexOf(pointing), 1);
        reading.statements.push(reply);
        last = reply;
        beforeLast = undefined;
        lastReacts = false;
        continue;
      }
    }
    // "she's vegetarian btw" first in a turn: whom the speaker named by their relation in their
    // own turn before ("My wife is coming with me to Porto") is who "she" is.
    if (
      ('kept' in r ? r.kept.kind === 'conversation' && r.refersBack : r.dropped === 'filler') &&
      last === undefined &&
      reading.statements.length === 0
    ) {
      const pronoun = HE_OR_SHE_SUBJECT_RE.exec(clause);
      const person = pronoun ? ownPersonBefore(options, speaker, who, pronoun[1]!.toLowerCase() === 'she') : undefined;
      const theirs = person !== undefined ? heOrSheSaid(person, clause, who, turn.createdAt, other) : undefined;
      if (theirs !== undefined) {
        const own = { ...theirs, text: `About ${person!.named}: ${clause}` };
        reading.statements.push(own);
        last = own;
        beforeLast = undefined;
        lastReacts = false;
        continue;
      }
    }
    // "They have tons of energy", "They mean the world to me" (too short alone): with nothing
    // before it in the turn that says who "they" are, what the speaker named in their own turn
    // before (their dogs, their kids) is.
    if (
      ('kept' in r ? r.kept.kind === 'conversation' && r.refersBack : r.dropped === 'filler') &&
      (last === undefined || lastReacts) &&
      THEY_SUBJECT_RE.test(clause) &&
      !THEY_MAY_STAND_FOR_RE.test(body.slice(0, Math.max(0, body.indexOf(clause))))
    ) {
      const named = ownNamed() ?? listenersPluralBefore(options.previous, speaker);
      const own = named !== undefined ? ownReferent(named, clause, who, turn.createdAt, other) : undefined;
      if (own !== undefined) {
        reading.statements.push(own);
        last = own;
        beforeLast = undefined;
        lastReacts = false;
        continue;
      }
    }
    // "And thanks for asking, they're good- we got another cat": a clause that forms nothing (and
    // does not go on with the statement before) may say something of its own after a dash.
    if ('kept' in r && r.kept.kind === 'conversation' && !part.joiner && !(last && r.continuation)) {
      const after =
        clauseAfterDash(clause, who, turn.createdAt, other) ?? clauseBeforeBreak(clause, who, turn.createdAt, other);
      if (after !== undefined) {
        if (r.rule !== undefined && REACTION_RULES.has(r.rule)) afterReaction = true;
        r = after;
      }
    }
    if ('dropped' in r) {
      // "I adopted a puppy; we love it": too little to stand alone, but part of what was said.
      if (last && part.joiner && r.dropped === 'filler') {
        join(last, r.text);
        continue;
      }
      // "Jazz is so relaxing. I love it.": the speaker's liking of what their remark about no one
      // named makes the two a preference (not of what the listener showed or has: "Your cake looks
      // amazing. I love it!").
      if (
        last?.kind === 'conversation' &&
        lastAboutNoOne &&
        r.dropped === 'filler' &&
        LIKING_IT_RE.test(r.text) &&
        !LISTENER_ANY_RE.test(last.text) &&
        !remarksOnWhatWasShown(last.text, r.text)
      ) {
        join(last, r.text);
        last.kind = 'preference';
        lastAboutNoOne = false;
        continue;
      }
      // "Look at this! [image: me crossing the finish line]": too little alone, but it shares the speaker's picture.
      const shared =
        r.dropped === 'filler' && POINTING_RE.test(r.text)
          ? sharedOwnPicture(caption, who, reading.statements)
          : undefined;
      if (shared !== undefined) {
        reading.statements.push(shared);
        last = shared;
        beforeLast = undefined;
        lastReacts = false;
        continue;
      }
      // "Wow, that's gorgeous!": too little to keep, but a reaction all the same.
      if ((r.dropped === 'greeting' || r.dropped === 'filler') && PRAISE_RE.test(r.text)) afterReaction = true;
      reading.dropped.push({ text: r.text, reason: r.dropped });
      last = undefined;
      beforeLast = undefined;
      askedBack = r.dropped === 'question' && namesWhatItAsks(r.text) ? r.text : undefined;
      namedRemark = r.dropped === 'filler' && THING_NAMED_FIRST_RE.test(r.text) ? r.text : undefined;
      namedOwn = nameExclaimed(r.text, [who, other]) ?? namedOwn;
      continue;
    }
    const askedBefore = askedBack;
    askedBack = undefined;
    const remarkBefore = namedRemark;
    namedRemark = undefined;
    // "Check out this photo! I put in a lot of work restoring it": what "it" stands for, when no
    // statement of the speaker's before names it, is the picture shared with it, kept with it.
    let withCaption = false;
    if (
      r.rule === 'object refers back' &&
      caption !== undefined &&
      (last === undefined || lastReacts) &&
      IT_MAY_BE_PICTURED_RE.test(clause)
    ) {
      const again = readSentence(clause, who, turn.createdAt, other, { referentGiven: true });
      if ('kept' in again && again.kept.kind !== 'conversation' && !REACTION_RULES.has(again.rule ?? '')) {
        r = again;
        withCaption = true;
      }
    }
    const s = { ...r.kept, about: r.kept.about ?? who } as FormedStatement;
    if (noReferent) s.kind = 'conversation';
    // "Here's a pic of a cake I made recently!" → "I made a cake recently!": what the picture
    // pointed at shows the speaker did or has, said plainly (the caption is kept with it below).
    if (s.kind !== 'conversation' && PICTURE_RULES.has(r.rule ?? '')) s.text = shownPlainly(s.text) ?? s.text;
    // "Take a look at this! [image: me crossing the finish line]": pointing that names nothing, at a
    // picture of the speaker or of theirs, says what the caption shows ("a sunset" is no one's).
    const ownPictured =
      s.kind === 'conversation' && POINTING_ONLY_RULES.has(r.rule ?? '')
        ? sharedOwnPicture(caption, who, reading.statements)
        : undefined;
    if (ownPictured !== undefined) Object.assign(s, ownPictured);
    // "Take a look at my car, I put a lot of work into it", "I finally got myself this beauty",
    // "Here's a photo I took at the marathon": what is shown, or "this …", is the picture shared with it.
    // "… and this series is one of my favorites", "This is me at the beach", "I'm thinking of
    // setting up something like this", "I even got this as a treat": a clause about what "this"
    // is speaks of the picture, however long.
    if (
      caption !== undefined &&
      ownPictured === undefined &&
      (withCaption ||
        ((PICTURE_RULES.has(r.rule ?? '') || (THIS_THING_RE.test(clause) && !LISTENER_ANY_RE.test(clause))) &&
          s.text.split(/\s+/u).length <= MAX_WORDS_WITH_CAPTION) ||
        (!LISTENER_ANY_RE.test(clause) &&
          (THIS_THING_SUBJECT_RE.test(clause) ||
            THIS_ALONE_RE.test(clause) ||
            THING_LIKE_THIS_RE.test(clause) ||
            THIS_OBJECT_RE.test(clause))))
    )
      pictured.add(s);
    // "Wow! This painting is awesome.": praise of what the turn does not name is of what was shown.
    // "I read this awesome book about castles. It was so interesting and blew me away!": "it"
    // judged right after the speaker's own statement judges what that statement told, not what the
    // listener said; it goes on with it.
    const judgesOwnTold: boolean =
      last !== undefined &&
      !lastReacts &&
      last.kind !== 'conversation' &&
      last.about === who &&
      r.rule === 'reaction' &&
      IT_JUDGED_RE.test(clause);
    const reacts: boolean =
      ((r.rule !== undefined && REACTION_RULES.has(r.rule)) ||
        (r.rule === 'refers back' && last === undefined && PRAISE_RE.test(s.text))) &&
      !judgesOwnTold;
    if (reacts) afterReaction = true;
    // "I have some big news! I got the job.": what the announcement announced is the statement
    // after it; the two are one, of the kind that one says. Something of the speaker's shown
    // after it ("… I just had a big life change! Here's my new mansion") is the news, a fact.
    const shownOwn = (r.rule === 'showing' || r.rule === 'pointing') && SPEAKERS_THING_RE.test(s.text);
    // "I finally got myself this beauty. Here's a pic from yesterday when I took it for a ride": what
    // the picture shows "it" doing is the speaker's statement before it, kept whole with it.
    if (
      last &&
      !lastReacts &&
      last.kind !== 'conversation' &&
      s.kind !== 'conversation' &&
      last.about === s.about &&
      PICTURE_RULES.has(r.rule ?? '') &&
      SHOWN_IT_RE.test(clause)
    ) {
      join(last, s.text);
      if (pictured.has(s)) pictured.add(last);
      continue;
    }
    if (last && announced && (!reacts || shownOwn)) {
      join(last, s.text);
      if (pictured.has(s)) pictured.add(last);
      last.kind = shownOwn ? 'fact' : s.kind;
      last.about = s.about;
      if (s.at !== undefined) last.at = s.at;
      if (s.attribute !== undefined) {
        last.attribute = s.attribute;
        last.value = s.value;
      }
      lastReacts = false;
      lastAboutNoOne = false;
      continue;
    }
    // "I started learning guitar last month. Been practicing every day.": a clause whose "I" is
    // left out goes on with the speaker's statement before it (a remark before it takes its kind).
    if (last && !reacts && goesOnWithoutI(clause, s, last, lastReacts, turn.createdAt)) {
      join(last, s.text);
      if (pictured.has(s)) pictured.add(last);
      if (last.kind === 'conversation') last.kind = s.kind;
      if (last.kind === 'event' && last.at === undefined && s.at !== undefined) last.at = s.at;
      lastAboutNoOne = false;
      continue;
    }
    // "It was so powerful." continues the statement before it, kept whole with it; thanks or
    // praise after it ("But thank you for your concern!") does not.
    if (last && r.continuation && s.kind === 'conversation' && !reacts) {
      join(last, s.text);
      // "My wife is coming too. She's vegetarian.": what "she" is said to be or do is the
      // statement's, of the kind (and slot) it says, about whom the statement before was.
      const person = personOf(last, who, other);
      const theirs = person !== undefined ? heOrSheSaid(person, clause, who, turn.createdAt, other) : undefined;
      if (theirs !== undefined) {
        if (last.kind === 'conversation') last.kind = theirs.kind;
        if (theirs.attribute !== undefined && last.attribute === undefined) {
          last.attribute = theirs.attribute;
          last.value = theirs.value!;
        }
        if (last.at === undefined && theirs.at !== undefined) last.at = theirs.at;
      }
      // "I took a bunch of photos. This one of my favorites. [image: …]", "I went to my cousin's
      // wedding. This is me on the dance floor. [image: …]": "this one", "this", "this photo" is
      // the picture shared in the turn, kept with it.
      if (caption !== undefined && (THIS_ONE_SUBJECT_RE.test(clause) || pictured.has(s))) pictured.add(last);
      // "Flowers bring joy. They were an important part of my wedding decor": a remark about no one
      // that the speaker goes on to say is theirs is about the speaker, its referent kept with it.
      if (
        last.kind === 'conversation' &&
        lastAboutNoOne &&
        saysTheSpeakersOwn(s.text) &&
        !remarksOnWhatWasShown(last.text, s.text)
      ) {
        last.kind = 'fact';
        lastAboutNoOne = false;
      }
      continue;
    }
    // "\"Brave\" has a lot of significance for me. Whenever I hear this jam, I think about …": with
    // no picture in the turn, "this …" after the speaker's statement is what that statement named
    // (after catching up or thanks, "I attended this awesome event" names something new).
    const thisSaidBefore =
      caption === undefined &&
      last !== undefined &&
      last.kind !== 'conversation' &&
      THIS_THING_RE.test(clause) &&
      !LISTENER_ANY_RE.test(clause);
    // "We celebrated my daughter's birthday with a concert. Seeing my kids' smiles was so awesome":
    // an activity judged right after the speaker's statement judges what it told.
    const judgesWhatWasSaid =
      last !== undefined && last.kind !== 'conversation' && JUDGED_ACTIVITY_RE.test(clause.replace(/,\s*$/u, ''));
    if (
      (r.pronounObject || r.pronounInside || r.weSubject || r.extraposed || thisSaidBefore || judgesWhatWasSaid) &&
      s.kind !== 'conversation'
    ) {
      // "My garden means a lot to me. I also use it to grow food", "I'm lucky to have my cousins
      // nearby. We cook every Sunday": what "it" or "we" is, is said before it in the turn, so
      // the two are one statement, of the kind the informative one says, whatever the one before was.
      // "Yesterday we started on a road trip. It was fun spending time with my dogs": a remark
      // that goes on with the speaker's statement is kept with it.
      if (
        last &&
        !lastReacts &&
        (last.about === s.about || last.about.startsWith(`${s.about}'s `)) &&
        (r.pronounObject || r.pronounInside || thisSaidBefore || judgesWhatWasSaid || namesTheSpeakersOwn(last))
      ) {
        join(last, s.text);
        if (pictured.has(s)) pictured.add(last);
        // "Last weekend our city held a pride parade! So many people marched … I missed it but …":
        // the remark in between goes on with the statement before it, which names what "it" is;
        // all three are one statement.
        const named = beforeLast;
        if (
          last.kind === 'conversation' &&
          (r.pronounObject || r.pronounInside || thisSaidBefore) &&
          named !== undefined &&
          named.kind !== 'conversation' &&
          named.about === s.about
        ) {
          named.text = `${named.text} ${last.text}`;
          if (pictured.has(last)) pictured.add(named);
          reading.statements.splice(reading.statements.indexOf(last), 1);
          if (named.at === undefined && s.at !== undefined) named.at = s.at;
          last = named;
          beforeLast = undefined;
        } else if (last.kind === 'conversation') {
          last.kind = s.kind;
          last.about = s.about;
          if (s.at !== undefined) last.at = s.at;
        }
        continue;
      }
      // "Remember the tough engineering project? I finally wrapped that up last month": what
      // "that" is, the speaker's own question before it names; the two are one statement.
      // Otherwise "I painted this after my trip": "this" is the picture shared with it, or what
      // the other speaker showed, which this turn does not say: the turn keeps it. "We …" first
      // in a turn is the speaker's own.
      if (r.pronounObject && last === undefined && askedBefore !== undefined) s.text = `${askedBefore} ${s.text}`;
      // "Athens was amazing! We went there in May.": the remark before names what "there" is.
      else if ((r.pronounObject || r.pronounInside) && last === undefined && remarkBefore !== undefined) {
        s.text = `${remarkBefore}${/[.!?…]["'”’)]*$/u.test(remarkBefore) ? '' : '.'} ${s.text}`;
        if (caption !== undefined && r.pronounObject) pictured.add(s);
      } else if (r.pronounObject) {
        if (caption !== undefined) pictured.add(s);
        else s.kind = 'conversation';
      }
    }
    // "Thanks! It's tough, but I'm devoted to keeping them healthy": the first statement of a
    // turn, whose "they" or "them" nothing before it in the turn names (the listener's own aside),
    // stands for what the speaker named in their own turn before (their dogs), said in front of it.
    if (s.kind !== 'conversation' && !reading.statements.some((t) => t.kind !== 'conversation')) {
      const they = THEY_SAID_RE.exec(s.text);
      const before =
        they !== null
          ? (body.slice(0, Math.max(0, body.indexOf(s.text))) + s.text.slice(0, they.index)).replace(YOURS_RE, '')
          : '';
      if (they !== null && !THEY_MAY_STAND_FOR_RE.test(before)) {
        const named = ownNamed();
        if (named !== undefined) s.text = `About ${named}: ${s.text}`;
      }
    }
    reading.statements.push(s);
    if (holding) held = s;
    if (mayPointBack && s.kind === 'conversation') pointedBack = s;
    beforeLast = last;
    last = s;
    lastReacts = reacts;
    // Read whole: "Since we last spoke, some big things have happened" catches up, though what
    // follows its opening phrase announces.
    lastAnnounces = r.rule !== undefined && ANNOUNCING_RULES.has(r.rule) && announcesOnly(s.text);
    lastAboutNoOne = r.rule !== undefined && ABOUT_NO_ONE_RULES.has(r.rule) && s.about === who;
  }
  // What the picture shows, without "a photo of" that every caption says: "[image: a red sports car]".
  const shown = caption !== undefined ? whatIsShown(caption) : undefined;
  // Appended last, so a clause joined after it ("… Here's my new mansion - pretty cool huh?") keeps it at the end.
  for (const s of pictured)
    if (
      s.kind !== 'conversation' &&
      !s.text.includes(caption!) &&
      !s.text.includes(shown!) &&
      reading.statements.includes(s)
    )
      s.text = `${s.text} ${shown}`;
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
  // "My sister Ana lives in Lisbon": Ana is also the speaker's sister, whom a later "my sister …" means.
  for (const s of reading.statements) {
    const alias = s.about !== who && s.kind !== 'conversation' ? relationAlias(s.text, s.about, who) : undefined;
    if (alias !== undefined) s.aka = [alias];
  }
  // A request to forget keeps nothing of the turn (it says again what is to be forgotten).
  reading.keep = reading.statements.some((s) => !s.forget);
  // A turn that says something about someone is worth its statements, however it ends.
  if (reading.statements.some((s) => s.kind !== 'conversation'))
    reading.importance = Math.max(reading.importance, estimateImportance(turn.input, turn.output ?? '', true));
  return reading;
}
