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
