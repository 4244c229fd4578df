import { invalid } from '../model/errors.js';
import { STOPWORDS, tokenize } from '../retrieval/text.js';

/**
 * Topics of a text for a user's profile (English word lists; any script is tokenised as
 * `retrieval/text.ts` does).
 */

const PII_PLACEHOLDER = /\[[A-Z][A-Z0-9_]*_\d+\]/g;

/**
 * Words that are never topics on their own, beyond the retrieval {@link STOPWORDS}: conversational
 * verbs and courtesies, adverbs of time, frequency and degree, quantifiers and pronoun-like words,
 * and nouns too general to say what a user talks about ("number", "thing", "time", "way"). Closed
 * compound families (whenever, something, everyone, …) are matched by {@link FUNCTION_COMPOUND}.
 */
const GENERAL_WORDS = new Set(
  // conversational verbs and courtesies
  (
    'like likes liked love loved loves hate hates hated want wants wanted need needs needed know knew known think thought ' +
    'keep kept live lives lived meet name named please remember remembered thanks thank make made makes ' +
    'sounds lovely feel felt tell told said says call called calls talk talking talked help helps ' +
    'come comes came coming give gives gave given take takes took taken find found look looks looked ' +
    'seem seems seemed mean means meant guess suppose hope hoped wish wonder noted forgot forget ' +
    'going went goes gone doing done getting gets thats theres ' +
    // verbs in the past that end in no "-ed" ("I bought a bike": the bike is the topic)
    'bought brought caught taught sold spent sent built wrote drove flew swam began ' +
    // adverbs of time, frequency and degree; hedges
    'really just also well good great nice sure maybe actually right okay yeah usually always never sometimes ' +
    'lately often soon later already still ever even quite rather pretty almost enough indeed perhaps probably ' +
    'today tomorrow yesterday tonight again ago anyway anymore instead else otherwise either neither though although ' +
    'unless since within without upon onto toward towards across along around away back next last first ' +
    'each every another other others such much many more most less least lots plenty several various ' +
    'able could would should might must shall may ' +
    // pronoun-like words and quantifiers
    'mine yours theirs ours whose none both half whole ' +
    // nouns too general to be a topic
    // adjectives of size and degree ("a huge fan of jazz")
    'huge massive total absolute ' +
    'number numbers thing things stuff time times way ways kind kinds sort sorts part parts lot bit bits ' +
    'place places case cases point points fact facts matter matters idea ideas question questions ' +
    'answer answers people person someone week weeks month months year years hour hours minute minutes ' +
    'moment moments while side sides type types level levels example examples ' +
    // times of the week and day: when something happens, not what ("hiking on weekends")
    'weekend weekends weekday weekdays morning mornings evening evenings night nights days ' +
    // months: when, not what ("a half marathon in March")
    'january february march april june july august september october november december ' +
    // verbs of starting and trying, which say how, not what ("I started learning the cello")
    'start starts starting learn learns learning learnt trying tried ' +
    // verbs of intending: a plan is in the words after them ("I'm planning a trip to Japan")
    'plan plans planning planned thinking considering ' +
    // the contact details the masker replaces: the detail is masked, its label says nothing
    'email e-mail mail address phone'
  ).split(' '),
);

/**
 * Closed families of function words built from a fixed stem: whenever/whatever/however/…,
 * something/anyone/everybody/nowhere/somehow/…, hereby/therefore/… .
 */
const FUNCTION_COMPOUND =
  /^(?:(?:when|what|wher|where|which|who|whom|how)(?:so)?ever|(?:some|any|every|no)(?:thing|one|body|where|time|times|how|way|ways|place)|(?:here|there|where)(?:by|fore|in|of|on|upon|after|with|as|about))$/;

/**
 * A verb in the past ("adopted", "started", "visited"): what was done is in the words after it.
 * Not "-eed" ("breed", "speed") nor the few nouns in "-ed" kept here.
 */
const PAST_VERB = /^\p{L}{3,}(?<!e)ed$/u;
const NOUNS_IN_ED = new Set(['hundred', 'kindred', 'sacred', 'naked', 'wicked', 'beloved']);

/** Whether `word` (lowercase token) can be a topic at all. */
function isTopicWord(word: string): boolean {
  return (
    word.length >= 4 &&
    !(PAST_VERB.test(word) && !NOUNS_IN_ED.has(word)) &&
    !STOPWORDS.has(word) &&
    !GENERAL_WORDS.has(word) &&
    !FUNCTION_COMPOUND.test(word) &&
    !/^\d+$/.test(word)
  );
}

