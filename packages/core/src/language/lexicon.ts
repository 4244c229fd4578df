/**
 * The lexicon of Zerda's language layer: the English words and regex fragments that the
 * readings of a turn (`turn-reading.ts`, `statements.ts`), of time (`time-expressions.ts`) and of
 * a question build on, each named once. A fragment is a string of regex alternatives meant to be
 * composed into a larger pattern, as `RELATIONS` is in "my (sister|brother|…)".
 */

/** English month names, January first (index = `Date` month). */
export const MONTH_NAMES: readonly string[] = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
/** A month name or its abbreviation (regex alternatives, case-insensitive use). */
export const MONTH =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
/** English weekday names, Monday first (index = day of a week that starts on Monday). */
export const WEEKDAY_NAMES: readonly string[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
];
/**
 * Verbs in the simple past, irregular ones by name and regular ones by their "-ed". Used by the
 * time expressions and the statements' past-tense reading.
 */
export const PAST_VERB =
  'went|got|had|saw|made|took|met|bought|ran|won|lost|began|gave|found|left|came|did|wrote|read|joined|became|drove|flew|ate|held|built|sold|spent|taught|caught|brought|felt|heard|kept|told|paid|sent|sang|swam|threw|wore|grew|knew|drew|rode|fell|broke|chose|spoke|woke|forgot|quit|sat|stood|[\\p{L}]{2,}ed';
/** Words that carry no information on their own: reactions, greetings, thanks, agreement. */
export const PHATIC: ReadonlySet<string> = new Set(
  (
    'hi hello hey hiya howdy yo greetings morning afternoon evening night good great cool nice awesome amazing wow oh ah ooh ' +
    'haha lol hmm um uh yeah yes yep yup no nope ok okay sure thanks thank thx ty welcome bye goodbye cya later see soon ' +
    'care glad happy sorry congrats congratulations wonderful fantastic incredible impressive lovely beautiful super ' +
    'totally absolutely definitely exactly really indeed right true agreed agree sounds sound seems remember noted got ' +
    'understood hear heard know knew think mean guess lot much many way thing things stuff something anything everything ' +
    'wish luck hope fun tell told let keep going gonna wanna kind sort pretty quite bit little awesome cute sweet dear ' +
    'buddy pal man dude friend glad proud excited thrilled stoked interesting cool neat'
  ).split(' '),
);

/** Relations a statement (or a question) may name its subject by: "my sister", "our dog". Regex alternatives. */
export const RELATIONS =
  'sister|brother|sibling|mother|mom|mum|mommy|father|dad|daddy|parents?|wife|husband|partner|spouse|son|daughter|kids?|child|children|baby|' +
  'friend|best\\s+friend|boss|manager|coworker|co-worker|colleague|roommate|flatmate|girlfriend|boyfriend|fiancée?|cousin|aunt|uncle|' +
  'niece|nephew|grandma|grandmother|grandpa|grandfather|grandparents|neighbou?r|teacher|doctor|dog|cat|puppy|kitten|pet';
/** A capitalised word (a name as written). Regex. */
export const NAME = "\\p{Lu}[\\p{L}\\p{M}'’-]+";
/** Words that may stand between "my" and a relation ("my little sister", "my best friend"). Regex, optional. */
export const RELATION_ADJECTIVE = '(?:(?:little|big|older|younger|elder|best|new|old|twin)\\s+)?';

/**
 * A person's name as written, without a possessive or a closing quote: "James'", "James's",
 * "James’s" → "James"; "Ana's" → "Ana". A name that ends in s ("James", "Chris") and one with an
 * apostrophe inside ("O'Brien") stay as they are. Statements and questions both read names
 * through this, so "What are James' hobbies?" finds what "James loves sailing." formed.
 */
