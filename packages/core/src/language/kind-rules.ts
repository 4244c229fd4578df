import type { MemoryKind } from '../model/types.js';
import {
  QUOTED_LINE_RE,
  ACTS_ON_SPEAKER_RE,
  ADDRESSED_RE,
  DATED_STEP_RE,
  ANNOUNCEMENT_RE,
  ANNOUNCING_WORDS,
  BARE_REACTION_RE,
  CAPTION_RE,
  CATCH_UP_RE,
  PHATIC,
  SINCE_WE_TALKED_RE,
  SOMETHING_HAPPENED_RE,
  VAGUE_NEWS,
  canBeName,
  DEMONSTRATIVE_DETERMINER_RE,
  THE_DESCRIBED_RE,
  FAVOURITE_RE,
  SPEAKER_ANY_RE,
  FIRST_PERSON_RE,
  FOR_ING_FRAGMENT_RE,
  GERUND_REFERS_BACK_RE,
  IMPLIED_IT_RE,
  FORTUNATE_RE,
  FRAMING_OPENER_RE,
  EXPERIENCE_RE,
  HABIT_RE,
  ONGOING_ACTIVITY_RE,
  LEAVING_ONLY_RE,
  LOOKING_FORWARD_RE,
  OFF_TO_RE,
  OWN_OBJECT_RE,
  NOT_A_PLAN_RE,
  THIS_IS_MINE_RE,
  GENERIC_OUR_RE,
  OUR_HOUSEHOLD_RE,
  IMPLIED_SPEAKER_FUTURE_RE,
  STANDING_INSTRUCTION_RE,
  NOTHING_PLANNED_RE,
  IMPLIED_SPEAKER_NOT_RE,
  IMPLIED_SPEAKER_PRESENT_RE,
  IMPLIED_SPEAKER_RE,
  IMPLIED_SPEAKER_STATE_RE,
  LIKE_THIS_RE,
  LIKING_SHOWN_RE,
  LIKING_THE_RE,
  LISTENER_ANY_RE,
  LISTENER_SUBJECT_RE,
  MADE_ME_RE,
  PASSING_STATE_RE,
  PICTURED_FROM_MINE_RE,
  PAST_EXPERIENCE_RE,
  ONGOING_EXPERIENCE_RE,
  OCCASION_OF_SPEAKER_RE,
  IF_LISTENER_RE,
  OWN_ONE_DID_RE,
  TOLD_TO_LISTENER_RE,
  POINTING_RE,
  PICTURE_HANDED_OVER_RE,
  PRAISE_RE,
  PRONOUN_SUBJECT_RE,
  REACTION_RE,
  REASON_FOR_OWN_RE,
  REQUEST_RE,
  saysOnlyAFeeling,
  namesOwnCause,
  SAID_IN_PASSING,
  SHOWING_RE,
  SMALL_TALK,
  SOUNDS_JUDGED_RE,
  SUCH_AS_FRAGMENT_RE,
  SINGULAR_SPEAKER_RE,
  SPEAKERS_THING_RE,
  TRY_IT_RE,
  VAGUE_TASK_RE,
  NOT_A_TASK_RE,
  OPINION_OF_WHAT_WE_SHOULD_DO_RE,
  HYPOTHETICAL_RE,
  FAVOURITE_OF_NOTHING_RE,
  IT_IS_LEFT_OUT_RE,
  HEARD_OF_LISTENER_RE,
  WISH_RE,
  WITH_SPEAKER_RE,
  // Coverage 3
  DATED_PLAN_RE,
  DOING_NOW_RE,
  DREAM_TO_DO_RE,
  EAGER_TO_DO_RE,
  INTRODUCING_NAMED_RE,
  LASTING_LIKING_RE,
  MATTERS_TO_SPEAKER_RE,
  NOT_AN_AIM_RE,
  NOT_PLANNED_RE,
  SHOWN_RE,
  TITLE_OR_NAME_RE,
  WISHES_TO_DO_RE,
  WITH_LISTENER_RE,
  // Round 6
  ADVICE_AS_IF_RE,
  NOTICED_OF_LISTENER_RE,
  ASKS_THE_LISTENER_RE,
  FAITH_IN_LISTENER_RE,
  PARTICIPLE_SUBJECT_RE,
  BRINGING_ALONG_RE,
  LEAVING_FOR_A_CHORE_RE,
  MAXIM_RE,
  // Coverage 5
  BUSY_DOING_RE,
  GAME_FOR_RE,
  THIRD_PRONOUN_INSIDE_RE,
  REFERENT_DOES_FOR_SPEAKER_RE,
} from './lexicon.js';

/**
 * What a clause of a turn is, decided by ordered tables: the first rule whose test holds wins,
 * and its name says why. Rules read only what `statements.ts` has already found in the clause
 * (its {@link ClauseFacts}), so each English cue lives once, in the lexicon.
 */

/** What `statements.ts` found in one clause before its kind is decided. */
export interface ClauseFacts {
  /** The clause as said (greetings in front removed). */
  text: string;
  /** Whom the clause is about, when its subject names someone (a relation, a name, the speaker's "I"). */
  subject: 'speaker' | 'listener' | 'named' | 'pronoun' | 'none';
  /** Content words (no stopwords, no reactions). */
  contentWords: number;
  /** A cue of the future ("I need to", "I'll", "remind me", an appointment). */
  future: boolean;
  /** A future date named ("tomorrow", "next Friday"). */
  futureDate: boolean;
  /** A past date named ("yesterday", "last week", "8 May 2023"). */
  pastDate: boolean;
  /** A past-tense action or a word of the past ("ago", "last night"). */
  past: boolean;
  /** Identity or possession ("I'm allergic to", "I have two dogs", "Raj has a PhD"). */
  identity: boolean;
  /** An allergy, a condition or a dietary limit of its subject ("I have asthma", "I can't eat gluten"; `SAFETY_STATEMENT_RE`). */
  safety?: boolean;
  /** A liking with an object ("I love hiking"; not "I love how you …"). */
  liking: boolean;
  /** Its object is a pronoun said of something elsewhere, little after it ("I want to pass it on to others"). */
  objectRefersBack?: boolean;
  /** A sentence before it in the same turn reacted to what the other speaker showed or said ("Wow, that's gorgeous!"). */
  afterReaction?: boolean;
  /**
   * What its pronoun stands for is given with it: the clause answers the other speaker's
   * question, which the memory quotes ("Asked "Did you go to the concert?": It was amazing").
   */
  referentGiven?: boolean;
  /** It ends by calling the listener by name ("Enjoy the collaborations, Calvin!"). */
  calledByName?: boolean;
  /** It says only "something", "stuff" or "things" and a verb ("I've been stumped about something"). */
  namesNothing?: boolean;
  /** What the speaker did comes before its cue of the future ("My exam went really well, I'll celebrate tonight"). */
  doneBeforePlan?: boolean;
}