/** Punctuation that ends a phrase ("tomatoes, basil": two topics, not one). */
const PHRASE_BREAK = /[^\p{L}\p{M}\p{N}'’\s-]+/u;
/** An activity in -ing and the place it is done at, named: "hiking in the Gerês", "surfing at Ericeira". */
const ACTIVITY_AT_PLACE =
  /\b(\p{L}{3,}ing)\s+(?:in|at|on|around|near|through)\s+(?:the\s+)?\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2}/gu;
/**
 * A word said of a subject after "is", "was", "be", "I'm", "it's" … (and "so", "really" …), with
 * nothing after it but a preposition or the end of the clause: "it was beautiful", "be careful",
 * "I'm allergic to peanuts". How something is, not what the user talks about ("peanuts" is).
 * Not a noun phrase ("I'm an architect", "it was a beautiful hike"), nor a name ("It's Rex").
 */
const SAID_OF_A_SUBJECT =
  /(?<![\p{L}'’])(?:[Ii]s|[Ww]as|[Aa]re|[Ww]ere|[Aa]m|[Bb]e|[Bb]een|[Bb]eing|I['’]m|(?:[Ii]t|[Tt]hat|[Hh]e|[Ss]he)['’]s|(?:[Ww]e|[Yy]ou|[Tt]hey)['’]re)\s+(?:(?:so|very|really|super|pretty|quite|too|not|always|just|kinda|extremely|incredibly|absolutely|totally)\s+)*\p{Ll}[\p{L}\p{M}-]*(?=\s*(?:[,.!?;:…)]|$)|\s+(?:to|of|about|with|for|at|in|on|and|but|so|because|when|that|now|today|lately|too|though)\b)/gu;

/**
 * A word of degree and the word it grades, at the end of a clause: "nothing too steep", "the
 * water was so clear". How something is, as {@link SAID_OF_A_SUBJECT} reads it after a verb.
 */
const GRADED_AT_CLAUSE_END =
  /(?<![\p{L}'’])(?:too|so|very|super|extremely|incredibly)\s+\p{Ll}[\p{L}\p{M}-]*(?=\s*(?:[,.!?;:…)]|$))/gu;

/** Longest phrase kept as one topic ("golden retriever puppy"); a longer run is read word by word. */
const MAX_PHRASE_WORDS = 3;

/**
 * Topics of a text: the things it names, as phrases where words stand together ("border
 * collie", "hiking boots") and as single content words otherwise — never stopwords, general
 * words, function-word compounds (see `GENERAL_WORDS` and `FUNCTION_COMPOUND`), words under four
 * letters, numbers, verbs in the past ("adopted"), times of the day and week, or the labels of
 * masked contact details ("email", "address"). An activity and the place named after it are one
 * topic ("hiking in the geres"). Nor how something is said to be ("it was beautiful", "I'm allergic to
 * peanuts": `SAID_OF_A_SUBJECT`; "nothing too steep": `GRADED_AT_CLAUSE_END`). Lowercased (diacritics folded, as `tokenize` does), most frequent first
 * (ties: first seen), at most `max`. A run of two or three topic words with no punctuation or
 * other word between them is one topic; PII placeholders left by the masker are skipped.
 */
export function extractTopics(text: string, max = 5): string[] {
  if (typeof text !== 'string') invalid('text', 'a string', text);
  const counts = new Map<string, number>();
  const count = (t: string) => counts.set(t, (counts.get(t) ?? 0) + 1);
  // "hiking in the Gerês", "surfing at Ericeira": an activity and the place named after it are one topic.
  const rest = text.replace(ACTIVITY_AT_PLACE, (said, activity: string) => {
    if (!isTopicWord(activity.toLowerCase())) return said;
    count(tokenize(said).join(' '));
    return ' , ';
  });
  // Masked PII ("[EMAIL_1]", "[CREDIT_CARD_2]") is not something the user talks about, nor how
  // something is ("it was beautiful").
  const named = rest
    .replace(PII_PLACEHOLDER, ' , ')
    .replace(SAID_OF_A_SUBJECT, ' , ')
    .replace(GRADED_AT_CLAUSE_END, ' , ');
  for (const segment of named.split(PHRASE_BREAK)) {
    let run: string[] = [];
    const flush = () => {
      if (run.length >= 2 && run.length <= MAX_PHRASE_WORDS) count(run.join(' '));
      else for (const w of run) count(w);
      run = [];
    };
    for (const w of tokenize(segment)) {
      if (isTopicWord(w)) run.push(w);
      else flush();
    }
    flush();
  }
  // Map keeps first-seen order and sort is stable, so ties keep it.
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([w]) => w);
}