export function personName(word: string): string {
  return word.replace(/['’][sS]?$/u, '');
}

/** Words that may open a clause before its subject ("So I …", "Honestly, we …", "Last week I …"). Regex, optional, case-insensitive. */
const LEAD =
  '(?:(?:so|but|and|also|plus|now|then|just|actually|honestly|anyway|well|yeah|recently|finally|lately|really|still|even|luckily|thankfully|sadly|unfortunately|btw|by\\s+the\\s+way|today|yesterday|tonight|last\\s+\\p{L}+|you\\s+know|i\\s+mean)[,\\s]+)*';
/** The speaker as subject: "I …", "we …", "my …" at the start of a clause. */
export const FIRST_PERSON_RE = new RegExp(
  `^${LEAD}(?:i|we|me|my|our|myself|i['’](?:m|ve|d|ll)|we['’](?:re|ve|d|ll))\\b`,
  'iu',
);
/** The speaker anywhere in a clause ("Seeing my mentee's face light up was the best"). */
export const FIRST_PERSON_ANY_RE = /\b(?:i|me|my|mine|myself|we|us|our|ours)\b|\bi['’]/iu;
/** A clause whose subject is left out and is the speaker: "Just got some new shoes", "Been reading a lot". */
export const IMPLIED_SPEAKER_RE = new RegExp(`^(?:(?:just|recently|finally|also)\\s+)?(?:${PAST_VERB}|been)\\b`, 'iu');
/** The listener as subject: "you …", "your …". */
export const LISTENER_SUBJECT_RE = new RegExp(`^${LEAD}(?:you(?!\\s+know\\b)|your|you['’](?:re|ve|ll|d))\\b`, 'iu');
/** A pronoun or demonstrative subject whose referent is said elsewhere: "It …", "They're …", "That trip …". */
export const PRONOUN_SUBJECT_RE = new RegExp(
  `^${LEAD}(?:it|it['’]s|its|this|that|that['’]s|these|those|they|they['’](?:re|ve|ll|d)|them|he|he['’]s|she|she['’]s|there|there['’]s|which|his|her|their)\\b`,
  'iu',
);
/** An image caption on its own ("[image: a photo of a dog]"). */
export const CAPTION_RE = /^\[image:/iu;
/** Pointing at something shared: "Check out this piece I made!", "Look at this", "Here's a pic". */
export const POINTING_RE = new RegExp(
  `^${LEAD}(?:check\\s+(?:this|it|them|these|that)?\\s*out|look\\s+at|take\\s+a\\s+look|see\\s+this|here['’]s\\s+(?:a\\s+|the\\s+|my\\s+)?(?:pic|photo|picture|snap|shot|one)|here\\s+(?:it\\s+is|they\\s+are))\\b`,
  'iu',
);
const PRAISE =
  'great|awesome|amazing|cool|nice|fun|wonderful|beautiful|lovely|incredible|fantastic|inspiring|impressive|exciting|sweet|cute|brave|special|interesting|true|right|tough|hard|sad|terrible|awful|scary|crazy|insane|wild|good|gorgeous|stunning|thoughtful|unique|rough|admirable|touching|powerful|fascinating';
/**
 * A reaction to what the other speaker said or showed: "That sounds like a fascinating project!",
 * "You've made so much progress", "Your love for your kids is so awesome", "I love how you …",
 * "What a great idea", "I'm so happy for you", "Congrats!".
 */
export const REACTION_RE = new RegExp(
  `^${LEAD}(?:` +
    [
      "(?:it|that|this)(?:['’]s|\\s+is|\\s+was|\\s+must\\s+(?:be|have\\s+been))?\\s+(?:sounds?|looks?|seems?)\\b",
      '(?:sounds?|looks?|seems?)\\s+(?:like|so|really|great|amazing|awesome|fun|good|lovely|cool|nice)\\b',
      `(?:what\\s+an?|how)\\s+(?:\\p{L}+\\s+)?(?:${PRAISE})\\b`,
      `(?:that|this|it)(?:['’]s|\\s+is|\\s+was)\\s+(?:so\\s+|really\\s+|such\\s+|just\\s+|absolutely\\s+|totally\\s+|super\\s+)*(?:an?\\s+)?(?:${PRAISE})\\b(?:\\s+\\S+){0,4}[\\s!.…]*$`,
      "(?:i['’]m|i\\s+am)\\s+(?:so\\s+|really\\s+|very\\s+)*(?:happy|glad|proud|sorry|thrilled|excited|impressed)\\s+(?:for|of|to\\s+hear|that\\s+you|you)\\b",
      'congrat|good\\s+luck|well\\s+done|keep\\s+(?:it\\s+)?up|hang\\s+in\\s+there|take\\s+care|thank|thanks\\b',
      'i\\s+(?:really\\s+)?(?:love|like|admire|adore)\\s+(?:how|that\\s+you|the\\s+way|it\\s+when|seeing|hearing)\\b',
      'i\\s+(?:really\\s+|truly\\s+)?appreciate\\b',
      "(?:i['’]m|i\\s+am)\\s+(?:so\\s+|really\\s+)*(?:stoked|happy|glad|thrilled)\\s+for\\s+you\\b",
      "you(?:['’](?:re|ve|ll|d)|\\s+(?:are|were|have|had|must|should|can|could|did|got|found|made|look|seem|sound|deserve|really|always|never|definitely|totally|clearly|obviously))\\b",
      "your\\s+(?:[\\p{L}'’-]+\\s+){0,3}(?:is|are|was|were|looks?|sounds?|seems?)\\b",
    ].join('|') +
    ')',
  'iu',
);
/** A wish, an offer or a hedge rather than a fact: "I'd love to help", "Let me know", "I hope so", "Maybe I should". */
export const WISH_RE = new RegExp(
  `^${LEAD}(?:(?:i['’]d|i\\s+would|we['’]d|we\\s+would)\\s+(?:really\\s+)?(?:love|like|be\\s+(?:happy|glad))\\s+to|let\\s+me\\s+know|i\\s+(?:hope|wish|bet|guess|suppose)\\b|(?:can['’]?t|cannot)\\s+wait|i['’]ll\\s+keep\\s+(?:you|ya)\\s+(?:posted|updated)|(?:maybe|perhaps)\\b|i\\s+(?:might|may|could)\\b|(?:i\\s+)?(?:just\\s+)?wanted\\s+to\\s+(?:say|let|check|tell|ask)\\b|we\\s+(?:all|can|could|should)\\b|we['’]re\\s+all\\b|let['’]s\\b|makes?\\s+me\\s+(?:feel|want|think|wonder)|if\\s+you\\s+(?:ever|want|need))`,
  'iu',
);
/** A passing state rather than a lasting one: "I'm so tired", "it's pretty late already", "Been a busy week". */
export const PASSING_STATE_RE = new RegExp(
  `^${LEAD}(?:(?:i['’]m|i\\s+am|i\\s+feel|i['’]ve\\s+been|i\\s+was|feeling|been|it['’]s|it\\s+is|it\\s+was)\\s+(?:so\\s+|really\\s+|pretty\\s+|very\\s+|a\\s+bit\\s+|kinda\\s+|super\\s+|just\\s+|quite\\s+|a\\s+little\\s+|such\\s+)*(?:tired|exhausted|busy|excited|happy|glad|sad|stressed|nervous|thrilled|grateful|thankful|okay|ok|good|great|fine|well|sick|bored|hungry|sleepy|pumped|stoked|late|early|cold|hot|sunny|rainy|an?\\s+(?:busy|long|crazy|hectic|rough|tough)\\s+\\p{L}+)|how['’]s\\s+it\\s+going)\\b`,
  'iu',
);
/** A "task" that is nothing to do: "I'll keep you posted", "I'll start thinking about it", "We'll have fun". */
export const VAGUE_TASK_RE = new RegExp(
  `(?:\\b(?:i['’]ll|i\\s+will|we['’]ll|we\\s+will|i\\s+(?:should|must|need\\s+to|have\\s+to|gotta)|i['’]m\\s+going\\s+to|i\\s+am\\s+going\\s+to|gonna)\\s+(?:(?:definitely|totally|really|probably|surely|also|just|def|always)\\s+)*(?:keep|let|think|start\\s+thinking|see|try|be|have\\s+(?:fun|a\\s+(?:blast|great|good))|make\\s+(?:some\\s+)?(?:\\p{L}+\\s+)?memories|check\\s+(?:it|them|that)\\s+out|tell\\s+you|talk|chat|catch\\s+up|get\\s+back|do\\s+(?:it|that|this|so|the\\s+same)|look\\s+into\\s+it|remember|miss|stay\\s+in\\s+touch|send\\s+(?:you|pics?)|share|keep)\\b|^${LEAD}don['’]?t\\s+forget\\s+to\\b)`,
  'iu',
);
/** What "like", "love" or "enjoy" must not be followed by to be a liking: "I love how …", "I'd like to …". */
export const NOT_AN_OBJECT_RE =
  /^(?:how|that|it|this|those|these|them|you|your|when|what|the\s+way|to\s+(?:see|hear|help|check|know|meet|join|visit|read|try|say|thank)\b|seeing|hearing)\b/iu;
/** Capitalised words that open a sentence without naming anyone ("Just", "Right", "Much", "We've"). */
export const NOT_A_NAME: ReadonlySet<string> = new Set(
  (
    'the this that these those it he she they we you there here what which who whom whose when where why how ' +
    'everything everyone everybody nothing nobody someone somebody something anything anyone life today yesterday tomorrow ' +
    'work it’s one mine just right much many more most some any all both each every also still even only ' +
    'really well so but and or yet then now now, maybe perhaps sometimes always never often usually besides ' +
    'anyway honestly actually basically luckily sadly thankfully hopefully definitely totally absolutely ' +
    'yes yeah no nope okay ok sure great cool nice wow oh ah hey hi hello thanks congrats ' +
    'christmas easter thanksgiving halloween art music family nature love life cooking reading painting'
  ).split(' '),
);
/** Whether a capitalised word at the head of a clause can be a person's name. */
export function canBeName(word: string): boolean {
  const w = personName(word).toLowerCase();
  return (
    !NOT_A_NAME.has(w) &&
    !/ing$/u.test(w) &&
    !/['’](?:ve|re|ll|d|m|t)$/u.test(word) &&
    !MONTH_NAMES.includes(w) &&
    !WEEKDAY_NAMES.includes(w)
  );
}