/** What the rules may decide: a kind of memory, `conversation` (the turn keeps it, no memory), or joining the statement before. */
export type ClauseKind = MemoryKind | 'continuation';

/** One rule of a table: a name (why), a test, and what it decides. */
export interface ClauseRule {
  readonly name: string;
  readonly test: (c: ClauseFacts) => boolean;
  readonly kind: ClauseKind;
  /** What the clause tells of is ahead ("Can't wait for our trip next month"): its date is a future one. */
  readonly ahead?: boolean;
  /**
   * Not decided on the clause without the phrase in front of it when that phrase says what the
   * speaker did or has: "Since I lost my job at Door Dash, things have been tough" is about the
   * speaker, though "things have been tough" is about no one. A phrase that only frames the
   * remark ("As for me, …", "Whenever I look out, …") does not count ({@link FRAMING_OPENER_RE}).
   */
  readonly asSaid?: boolean;
  /** Tags the memory it forms carries (`'core'`: always in the prompt, see `config.protectedTags`). */
  readonly tags?: readonly string[];
}

/**
 * Clauses that stay in the episodic turn only: they say nothing durable about a person. Order
 * matters: a reaction to the other speaker is left before its "you" could make it about them.
 */
export const EPISODIC_RULES: readonly ClauseRule[] = [
  // "Please always answer in Spanish", "From now on, don't use emojis", "Never use bullet
  // points": how the speaker wants to be answered, a preference of theirs, before any rule reads
  // it as a request to the listener or a remark about no one.
  { name: 'how to answer me', test: (c) => STANDING_INSTRUCTION_RE.test(c.text), kind: 'preference', tags: ['core'] },
  // "I have no big events coming up", "Nothing much going on": nothing planned, said of now.
  { name: 'nothing planned', test: (c) => NOTHING_PLANNED_RE.test(c.text), kind: 'conversation' },
  // "[image: a photo of a dog]": what a picture showed, not what anyone said.
  { name: 'caption', test: (c) => CAPTION_RE.test(c.text), kind: 'conversation' },
  // "\"I'm gonna make him an offer he can't refuse\" - now that's motivation!": a line someone else
  // said, quoted first, is not the speaker's own plan or view ("\"Brave\" has a lot of
  // significance for me" names a title, not a line).
  { name: 'quoting a line', test: (c) => QUOTED_LINE_RE.test(c.text), kind: 'conversation' },
  // "Here's a pic I took when I volunteered last month", "Check out these kids I met at the
  // shelter": what is shown is something the speaker did (an event; the picture stays in the turn).
  {
    name: 'showing what the speaker did',
    test: (c) => showsSpeakersOwn(c) && c.past,
    kind: 'event',
  },
  // "Here's a shot I got when I volunteered", "Take a look at how we freestyled when we were
  // teenagers": what is shown is the occasion the speaker was at, said in however few words.
  {
    name: 'showing when the speaker did something',
    test: (c) =>
      (POINTING_RE.test(c.text) || SHOWING_RE.test(c.text)) &&
      OCCASION_OF_SPEAKER_RE.test(c.text) &&
      !LISTENER_ANY_RE.test(c.text) &&
      !FOUND_ELSEWHERE_RE.test(c.text),
    kind: 'event',
  },
  // "Here's one of my trophies from a dance contest", "Check out my new workbench": what the speaker has.
  {
    name: "showing the speaker's own",
    test: (c) => showsSpeakersOwn(c) && SPEAKERS_THING_RE.test(c.text),
    kind: 'fact',
  },
  // ── Coverage 3: the row above, said in fewer words ──
  // "Here's a pic of my fam at the beach": what is shown is the speaker's, said in three words
  // ("Check out this pic I took!" names nothing it is).
  {
    name: "showing the speaker's own, briefly",
    test: (c) => showsOwnBriefly(c) && SPEAKERS_THING_RE.test(c.text),
    kind: 'fact',
  },
  // "Here's a pic of the car I'm restoring", "Look at this photo, here's how I'm making a beat for a
  // young artist": what the picture shows the speaker doing now.
  {
    name: 'showing what the speaker is doing',
    test: (c) => showsSpeakersOwn(c, MIN_WORDS_SHOWN_BRIEFLY) && DOING_NOW_RE.test(c.text),
    kind: 'fact',
  },
  // "This is my new puppy", "This is a photo from my sister's wedding": what the picture shows is the speaker's.
  {
    name: "introducing the speaker's own",
    test: (c) => THIS_IS_MINE_RE.test(c.text) && !LISTENER_ANY_RE.test(c.text),
    kind: 'fact',
  },
  // "These are from my trip to Peru", "This is from our wedding": the speaker's occasion the picture is from.
  {
    name: 'what the picture is from',
    test: (c) => PICTURED_FROM_MINE_RE.test(c.text) && !LISTENER_ANY_RE.test(c.text),
    kind: 'event',
  },
  // "Check out this piece I made!", "Look at this": pointing at something shared.
  { name: 'pointing', test: (c) => POINTING_RE.test(c.text), kind: 'conversation' },
  // "Look what I got!", "Here I am with my mom", "I'd rather show you a photo".
  { name: 'showing', test: (c) => SHOWING_RE.test(c.text), kind: 'conversation' },
  // "I've found the picture with the best part of the workshop, take a look", "I took a lot of
  // shots and chose the best one to send to you": a picture handed over, nothing said of the speaker.
  { name: 'handing over a picture', test: (c) => PICTURE_HANDED_OVER_RE.test(c.text), kind: 'conversation' },
  // "I have some big news!", "Got some cool news to share", "Something exciting happened - I had a
  // big life change!": news announced, not said. It joins the statement after it in the turn
  // (`ANNOUNCING_RULES`); alone it stays in the turn.
  { name: 'announcing', test: (c) => announcesOnly(c.text), kind: 'conversation' },
  // "That sounds like a fascinating project!", "You've made so much progress", "I love how you …".
  { name: 'reaction', test: (c) => REACTION_RE.test(c.text), kind: 'conversation' },
  // "A pastry party sounds awesome, count me in!": what the listener said, judged; read as said, so
  // "I usually take the bus, but biking sounds like fun" keeps the speaker's clause in front of it.
  { name: 'judged by how it sounds', test: (c) => SOUNDS_JUDGED_RE.test(c.text), kind: 'conversation', asSaid: true },
  // "You captured the sunset perfectly!", "Taking in kids in need - you're so kind.": praise of the
  // listener ("I have plans for a hike and thought it'd be cool if you came along" invites them,
  // "… some great insights that I want to share with you" tells them).
  {
    name: 'praise',
    test: (c) =>
      LISTENER_ANY_RE.test(c.text.replace(IF_LISTENER_RE, ' ').replace(TOLD_TO_LISTENER_RE, ' ')) &&
      PRAISE_RE.test(c.text) &&
      c.subject !== 'named',
    kind: 'conversation',
  },
  // "Enjoy the collaborations, Calvin!", "Playing guitar in a rock band is awesome, Dave!": said
  // to the listener, by name, and of no one ("I've had some tough times with my business, Jon",
  // "Got a new puppy, Jon!", "Ana moved to Lisbon, Jon" say what is the speaker's or someone's).
  {
    name: 'said to the listener by name',
    test: (c) =>
      c.calledByName === true &&
      // Read whole: what is left after an opening phrase ("…, Jon.") is only the name.
      CALLED_BY_NAME_RE.test(c.text) &&
      c.subject !== 'named' &&
      !SPEAKER_ANY_RE.test(c.text) &&
      !IMPLIED_SPEAKER_RE.test(c.text) &&
      !c.past &&
      !c.pastDate,
    kind: 'conversation',
  },
  // "Glad you bonded over it", "I can imagine how rewarding it is", "I look forward to meeting you".
  { name: 'bare reaction', test: (c) => BARE_REACTION_RE.test(c.text), kind: 'conversation' },
  // "Love that green colour!", "I really like those shapes": what "that" is, the other speaker showed.
  { name: 'liking what was shown', test: (c) => LIKING_SHOWN_RE.test(c.text), kind: 'conversation' },
  // "Wow, that's gorgeous! I love the warm colours.": the liking goes on with the reaction.
  {
    name: 'liking after a reaction',
    test: (c) => c.afterReaction === true && LIKING_THE_RE.test(c.text),
    kind: 'conversation',
  },
  // "Can't wait for our camping trip next month", "I can't wait to start my new job": a plan of the
  // speaker's own ("Can't wait to see it!", "… to see your place" look forward to the listener's).
  { name: 'looking forward', test: looksForwardToOwn, kind: 'event', ahead: true },
  // ── Coverage 3: what the speaker means to do, plans with a date, or wishes to do, said with what it is ──
  // "I'm so excited to learn about Japanese culture", "I'm thrilled to make a family for kids who
  // need one": what the speaker means to do ("… to see what the future holds" is a feeling).
  { name: 'eager to do something named', test: eagerToDo, kind: 'fact' },
  // "Let's get everything ready and paint next Saturday", "Can't wait to paint with you next
  // Saturday": a plan with the listener, dated ("Let's make tomorrow unforgettable" plans nothing).
  { name: 'plan with its date', test: datedPlan, kind: 'event', ahead: true },
  // "It's been a dream to adopt and provide a safe, loving home for kids", "It brings me joy to
  // spread that feeling": the "it" stands for what the speaker means or loves to do, said after it.
  { name: 'a dream of doing something named', test: dreamsOfDoing, kind: 'fact' },
  // "That one is Max, my childhood dog", "This is Max – he's so lovable and playful": someone of
  // the speaker's, introduced by name ("This" is no pronoun that refers back here).
  {
    name: "introducing someone of the speaker's by name",
    test: (c) => {
      const name = INTRODUCING_NAMED_RE.exec(c.text)?.[1];
      return name !== undefined && canBeName(name) && !LISTENER_ANY_RE.test(c.text);
    },
    kind: 'fact',
  },
  // "I really wish I could go on a road trip with a furry companion": what the speaker would like.
  { name: 'wishing to do something named', test: wishesToDo, kind: 'preference' },
  // "We feel so lucky to have Biscuit", "I'm grateful for my team at work": whom or what the speaker has.
  { name: 'fortunate to have', test: fortunateToHave, kind: 'fact' },
  // ── Coverage 5 ──
  // "I'm down for a hike with you and your dogs", "I'm always down to give movie recommendations":
  // what the speaker is game for, named ("I'm down for it", "I'm down to try it" are wishes: 'wish').
  {
    name: 'game for something named',
    test: (c) => GAME_FOR_RE.test(c.text) && !THIRD_PRONOUN_INSIDE_RE.test(c.text),
    kind: 'preference',
  },
  // "I've been busy with my garden", "Been busy renovating the kitchen": what the speaker has been
  // doing ("Been busy with work" is a passing state).
  { name: 'busy with something named', test: (c) => BUSY_DOING_RE.test(c.text), kind: 'event' },
  // "I'm off to do some taekwondo!", "I'm off to go swimming with the kids": what the speaker
  // leaves to do ("I'm off to bed" only signs off, 'addressed').
  { name: 'leaving to do something', test: (c) => leavesToDoSomething(c.text), kind: 'event' },
  // "I really respect you for that", "I recommend trying it", "I won't give up!", "I can't wait".
  { name: 'addressed', test: (c) => ADDRESSED_RE.test(c.text), kind: 'conversation' },
  // "A lot's happened since we talked", "I'm still figuring out the details".
  // "Been a busy week since we talked", "Something exciting happened recently!": not yet what happened.
  { name: 'catching up', test: (c) => CATCH_UP_RE.test(c.text) || catchesUpVaguely(c.text), kind: 'conversation' },
  // "Lately, I've been stumped about something", "I'm starting some big new things too!": what,
  // the turn says elsewhere or not at all.
  { name: 'names nothing', test: (c) => c.namesNothing === true, kind: 'conversation' },
  // "I heard you got a new job!": news of the listener's, which their own turn holds.
  { name: 'heard of the listener', test: (c) => HEARD_OF_LISTENER_RE.test(c.text), kind: 'conversation' },
  // "I would get two turtles today if I could!", "I would've loved to hear that music": what did not happen.
  { name: 'hypothetical', test: (c) => HYPOTHETICAL_RE.test(c.text), kind: 'conversation' },
  // "I'd love to help", "Let me know", "I hope so", "I'll keep you posted".
  { name: 'wish', test: (c) => WISH_RE.test(c.text), kind: 'conversation' },
  // "I'm so tired", "it's pretty late already", "Been a busy week".
  // "I'm so happy because I finally finished my painting" names its own cause: what the memory keeps.
  { name: 'passing state', test: passingState, kind: 'conversation' },
  // "Just trying to find a balance between work and other activities", "Busy few weeks for sure,
  // but I'm pushing through": how the speaker is doing now, the "I" left out. "Just got a new
  // puppy" (an event) and "Been vegetarian for ten years" (lasting) say more.
  {
    name: 'passing state, the "I" left out',
    test: (c) => IMPLIED_SPEAKER_STATE_RE.test(c.text) && !c.past && !c.pastDate && !c.futureDate,
    kind: 'conversation',
  },
  // "I'm gonna make it happen!", "Taking risks pays off!", "Seeing it makes me think of …": the lexicon's table.
  { name: 'said in passing', test: (c) => SAID_IN_PASSING.some((p) => p.re.test(c.text)), kind: 'conversation' },
  // ── small talk (issue 28, precision) ──
  // "This week's been really busy for me", "All my hard work is paying off", "Missed chatting with ya!": the lexicon's table.
  // Read as said: "Since I lost my job at Door Dash, things have been tough" says what the speaker did.
  {
    name: 'small talk',
    test: (c) => SMALL_TALK.some((p) => p.re.test(c.text)),
    kind: 'conversation',
    asSaid: true,
  },
  // "I felt so accepted", "I'm so excited to meet everyone": a feeling, not what it is about.
  { name: 'feeling', test: (c) => saysOnlyAFeeling(c.text), kind: 'conversation' },
  // ── Chores, things brought along, maxims (issue 28, precision, round 6) ──
  // "I'm going to bring some snacks", "I'll bring drinks too": with no date, nothing to keep.
  {
    name: 'bringing something along',
    test: (c) => BRINGING_ALONG_RE.test(c.text) && !c.futureDate,
    kind: 'conversation',
  },
  // "I'd put a GPS sensor on your keys!", "If I were you, I'd take the job": advice to the listener.
  { name: "advice as if in the listener's place", test: (c) => ADVICE_AS_IF_RE.test(c.text), kind: 'conversation' },
  // "I have faith in you!", "Mixed emotions are rough, but I believe in you": the listener cheered
  // on ("I believe in you, and I'm starting a club for it" says more of the speaker).
  {
    name: 'faith in the listener',
    test: (c) =>
      FAITH_IN_LISTENER_RE.test(c.text) && !SINGULAR_SPEAKER_RE.test(c.text.replace(FAITH_IN_LISTENER_RE, ' ')),
    kind: 'conversation',
  },
  // "By the way, I noticed a spiderman pin on your purse": the listener's, which their own turn holds.
  { name: 'noticed of the listener', test: (c) => NOTICED_OF_LISTENER_RE.test(c.text), kind: 'conversation' },
  // "I was wondering if you have any tips for …", "any advice on that": asked of the listener, a
  // mark or none ("I started a pottery class, any tips?" still says what the speaker did).
  { name: 'asks the listener', test: (c) => ASKS_THE_LISTENER_RE.test(c.text), kind: 'conversation', asSaid: true },
  // "We gotta look after our health", "We should stick together": what everyone should do.
  {
    name: 'a maxim',
    test: (c) => MAXIM_RE.test(c.text) && !c.futureDate && !SINGULAR_SPEAKER_RE.test(c.text),
    kind: 'conversation',
  },
  // "For encouraging me to try new genres.": no subject, no verb; the rest of the sentence before.
  { name: 'for-ing fragment', test: (c) => FOR_ING_FRAGMENT_RE.test(c.text), kind: 'continuation' },
  // ── "like" meaning "such as" (issue 28, precision) ──
  // "Like when we went camping.": an example of the statement before; kept whole with it.
  { name: 'such-as fragment', test: (c) => SUCH_AS_FRAGMENT_RE.test(c.text), kind: 'continuation' },
  // "Definitely one of my favorites!": of what, the statement before says; kept whole with it.
  { name: 'a favourite of what was said', test: (c) => FAVOURITE_OF_NOTHING_RE.test(c.text), kind: 'continuation' },
  // "Definitely what I deserve after all this hard work", "Totally worth the wait": the "it is"
  // left out; what is judged, the statement before says (kept whole with it), or the question quoted with it.
  {
    name: 'it is left out',
    test: (c) => IT_IS_LEFT_OUT_RE.test(c.text) && c.referentGiven !== true,
    kind: 'continuation',
  },
  // "It was so powerful.": its referent is in the statement before; kept whole with it.
  // With the question it answers quoted, the referent is said: the kind rules decide.
  { name: 'refers back', test: (c) => c.subject === 'pronoun' && c.referentGiven !== true, kind: 'continuation' },
  // "Seeing them so happy makes me happy", "Helps me chill and enjoy the view": an activity with
  // "them", or a verb whose "it" is left out; what they are is said before (kept whole with it).
  {
    name: 'refers back unsaid',
    test: (c) => (GERUND_REFERS_BACK_RE.test(c.text) || IMPLIED_IT_RE.test(c.text)) && c.referentGiven !== true,
    kind: 'continuation',
  },
  // "I want to pass it on to others", "We love it": what "it" is, is said before; kept whole with it.
  {
    name: 'object refers back',
    test: (c) => c.objectRefersBack === true && c.referentGiven !== true,
    kind: 'continuation',
  },
  // "I'm keen to give it a shot", "I'm a big fan of scents like this!", "Really made me think about …":
  // what was shown or said, even after a question.
  {
    name: 'refers to what was said',
    test: (c) => TRY_IT_RE.test(c.text) || LIKE_THIS_RE.test(c.text) || MADE_ME_RE.test(c.text),
    kind: 'continuation',
  },
  // "Life's unpredictable", "Volunteering is a great way to meet people": about no one.
  // "Animals have a way of bringing us happiness", "Remembering those we love is important":
  // "we" and "us" said of everyone. "Storm forced us to cancel our getaway", "we were part of it":
  // the speaker's own.
  {
    name: 'generic',
    test: (c) => c.subject === 'none' && !SPEAKER_ANY_RE.test(c.text),
    kind: 'conversation',
    asSaid: true,
  },
  // "Our loved ones give us strength to tackle any challenge", "Our actions can have a big impact",
  // "Our health can really put a damper on things", "We all make mistakes", "We gotta push
  // ourselves …": "our" and "we" said of everyone. "Our home can be so cozy" is the speaker's.
  {
    name: 'generic "our"',
    test: (c) =>
      GENERIC_OUR_RE.test(c.text) &&
      !c.past &&
      !c.pastDate &&
      !c.futureDate &&
      !SINGULAR_SPEAKER_RE.test(c.text) &&
      !OUR_HOUSEHOLD_RE.test(c.text),
    kind: 'conversation',
  },
];

/** A name called after a comma at a clause's end ("…, Calvin!"). */
const CALLED_BY_NAME_RE = /,\s+\p{Lu}[\p{L}\p{M}'’-]*\s*[!.…?]*$/u;

/**
 * Whether a clause points at or shows something and says the speaker's part in it ("… I took",
 * "… my trophies"), not said to the listener ("I'll show you …"). "Check out this piece I made!"
 * or "Check out this pic I took!" alone names nothing it is; "a pic I found online" is no one's.
 */
/** A picture that is not the speaker's ("… I found online", "… I came across", "one of them"), or a teaser ("Look what I got!"). */
const FOUND_ELSEWHERE_RE =
  /\b(?:online|on\s+the\s+(?:internet|web)|came\s+across|of\s+them)\b|\blook\s+(?:what|who)\b/iu;

function showsSpeakersOwn(c: ClauseFacts, least = 4): boolean {
  return (
    (POINTING_RE.test(c.text) || SHOWING_RE.test(c.text)) &&
    c.contentWords >= least &&
    SINGULAR_SPEAKER_RE.test(c.text) &&
    !LISTENER_ANY_RE.test(c.text) &&
    !FOUND_ELSEWHERE_RE.test(c.text)
  );
}

/**
 * Whether a clause only catches up: it says when the speakers last talked, or that something
 * happened, and nothing else but how the time was ({@link VAGUE_NEWS}): "Been a busy week since we
 * talked", "Some pretty cool stuff happened since we talked", "Something exciting happened recently
 * for me". "Since we last spoke, I started a pottery class" says what happened.
 */
function catchesUpVaguely(text: string): boolean {
  if (!SINCE_WE_TALKED_RE.test(text) && !SOMETHING_HAPPENED_RE.test(text)) return false;
  const words =
    text
      .replace(new RegExp(SINCE_WE_TALKED_RE.source, 'giu'), ' ')
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  return words.every((w) => VAGUE_NEWS.has(w) || PHATIC.has(w));
}

/**
 * Whether a clause only announces news: it says "news", "an update", "a change" or that something
 * happened, and nothing else but how good the news is and how the time was ({@link
 * ANNOUNCING_WORDS}, {@link VAGUE_NEWS}): "I have some big news to share!", "Something really
 * exciting happened to me - I just had a big life change!". "Big news - I got the job!" says it.
 */
/** A negation: "No changes for me", "Nothing new", "not much news". */
const NO_NEWS_RE = /\b(?:no|not|nothing|none|never|any)\b|n['’]t\b/iu;

export function announcesOnly(text: string): boolean {
  // "Since we last talked, a lot has happened" catches up ('catching up'); "No changes for me" announces nothing.
  if (SINCE_WE_TALKED_RE.test(text) || CATCH_UP_RE.test(text) || NO_NEWS_RE.test(text)) return false;
  if (!ANNOUNCEMENT_RE.test(text) && !SOMETHING_HAPPENED_RE.test(text)) return false;
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return words.every((w) => ANNOUNCING_WORDS.has(w) || VAGUE_NEWS.has(w) || PHATIC.has(w));
}

/** The rules of a clause that announces what the statement after it in the turn says: the two are one statement. */
export const ANNOUNCING_RULES: ReadonlySet<string> = new Set(['announcing']);

/** Where a remark after what is looked forward to starts: a dash or a comma ("… next month - it's gonna be awesome!"). */
const AFTER_WHAT_IS_AHEAD_RE = /\s+[-–—]\s+|,\s+/u;

/** Whether a clause looks forward to something that names the speaker's own, or to an occasion with its date; not the listener's. */
function looksForwardToOwn(c: ClauseFacts): boolean {
  const m = LOOKING_FORWARD_RE.exec(c.text);
  // "… for our hike next month - it's gonna be awesome!": what is ahead ends where a remark on it starts.
  const ahead = m?.[2]?.split(AFTER_WHAT_IS_AHEAD_RE)[0];
  if (ahead === undefined || LISTENER_ANY_RE.test(c.text) || NOT_A_PLAN_RE.test(ahead) || c.contentWords < 3)
    return false;
  // "… for tomorrow's grand opening": an occasion with its date. "… to visit next month": to do what, is said elsewhere.
  const occasion = m![1]!.toLowerCase() !== 'to' && c.futureDate;
  return occasion || SPEAKERS_THING_RE.test(ahead) || /\bour\s+\p{L}{3,}/iu.test(ahead);
}

/** Whether a clause says the speaker leaves to do something that is more than signing off ({@link OFF_TO_RE}). */
export function leavesToDoSomething(text: string): boolean {
  const what = OFF_TO_RE.exec(text)?.[1];
  // "… to spend some time with them now": whom, is said elsewhere.
  return (
    what !== undefined &&
    !LEAVING_ONLY_RE.test(what) &&
    !LEAVING_FOR_A_CHORE_RE.test(what) &&
    !LISTENER_ANY_RE.test(what) &&
    !/\b(?:it|them|him|her|this|that|these|those)\b/iu.test(what)
  );
}

/** Whether a clause says a passing state in few words ({@link PASSING_STATE_RE}) and not its own cause after it ({@link namesOwnCause}). */
function passingState(c: ClauseFacts): boolean {
  const m = PASSING_STATE_RE.exec(c.text);
  return m !== null && c.contentWords <= 3 && !namesOwnCause(c.text.slice(m[0].length), c.text);
}

// ── Coverage 3: the tests of the rows above ──

/** Content words a clause that shows the speaker's own may say and still name it ("Here's a pic of my fam at the beach": 3). */
const MIN_WORDS_SHOWN_BRIEFLY = 3;

/** Whether a clause shows the speaker's own ({@link showsSpeakersOwn}) in {@link MIN_WORDS_SHOWN_BRIEFLY} words. */
function showsOwnBriefly(c: ClauseFacts): boolean {
  return showsSpeakersOwn(c, MIN_WORDS_SHOWN_BRIEFLY);
}

/** Content words a clause of looking forward to doing, or of wishing to, must have ("I'm really excited to try different sushi": 4). */
const MIN_WORDS_OF_AN_AIM = 4;
/** Content words such a clause must have when it names a place, a person or a title ("I was excited to explore Shinjuku": 2). */
const MIN_WORDS_OF_A_NAMED_AIM = 2;

/** Whether a clause says the speaker is eager to do something it names ({@link EAGER_TO_DO_RE}, {@link NOT_AN_AIM_RE}). */
function eagerToDo(c: ClauseFacts): boolean {
  const m = EAGER_TO_DO_RE.exec(c.text);
  if (m === null) return false;
  // "… to watch this new show called "The Wheel of Time"": "this" is said of what the clause names.
  const what = TITLE_OR_NAME_RE.test(m[2]!) ? aimOf(m[1]!, m[2]!).replace(/\bthis\b/giu, ' ') : aimOf(m[1]!, m[2]!);
  // "I was excited to explore Shinjuku": a name says in one word what the speaker meant to do.
  const least = TITLE_OR_NAME_RE.test(what) ? MIN_WORDS_OF_A_NAMED_AIM : MIN_WORDS_OF_AN_AIM;
  return c.contentWords >= least && !NOT_AN_AIM_RE.test(what) && !LISTENER_ANY_RE.test(c.text);
}

/** Whether a clause says doing something it names is the speaker's dream or joy ({@link DREAM_TO_DO_RE}). */
function dreamsOfDoing(c: ClauseFacts): boolean {
  const m = DREAM_TO_DO_RE.exec(c.text);
  return (
    m !== null &&
    c.contentWords >= MIN_WORDS_OF_AN_AIM &&
    !NOT_AN_AIM_RE.test(aimOf(m[1]!, m[2]!)) &&
    !LISTENER_ANY_RE.test(c.text)
  );
}

/** Where what a clause means to do ends: a relative clause, a dash or a comma ("… for kids who need it", "… - it's like a ripple effect"). */
const AIM_END_RE = /\s+(?:who|which|that|where|when|because|since)\b|\s+[-–—]+\s+|,/iu;

/** What a clause means to do, from its verb to where it ends ({@link AIM_END_RE}): the words a pronoun there would leave unnamed. */
function aimOf(verb: string, rest: string): string {
  return `${verb} ${rest.split(AIM_END_RE, 1)[0]}`;
}

/** Whether a clause plans something with the listener for a date ahead ({@link DATED_PLAN_RE}). */
function datedPlan(c: ClauseFacts): boolean {
  const m = DATED_PLAN_RE.exec(c.text);
  const what = m?.[2];
  if (what === undefined || !c.futureDate) return false;
  // "Can't wait to visit next month": with whom, is said elsewhere; "Let's …" says it.
  const joint = m![1] !== undefined || new RegExp(WITH_LISTENER_RE.source, 'iu').test(what);
  return joint && !NOT_PLANNED_RE.test(what) && !LISTENER_ANY_RE.test(what.replace(WITH_LISTENER_RE, ' '));
}

/** Whether a clause wishes the speaker could do something it names ({@link WISHES_TO_DO_RE}). */
function wishesToDo(c: ClauseFacts): boolean {
  const what = WISHES_TO_DO_RE.exec(c.text)?.[1];
  return (
    what !== undefined &&
    c.contentWords >= MIN_WORDS_OF_AN_AIM &&
    !NOT_A_PLAN_RE.test(what) &&
    !SHOWN_RE.test(what) &&
    !LISTENER_ANY_RE.test(what)
  );
}

/** A capitalised name as written (case-sensitive, unlike the lexicon's `iu` patterns): "Biscuit", "Ana". */
const WRITTEN_NAME_RE = /^\p{Lu}\p{Ll}/u;

/** Whether a clause says the speaker is lucky or grateful to have someone or something of their own. */
function fortunateToHave(c: ClauseFacts): boolean {
  const m = FORTUNATE_RE.exec(c.text);
  if (m === null || LISTENER_ANY_RE.test(c.text)) return false;
  const had = m[1]!;
  return OWN_OBJECT_RE.test(had) || (WRITTEN_NAME_RE.test(had) && canBeName(had.split(/\s+/u)[0]!));
}

/**
 * The rules that react to what the other speaker showed or said: after one of them in a turn, a
 * liking of "the …" goes on with the reaction, and a statement that refers back is not about it.
 */
export const REACTION_RULES: ReadonlySet<string> = new Set([
  'pointing',
  'showing',
  'reaction',
  'judged by how it sounds',
  'praise',
  'said to the listener by name',
  'bare reaction',
  'liking what was shown',
  'liking after a reaction',
  'addressed',
]);

/**
 * Rules that say too little of the speaker for a clause whose referent is only in what the other
 * speaker said before, even with that remark quoted: "It's moments like these that give me hope"
 * (an answer to nothing asked), "I'll make sure to remember this" (a promise, no task). A clause
 * read by another kind rule ("I tried it last year", "That one was my favourite too") stands with
 * the remark. An "answer" that tells what the thing did to the speaker ("It helped me a lot with
 * my back pain") does too ({@link REFERENT_DID_RE}).
 */
export const WEAK_REPLY_RULES: ReadonlySet<string> = new Set(['answer', 'task']);

/** Content words an answer that names nothing of its own must say ("It was a surreal moment" is a reaction: 2). */
const MIN_ANSWER_WORDS = 3;

/** Kinds of memory, for a clause about someone. First match wins. */
export const KIND_RULES: readonly ClauseRule[] = [
  // "I have type 2 diabetes", "I'm vegetarian", "I can't eat gluten", "My son has epilepsy", "Raj
  // is diabetic": what must reach a food or health question, a fact of the speaker or of whom the
  // clause names ("I have to avoid dairy" is no task). Not the listener's ("You have asthma").
  {
    name: 'safety',
    test: (c) => c.safety === true && (c.subject === 'speaker' || c.subject === 'named'),
    kind: 'fact',
  },
  // "I totally agree that we should fight for more resources for our schools": what the speaker
  // thinks should be done, a view of theirs and nothing they will do.
  {
    name: 'an opinion of what should be done',
    test: (c) => c.subject === 'speaker' && !c.futureDate && OPINION_OF_WHAT_WE_SHOULD_DO_RE.test(c.text),
    kind: 'fact',
  },
  // "I'll make sure to have a safe trip", "I'm gonna make this work!": a wish in reply or a
  // resolve, nothing to do ("We'll have a great time at the lake tomorrow" dates a plan).
  {
    name: 'no plan',
    test: (c) => c.future && !c.futureDate && NOT_A_TASK_RE.test(c.text),
    kind: 'conversation',
  },
  // Something to do: a cue of the future with an action ("I need to renew my passport"), not a
  // vague one ("I'll keep you posted", "I'll start thinking about it").
  {
    name: 'task',
    test: (c) =>
      c.future &&
      (c.futureDate || !c.pastDate) &&
      !VAGUE_TASK_RE.test(c.text) &&
      // "My exam went really well, I'm gonna celebrate with friends": what happened, first ("…,
      // I'll celebrate tonight" dates a plan).
      (c.doneBeforePlan !== true || c.futureDate) &&
      // "I'll take your advice", "I'll fill you in when I get back": a promise in reply, unless dated.
      (c.futureDate || !LISTENER_ANY_RE.test(c.text)),
    kind: 'task',
  },
  // "I graduated last week!", "We studied in Lisbon in 2019": a step of one's life with its date is
  // an event (it keeps the date); "I graduated in history" is who the speaker is.
  { name: 'dated step', test: (c) => c.identity && c.pastDate && DATED_STEP_RE.test(c.text), kind: 'event' },
  { name: 'identity', test: (c) => c.identity, kind: 'fact' },
  { name: 'past', test: (c) => c.pastDate || c.past, kind: 'event' },
  {
    name: 'liking',
    test: (c) => c.liking || ACTS_ON_SPEAKER_RE.test(c.text) || FAVOURITE_RE.test(c.text),
    kind: 'preference',
  },
  // "Pottery is a huge part of my life", "Creativity and family keep me at peace", "This
  // necklace is super special to me": what the clause says acts on the speaker, who is in it.
  // So does the speaker's household: "Knowing they're happy about our marriage is so comforting".
  {
    name: 'the speaker in it',
    test: (c) =>
      c.subject === 'none' &&
      c.contentWords >= 3 &&
      !c.future &&
      (SINGULAR_SPEAKER_RE.test(c.text) || OUR_HOUSEHOLD_RE.test(c.text)) &&
      !LISTENER_ANY_RE.test(c.text) &&
      !REQUEST_RE.test(c.text),
    kind: 'fact',
  },
  // "I play clarinet", "I knit scarves", "I'm learning Spanish": a habit, a skill or an activity
  // under way, said in few words.
  {
    name: 'a habit or skill',
    test: (c) =>
      c.subject === 'speaker' &&
      !c.future &&
      c.contentWords >= 2 &&
      (HABIT_RE.test(c.text) || ONGOING_ACTIVITY_RE.test(c.text)) &&
      !LISTENER_ANY_RE.test(c.text),
    kind: 'fact',
  },
  // "I've played chess before", "I've never been to Boston": an experience, said in few words.
  {
    name: 'an experience',
    test: (c) =>
      c.subject === 'speaker' &&
      !c.future &&
      c.contentWords >= 2 &&
      EXPERIENCE_RE.test(c.text) &&
      !LISTENER_ANY_RE.test(c.text),
    kind: 'fact',
  },
  // "I volunteer at the shelter on weekends": a first-person statement of substance ("Gonna take
  // lots of pics", a plan without its date, is none).
  {
    name: 'about the speaker',
    test: (c) => c.subject === 'speaker' && c.contentWords >= 3 && !c.future && !IMPLIED_SPEAKER_FUTURE_RE.test(c.text),
    kind: 'fact',
  },
  // "My wife teaches math at the local school", "My mom was interested in art", "My partner
  // helps me stay focused": what the speaker says of someone of theirs, whom the clause names by
  // "my" (a name alone may be the listener's: "Maria is such an inspiration"; "our" may be
  // everyone's: "Our kids are our future").
  {
    name: "about the speaker's own",
    test: (c) =>
      c.subject === 'named' &&
      FIRST_PERSON_RE.test(c.text) &&
      SINGULAR_SPEAKER_RE.test(c.text) &&
      c.contentWords >= 3 &&
      !c.future &&
      !LISTENER_ANY_RE.test(c.text),
    kind: 'fact',
  },
  // ── Coverage 5 ──
  // Replying to "Running can really boost your mood": "This has been great for my mental health",
  // "It helps me stay balanced": what the thing the other speaker named does for the speaker, said
  // with it (quoted), in however few words.
  {
    name: 'what it does for the speaker',
    test: (c) =>
      c.referentGiven === true && c.subject === 'pronoun' && !c.future && REFERENT_DOES_FOR_SPEAKER_RE.test(c.text),
    kind: 'fact',
  },
  // Asked "What do you love about camping?": "It's a chance to be together": what the answerer said of it.
  {
    name: 'answer',
    test: (c) => c.referentGiven === true && c.subject !== 'none' && c.contentWords >= MIN_ANSWER_WORDS && !c.future,
    kind: 'fact',
  },
  // ── Coverage 3 ──
  // "Friendship means a lot to me", "Nature is so therapeutic for me", "My family has been my rock
  // through everything": what matters to the speaker, said of no one else's ("Your support means a
  // lot to me" thanks the listener).
  // "I will always love reading": a liking said to last, not a task ({@link VAGUE_TASK_RE} leaves it).
  { name: 'a lasting liking', test: (c) => LASTING_LIKING_RE.test(c.text), kind: 'preference' },
  {
    name: 'what matters to the speaker',
    test: (c) =>
      c.subject !== 'listener' &&
      c.subject !== 'pronoun' &&
      !c.future &&
      MATTERS_TO_SPEAKER_RE.test(c.text) &&
      !LISTENER_ANY_RE.test(c.text),
    kind: 'fact',
  },
];

/**
 * The kind of a clause: the episodic rules, then the kind rules; `conversation` when none holds.
 * The episodic rules also read the clause without a phrase in front of it ("Maria, I'm glad you
 * …", "Working together, we can …"), so a reaction or a wish is one however it opens.
 */
export function clauseKind(c: ClauseFacts): {
  kind: ClauseKind;
  rule: string;
  ahead?: boolean;
  tags?: readonly string[];
} {
  const rest = speakerClauseFirst(c.text) ? undefined : withoutOpener(c.text);
  const core = rest !== undefined ? { ...c, text: rest } : undefined;
  const opener = rest !== undefined ? c.text.slice(0, c.text.length - rest.length) : '';
  const speakersOpener = SPEAKER_ANY_RE.test(opener) && !FRAMING_OPENER_RE.test(opener);
  const decided = (r: ClauseRule) => ({
    kind: r.kind,
    rule: r.name,
    ...(r.ahead ? { ahead: true } : {}),
    ...(r.tags ? { tags: r.tags } : {}),
  });
  for (const r of EPISODIC_RULES)
    if (r.test(c) || (core !== undefined && r.kind === 'conversation' && !(r.asSaid && speakersOpener) && r.test(core)))
      return decided(r);
  for (const r of KIND_RULES) if (r.test(c)) return decided(r);
  return { kind: 'conversation', rule: 'none' };
}

/** A phrase in front of the subject, closed by a comma ("At the retreat, …", "Since speaking last, …"). */
const LEADING_PHRASE_RE = /^[^,;:!?]{3,60},\s+/u;
/** What a comma closes after "I …" that only opens a remark: "I have to say, …", "I mean, …", "I gotta admit, …". */
const DISCOURSE_OPENER_END_RE =
  /\b(?:say|admit|tell\s+you|think|thought|know|mean|agree|guess|bet|believe|feel|hope|swear|promise|see|understand|get\s+it|honest|sure|serious)\s*$/iu;

/**
 * Whether what a comma closes at the clause's start is the speaker's own clause, not a phrase in
 * front of a subject: "I'm currently learning the cello, it's tough", "Spent the weekend
 * repainting my kitchen, which was overdue", "My agent found me this awesome place, so thankful!".
 * The remark after the comma is about that clause.
 * A short opener ("I mean, …") or one that only opens a remark ("I have to say, …") is none.
 */
/** "I …", "we …" opening a clause ("My hard work is paying off, …" is a thing of the speaker's, not the speaker). */
const SPEAKER_PRONOUN_RE =
  /^(?:(?:so|and|but|now|well|yeah|also|actually|honestly)[,\s]+)*(?:i|we)(?:['’](?:m|ve|d|ll|re))?\s/iu;
/** A remark on the clause before the comma: "it's …", "which was …", "but it's …", "so that was …". */
const REMARK_ON_CLAUSE_RE =
  /^(?:(?:and|but|so|though)\s+)?(?:it|it['’]s|which|that|that['’]s|this|this\s+is|they['’]re|was|so)\b/iu;

function speakerClauseFirst(text: string): boolean {
  const m = LEADING_PHRASE_RE.exec(text);
  if (m === null) return false;
  const opener = m[0].replace(/,\s+$/u, '');
  if (opener.split(/\s+/u).length < 5 || DISCOURSE_OPENER_END_RE.test(opener) || LISTENER_ANY_RE.test(opener))
    return false;
  // "…, it's tough", "…, which was overdue": a remark on the clause. "…, thanks!", "…, take a
  // look!", "…, but you got this": the clause is said to the listener, and the rest decides.
  const remark = text.slice(m[0].length);
  if (!REMARK_ON_CLAUSE_RE.test(remark) || LISTENER_ANY_RE.test(remark)) return false;
  return (
    SPEAKER_PRONOUN_RE.test(opener) ||
    OWN_ONE_DID_RE.test(opener) ||
    IMPLIED_SPEAKER_RE.test(opener) ||
    IMPLIED_SPEAKER_PRESENT_RE.test(opener) ||
    IMPLIED_SPEAKER_NOT_RE.test(opener)
  );
}

/** A clause without the phrase in front of its subject ("Whenever I come here, I bring it" → "I bring it"); undefined when none. */
export function withoutOpener(text: string): string | undefined {
  const opener = LEADING_PHRASE_RE.exec(text);
  return opener ? text.slice(opener[0].length) : undefined;
}

/**
 * Whether a clause's subject is the speaker, the listener, a pronoun that refers back, or no one.
 * `afterStatement`: a statement came before it in the turn, so "Those supportive friends …" or
 * "The views were spectacular" points back at it; first in a turn, "This necklace …" names what
 * it is about.
 */
export function subjectOf(text: string, named: boolean, afterStatement = false): ClauseFacts['subject'] {
  if (named) return 'named';
  if (LISTENER_SUBJECT_RE.test(text)) return 'listener';
  // "That's why I …" first in a turn is the speaker's own; right after a statement it goes on with it.
  if (REASON_FOR_OWN_RE.test(text) && !afterStatement) return 'speaker';
  if (
    PRONOUN_SUBJECT_RE.test(text) ||
    (afterStatement && (DEMONSTRATIVE_DETERMINER_RE.test(text) || THE_DESCRIBED_RE.test(text)))
  )
    return 'pronoun';
  if (
    FIRST_PERSON_RE.test(text) ||
    (IMPLIED_SPEAKER_RE.test(text) && !PARTICIPLE_SUBJECT_RE.test(text)) ||
    IMPLIED_SPEAKER_PRESENT_RE.test(text) ||
    IMPLIED_SPEAKER_NOT_RE.test(text) ||
    PAST_EXPERIENCE_RE.test(text) ||
    ONGOING_EXPERIENCE_RE.test(text) ||
    WITH_SPEAKER_RE.test(text) ||
    ACTS_ON_SPEAKER_RE.test(text)
  )
    return 'speaker';
  // "Besides the dance classes, I'm offering mentoring", "At the retreat, I had time to reflect".
  const rest = withoutOpener(text);
  if (rest !== undefined && FIRST_PERSON_RE.test(rest)) return 'speaker';
  return 'none';
}
