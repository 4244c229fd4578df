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
/**
 * The seasons as the months they span (the northern hemisphere's meteorological seasons, `Date`
 * month of the first, three months each; winter starts in December and runs into the next year).
 * "fall" is read as a season only where a year or "last / this / next" makes it one.
 */
export const SEASON_START: Readonly<Record<string, number>> = Object.freeze({
  spring: 2,
  summer: 5,
  autumn: 8,
  fall: 8,
  winter: 11,
});
/** A season's name (regex alternatives, case-insensitive use). */
export const SEASON = 'spring|summer|autumn|fall|winter';
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
 * Verbs in the simple past, irregular ones by name and regular ones by their "-ed" (not a word
 * that only ends like one: "I need help", "we feed the cats"). Used by the time expressions and
 * the statements' past-tense reading.
 */
export const PAST_VERB =
  'went|got|had|saw|made|took|met|bought|ran|won|lost|began|gave|found|left|came|did|wrote|read|joined|became|drove|flew|ate|held|built|sold|spent|taught|caught|brought|felt|heard|kept|told|paid|sent|sang|swam|threw|wore|grew|knew|drew|rode|fell|broke|chose|spoke|woke|forgot|quit|sat|stood|' +
  '(?!(?:need|feed|seed|speed|proceed|succeed|exceed|bleed|breed|indeed|embed)\\b)[\\p{L}]{2,}ed';
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
  'niece|nephew|grandma|grandmother|granny|grandpa|grandfather|grandparents|neighbou?r|teacher|doctor|dog|cat|puppy|kitten|pet';
/**
 * Relations said in more than one word or spelling, and the one a memory's subject is filed
 * under ("my mum", "my mom" → "Ann's mom"), so that each names the same person.
 */
const RELATION_SPELLINGS: Readonly<Record<string, string>> = {
  mum: 'mom',
  mommy: 'mom',
  momma: 'mom',
  mama: 'mom',
  mother: 'mom',
  daddy: 'dad',
  papa: 'dad',
  father: 'dad',
  grandmother: 'grandma',
  granny: 'grandma',
  nana: 'grandma',
  grandfather: 'grandpa',
  'co-worker': 'coworker',
  colleague: 'coworker',
  neighbor: 'neighbour',
  fiance: 'fiancé',
  fiancee: 'fiancée',
};
/** The spelling of a relation a subject is filed under ("mum" → "mom", "best  friend" → "best friend"). */
export function relationFiled(relation: string): string {
  const r = relation.toLowerCase().replace(/\s+/gu, ' ');
  return RELATION_SPELLINGS[r] ?? r;
}
/** Relations that name more than one ("my kids Ana and Tom"): no one of them is "the kids". Regex, lower case. */
export const PLURAL_RELATION_RE = /^(?:parents|kids|children|grandparents)$/u;
/**
 * Relations said without "my" as if they were a name, at the head of a clause ("Mom moved to
 * Florida", "sis got a new job", "wife is pregnant"): the speaker's own. Regex, lower case.
 */
export const KIN_AS_NAME =
  'mom|mum|mommy|momma|mama|dad|daddy|papa|sister|brother|husband|wife|grandma|grandpa|granny|nana';

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

/**
 * First names that are also everyday English words ("will", "may", "bill", "june", "hope"). A
 * question typed in lower case reads a known person's name in lower case as that name ("whats
 * carolines job"), but never one of these: "what will mark do" asks what someone will do, not
 * about Will. Months, weekdays and stopwords are left out as well, wherever they are checked.
 */
export const NAMES_ALSO_WORDS: ReadonlySet<string> = new Set(
  (
    'will may june april august summer autumn winter dawn sky rain storm river brook glen forest ' +
    'bill mark rose grace hope joy faith frank jack art ash amber holly ivy iris lily daisy ruby pearl ' +
    'crystal jade olive violet hazel ginger honey candy cookie sunny sandy rusty buddy max chip pat ' +
    'sue don gene ray rich wade drew lane dean earl guy mason miles penny chase cliff hunter carter ' +
    'cooper taylor baker page bob rob nick kit sterling destiny harmony melody major king prince duke ' +
    'angel star robin jay wren hawk fox wolf drake finch reed rod roger bishop marsh moss heath bay ' +
    'bud long rock stone field wood woods hill hall young white black brown green gray grey chance ' +
    'christian justice trinity unity liberty'
  ).split(' '),
);

/** Words that may open a clause before its subject ("So I …", "Honestly, we …", "Last week I …"). Regex, optional, case-insensitive. */
const LEAD =
  '(?:(?:so|but|and|also|plus|now|then|just|actually|honestly|anyway|well|yeah|recently|finally|lately|really|still|sometimes|often|usually|always|occasionally|normally|even|luckily|thankfully|sadly|unfortunately|btw|by\\s+the\\s+way|today|yesterday|tonight|last\\s+\\p{L}+|you\\s+know|i\\s+mean)[,\\s]+)*';
/**
 * A subject that refers back, then a verb in the past that is no feeling or reminder: what the
 * thing the other speaker named did ("It helped me a lot with my back pain", "They changed my
 * life"), not how it felt ("It felt great", "It reminded me of home", "It made me realise …").
 */
export const REFERENT_DID_RE = new RegExp(
  `^${LEAD}(?:it|they|that|these|those|he|she)\\s+(?:(?:really|also|even|just|actually|totally|definitely|truly|honestly)\\s+)*(?!(?:felt|reminded|made|seemed|looked|sounded)\\b)(?:${PAST_VERB})\\b`,
  'iu',
);
/**
 * A subject that refers back, then what the thing the other speaker named does or is for the
 * speaker, as lasting: "It helps me stay balanced during my studies", "It's been a refuge for me
 * in tough times", "This has been great for my mental health", "It's become part of my routine",
 * "They give me a sense of purpose", "It's been my goal since I was a kid". Not how it felt or seemed ("It felt great for me", "It
 * reminds me of home", "It made me realise …"), nor what it means to the speaker ("It means a lot
 * to me": thanks).
 */
export const REFERENT_DOES_FOR_SPEAKER_RE = new RegExp(
  `^${LEAD}(?:it|they|this|that|these|those)(?:['’]s|['’]re|['’]ve|\\s+is|\\s+are|\\s+has|\\s+have|\\s+was|\\s+were)?\\s+(?:(?:really|also|always|definitely|truly|honestly|actually|just|so|totally|kinda|become|became|been)\\s+)*` +
    `(?:(?:helps|help|helping|keeps|keep|keeping|gives|give|giving|brings|bring|bringing|lets|let|teaches|teach|calms|calm|relaxes|relax|grounds|ground|motivates|motivate|inspires|inspire)\\s+me\\b` +
    `|(?<=\\b(?:['’]s|['’]re|['’]ve|is|are|has|have|was|were|been|become|became)\\s+(?:\\p{L}+\\s+)*)(?:(?:a|an|such\\s+a|my)\\s+)?(?!(?:sweet|kind|nice|nicer|thoughtful|generous|late|early|hard|tough|difficult|much|weird|strange|new)\\b)(?:[\\p{L}-]+\\s+){1,3}?(?:for|to)\\s+(?:me|my)\\b` +
    `|(?<=\\b(?:['’]s|['’]ve|has|have|been|become|became)\\s+(?:\\p{L}+\\s+)*)(?:a\\s+(?:big|huge|real)\\s+)?part\\s+of\\s+my\\b` +
    `|(?<=\\b(?:['’]s|['’]re|is|are|was|were|been|become|became)\\s+(?:\\p{L}+\\s+)*)my\\s+(?:(?:big|biggest|lifelong|true|main|one|first|favou?rite|greatest)\\s+)*(?:goal|dream|passion|escape|therapy|outlet|rock|motivation|inspiration|go-to|happy\\s+place|safe\\s+place|thing|hobby|refuge)\\b)`,
  'iu',
);
/** The speaker as subject: "I …", "we …", "my …" at the start of a clause. */
export const FIRST_PERSON_RE = new RegExp(
  `^${LEAD}(?:i|we|me|my|our|myself|i['’](?:m|ve|d|ll)|we['’](?:re|ve|d|ll))\\b`,
  'iu',
);
/** A time in front of a clause whose subject is left out: "Yesterday took my pups to the park", "Last weekend, went hiking". */
const WHEN_IN_FRONT =
  '(?:yesterday|today|earlier\\s+today|this\\s+(?:morning|afternoon|evening|past\\s+\\p{L}+)|last\\s+(?:night|week|weekend|month|year|\\p{L}+day)|over\\s+the\\s+weekend|the\\s+other\\s+day)\\s*,?\\s+';
/** What a time does as a subject ("Last night felt like forever", "Last week went by so fast"): no one's action. */
const TIME_AS_SUBJECT =
  '(?:felt|seemed|looked|sounded|turned|proved|flew|passed|ended|dragged|began|started|was|were|went\\s+(?:by|well|great|smoothly|fast|quickly|so|really|pretty|too|okay|ok|alright|badly))\\b';
/**
 * "That's why I …", "Which is why we …": the clause after it is the speaker's own, said as what
 * follows from something before ("That's why I love volunteering!", "That's why we went
 * volunteering with animals"), not a remark on "that".
 */
export const REASON_FOR_OWN_RE =
  /^(?:(?:and|so|yeah|yes|yep|well)[,\s]+)*(?:that['’]?s|that\s+is|this\s+is|this['’]s|which\s+is)\s+(?:(?:exactly|partly|also|just|really)\s+)?why\s+(?:i|we)(?:['’](?:m|ve|d|ll|re))?\s/iu;
/** A clause whose subject is left out and is the speaker: "Just got some new shoes", "Been reading a lot", "Yesterday took my pups to the park". */
export const IMPLIED_SPEAKER_RE = new RegExp(
  `^(?:${WHEN_IN_FRONT}(?!${TIME_AS_SUBJECT}))?(?:(?:just|recently|finally|also)\\s+)?(?:${PAST_VERB}|been)\\b`,
  'iu',
);
/**
 * A subject that joins someone to the speaker: "My wife and I …", "My sister Ana and me …",
 * "Ana and I …" ("Me and my wife …", "I and Ana …" start with the speaker already).
 */
export const WITH_SPEAKER_RE = new RegExp(
  `^(?:(?:[Mm]y|[Oo]ur)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})|${NAME})(?:,?\\s+${NAME}){0,2},?\\s+(?:and|&)\\s+(?:I|[Mm]e|[Mm]yself)\\b`,
  'u',
);
/**
 * A clause that opens with what the speaker does, the "I" left out: "Love experimenting with
 * spices", "Working on a new song", "Started a new diet", "Researching adoption agencies",
 * "Gonna volunteer at shelters next month". Not a gerund that is the subject
 * ("Cooking is fun", "Painting helps me relax", "Taking time to detach and find peace is important").
 */
export const IMPLIED_SPEAKER_PRESENT_RE = new RegExp(
  `^(?:(?:just|recently|finally|also|still|currently|really)\\s+)?(?:love|loving|enjoy(?!\\s+(?:the|your|it|them|every|yourself|yourselves)\\b)|enjoying|adore|working|learning|planning|started|starting|finished|finishing|taking|making|doing|prepping|preparing|reading|watching|playing|practi[cs]ing|training|studying|writing|painting|cooking|baking|waiting|trying|thinking|saving|looking\\s+into|getting\\s+(?:ready|into|back)|researching|gonna(?!\\s+be\\b))\\b` +
    // The gerund's own words run to a verb that judges it now, however many ("Taking care of a pup
    // in the city is tough"), but not into a clause of its own ("Working on a song that is …",
    // "Making sure I have …"); one that tells how it went is the speaker's, unless said in a few
    // words ("Taking care of them with one arm has been tricky"; "Winning was great" is of no one).
    // "like that" is no clause of its own ("Working together on projects like that brings people closer").
    `(?!(?:\\s+(?!(?<!\\blike\\s+)(?:that|which|who|i|we)\\b)[\\p{L}'’-]+){0,12}?\\s+(?:is|are|can|could|should|must|will|would|helps?|makes?|gives?|brings?|keeps?|lets?|sounds?|seems?|looks?|deserves?|matters?|saves|takes|costs|requires|needs|means|teaches|pays|opens|changes)\\b)` +
    `(?!(?:\\s+[\\p{L}'’-]+){0,4}?\\s+(?:was|were|has|have|had)\\b)`,
  'iu',
);
/**
 * How the speaker is doing right now, the "I" left out: "Just trying to find a balance between
 * work and other activities", "Busy few weeks for sure, but I'm pushing through", "Determined
 * and passionate on one hand, but feeling overwhelmed and stressed on the other", "Taking things
 * one step at a time". A state, not a past action ("Just got a new puppy", {@link
 * IMPLIED_SPEAKER_RE}) nor a lasting one ("Been vegetarian for ten years"): nothing lasting.
 * Not what the state is about ("Excited about my trip next month", "Busy with my new job").
 */
export const IMPLIED_SPEAKER_STATE_RE = new RegExp(
  `^(?:(?:just|still|really|so|pretty|super|kinda|a\\s+bit|quite|been|also)\\s+)*(?:` +
    `(?:busy|swamped|slammed|determined|passionate|overwhelmed|stressed|exhausted|tired|drained|worn\\s+out|nervous|anxious|hopeful|motivated|pumped|stoked|up\\s+and\\s+down)(?=\\s*(?:[,.!…;]|$)|\\s+(?:and|but|on|few|week|weeks|weekend|days|day|month|months|lately|these|right|for\\s+sure|as\\s+always)\\b)` +
    `|feeling\\s+(?:(?:so|really|pretty|super|kinda|a\\s+bit|quite|a\\s+little)\\s+)*(?:good|great|fine|okay|ok|better|busy|overwhelmed|stressed|tired|exhausted|drained|down|low|anxious|nervous|hopeful|motivated|determined|lost|stuck|off|the\\s+tug|a\\s+mix|all\\s+sorts)\\b` +
    `|trying\\s+to\\s+(?:find\\s+(?:a|some|the)\\s+balance|balance|enjoy\\s+the\\s+moment|be\\s+(?:more\\s+)?(?:mindful|present|patient|positive|grateful)|stay\\s+(?:sane|afloat|positive|balanced|on\\s+top)|keep\\s+(?:up|going|busy|afloat|my\\s+head)|take\\s+(?:it|things)\\s+(?:easy|slow|one)|relax|cope|hang\\s+in|get\\s+through|make\\s+the\\s+most|figure\\s+(?:it|things)\\s+out|keep\\s+it\\s+together|juggle)` +
    `|taking\\s+(?:it|things|each\\s+day|every\\s+day|life)\\s+(?:one\\s+(?:step|day)|easy|slow|day\\s+by\\s+day|as\\s+it\\s+comes)` +
    `|hanging\\s+in(?:\\s+there)?|pushing\\s+through|keeping\\s+busy|holding\\s+up|doing\\s+(?:good|well|great|okay|ok|alright|fine)(?=\\s*(?:[,.!…;]|$)|\\s+(?:lately|these|right|thanks|overall|so\\s+far)\\b))` +
    // Not a lasting state ("Been busy for years") nor what it is about ("Busy with my new job").
    `(?![^.!?]*\\b(?:for\\s+(?:\\d+|a|an|one|two|three|four|five|six|ten|many|several)\\s+years?|since|ago)\\b)`,
  'iu',
);
/** A favourite named: "my favourite band is …", "two of my favorites are …", "… is my all-time fave". */
export const FAVOURITE_RE =
  /\b(?:(?:one|two|three|some|a\s+few|all)\s+of\s+)?my\s+(?:all[- ]time\s+|absolute\s+|personal\s+)?fav(?:ou?rite|e)?s?\b/iu;
/** The listener anywhere in a clause ("I'll send you the photos", "I'll take your advice"). */
export const LISTENER_ANY_RE = /\b(?:you|your|yours|ya|u)\b/iu;
/** Something of the listener's: "your". A question that says it asks of the listener's, not of what it names. */
export const LISTENER_POSSESSIVE_RE = /\byour\b/iu;
/**
 * A "they", "it", "he" or "she" (or "them", "him", "her") after a clause's first word: what a
 * result after "so" goes on with ("I noticed they weren't acting normally, so I …").
 */
export const THIRD_PRONOUN_INSIDE_RE = /\S\s+(?:they|it|he|she|them|him|her)\b/iu;
/** The listener as subject: "you …", "your …". */
export const LISTENER_SUBJECT_RE = new RegExp(`^${LEAD}(?:you(?!\\s+know\\b)|your|you['’](?:re|ve|ll|d))\\b`, 'iu');
/**
 * "This", "that", "these", "those" standing for what was said or shown ("This is special to me",
 * "That helped a lot", "Those were the days"), not as the determiner of a noun that names it
 * ("This necklace is special to me", "These figurines I bought remind me of family"): a verb, an
 * adverb or the clause's end follows. Regex alternatives.
 */
const DEMONSTRATIVE_PRONOUN =
  "(?:this|that|these|those)(?:['’]s\\b|(?=\\s*(?:[,.!?;:…—–-]|$)|\\s+(?:is|was|are|were|has|had|have|does|did|do|will|would|can|could|must|might|should|may|really|just|also|all|too|alone|one|ones|sounds?|looks?|seems?|feels?|means?|meant|makes?|helps?|reminds?|brings?|brought|gives?|gave|got|gets|keeps?|kept|took|takes?|shows?|stands?|represents?|[\\p{L}]{2,}ed)\\b))";
/** A word that, after a noun, is its verb or an adverb, not more of the noun ("that skyline looks …", "that place shaped me"). */
const AFTER_A_NOUN =
  '(?:is|was|are|were|has|had|have|does|did|do|will|would|can|could|must|might|should|may|really|just|also|all|too|again|sounds?|looks?|seems?|feels?|means?|meant|makes?|helps?|reminds?|brings?|brought|gives?|gave|got|gets|keeps?|kept|took|takes?|shows?|stands?|[\\p{L}]{2,}ed)\\b';
/**
 * A speaker's clause said without its "I", by a negated helping verb or "never" ("Can't imagine
 * my life without it", "Couldn't have done it without them", "Don't know what I'd do without it",
 * "Never had a chance to visit it").
 */
const SUBJECT_LEFT_OUT = "(?:never|can['’]?t|cannot|couldn['’]?t|won['’]?t|wouldn['’]?t|don['’]?t|didn['’]?t)";
/**
 * What a clause points back at by "that" or "those" and a noun, anywhere in it ("I had a great
 * time meeting that fellow fan", "those hiking boots"): the one or two words after it, up to a
 * verb ("that skyline looks …": "skyline"), not "that" standing alone ("That's why …"). Global:
 * every one the clause says.
 */
export const POINTED_NOUN_RE = new RegExp(
  `\\b(?!${DEMONSTRATIVE_PRONOUN})(?:that|those)\\s+([\\p{L}'’-]{3,}(?:\\s+(?!${AFTER_A_NOUN})[\\p{L}'’-]{3,})?)`,
  'giu',
);
/**
 * "That" or "those" and a noun that the speaker's own relative clause after it says what it is
 * ("I had that recurring dream again where I'm flying over skyscrapers", "those boots that I
 * bought in Rome"): what it points at is said in the clause itself, not in what anyone said before.
 * Not one the listener's clause defines ("that book you lent me"). Case-insensitive.
 */
export const DEFINED_BY_THE_SPEAKER_RE = new RegExp(
  `\\b(?!${DEMONSTRATIVE_PRONOUN})(?:that|those)\\s+[\\p{L}'’-]{3,}(?:\\s+[\\p{L}'’-]{3,})?(?:\\s+again)?\\s+(?:where|which|that|who|when)\\s+(?:i|we)(?:['’](?:m|ve|d|re|ll))?\\b`,
  'iu',
);
/**
 * What a clause names by "that" or "those" and a noun, or by "it" / "them" right after the
 * speaker's verb: "That book changed my life", "Those photos are so special to me", "I read it
 * twice in college", "We loved them". First in a reply, it is what the other speaker named. Not
 * "that" standing alone ("That's why …"), nor "it" that stands for what follows ("I find it
 * hard to …", "I think it is …").
 */
export const NAMED_BEFORE_RE = new RegExp(
  `^${LEAD}(?:(?!${DEMONSTRATIVE_PRONOUN})(?:that|those)\\s+\\p{L}{3,}|(?:i|we)(?:['’](?:ve|d|ll))?\\s+(?:[\\p{L}'’]+\\s+){0,2}?(?:it|them)\\b(?!['’]|\\s+(?:[\\p{L}]+\\s+){0,2}?(?:to|that|is|was|are|were|will|would|has|had)\\b))`,
  'iu',
);
/** A clause that likens what was said to something ("It's like a reboot for me", "… my style, it's like customizing a work of art"): a simile, no liking. */
export const SIMILE_RE =
  /\b(?:it|that|this)(?:['’]s|\s+is|\s+was)\s+(?:(?:just|kind\s+of|kinda|sort\s+of|almost|really)\s+)?like\b/iu;
/** "This", "these", "those" as the determiner of a noun ("Those supportive friends …"): said right after a statement, they point back at it. */
export const DEMONSTRATIVE_DETERMINER_RE = new RegExp(`^${LEAD}(?:this|that|these|those)\\s+\\p{L}`, 'iu');
/**
 * "The …" as the subject of how it was: "The views were spectacular", "The atmosphere was
 * electric", "The acting was awesome". Said right after a statement, it describes part of what
 * that statement named (the trip, the game, the film), as "those" would; first in a turn it names
 * its subject ("The support group has made me feel accepted" is no such description). Not "The
 * plan is a …", "The party was at my place": what it is or where, not how.
 */
export const THE_DESCRIBED_RE = new RegExp(
  `^${LEAD}the\\s+(?:[\\p{L}-]+\\s+)?[\\p{L}-]+\\s+(?:was|were|is|are)\\s+(?:(?:so|really|very|super|just|absolutely|pretty|quite|truly|incredibly|totally|such)\\s+)*(?!(?:a|an|the|my|our|one|in|at|on|from|about|for|to|not|no)\\b)\\p{L}`,
  'iu',
);
/** What an "it" that only stands for the phrase after it may be said to be ("It's so rewarding to …", "It felt great being …"). Regex alternatives. */
const EXTRAPOSED_JUDGEMENT =
  'great|awesome|amazing|cool|nice|fun|wonderful|lovely|incredible|fantastic|exciting|special|good|tough|hard|difficult|rewarding|fulfilling|satisfying|gratifying|enjoyable|relaxing|refreshing|comforting|humbling|empowering|validating|heartwarming|surreal|important|essential|easy';
/**
 * An "it" judged that stands for the "how …" clause after it, which names what it is about: "It's
 * so cool how gaming can bring people together", "It's amazing how art can show things that are
 * hard to put into words". Not a "how" clause whose own subject refers back or is the listener
 * ("It's amazing how it turned out", "It's great how you did it").
 */
export const IT_JUDGED_HOW_RE = new RegExp(
  `^${LEAD}it(?:['’]s|\\s+is|\\s+was)\\s+(?:(?:so|really|very|super|truly|just|always|pretty|quite|absolutely|incredibly|kinda)\\s+)*(?:${EXTRAPOSED_JUDGEMENT}|inspiring|beautiful|wild|crazy|interesting|fascinating|impressive|sad|funny)\\s+how\\s+(?:(?:much|many|a|an|the|just|even)\\s+)*(?!(?:it|its|they|them|their|you|your|he|she|this|that|these|those|we|our|us|i|my|far|long|fast|quickly|quick|things)\\b)\\p{L}`,
  'iu',
);
/**
 * What follows an "it" that stands for the infinitive or gerund after it, not for something said
 * before: "It's so rewarding to use my skills to …", "It was fun spending time with my dogs", "It's
 * such a great feeling to give back to my community", "It's important to me to put my words into action",
 * "It's not difficult for me to help my neighbours". The phrase that follows is the subject, and
 * says what it says of whom it names. Not when that phrase itself refers back ("It was great
 * seeing them so excited", "It was awesome being out there"). Regex, after "it".
 */
const EXTRAPOSED_IT_REST = `(?:['’]s|\\s+is|\\s+was|(?:['’]s|\\s+has|\\s+had)\\s+been|\\s+feels|\\s+felt)(?:\\s+not)?(?:\\s+(?:so|really|very|super|such|just|always|truly|pretty|quite|absolutely|incredibly|extremely|also|still|kinda|definitely))*\\s+(?:(?:an?\\s+)?(?:(?:${EXTRAPOSED_JUDGEMENT})\\s+)?(?:feeling|experience|relief|joy|pleasure|honou?r|privilege)|(?:${EXTRAPOSED_JUDGEMENT}))(?:\\s+(?:for|to)\\s+(?:me|us))?\\s+(?:to\\s+\\p{L}+|(?!(?:thing|something|nothing|everything|anything|morning|evening|being\\s+(?:a|an|the))\\b)\\p{L}{2,}ing)\\b(?![^.!?]*\\b(?:it|its|they|them|their|he|him|his|she|her|there|these|those)\\b)`;
/**
 * A pronoun or demonstrative subject whose referent is said elsewhere: "It …", "They're …", "That
 * was …"; "Everyone was so happy", "Everybody there was so kind" (everyone at what was said
 * before; "Everyone in my family …" names them); a possessive pronoun, "Mine gets together all the
 * time too" (whose what, the noun said before says). Not an "it" that stands for the phrase after it
 * ({@link EXTRAPOSED_IT_REST}).
 */
export const PRONOUN_SUBJECT_RE = new RegExp(
  `^${LEAD}(?:(?:it(?!${EXTRAPOSED_IT_REST})(?:['’]s)?|its|they|they['’](?:re|ve|ll|d)|them|he|he['’]s|she|she['’]s|there|there['’]s|which|his|her|their|mine|yours|ours|hers|theirs|(?:everyone|everybody)(?!\\s+(?:in|at|from|of|on|who|that|i)\\b))\\b|${DEMONSTRATIVE_PRONOUN})`,
  'iu',
);
/** A clause whose subject is an "it" that stands for the phrase after it ({@link EXTRAPOSED_IT_REST}): "It feels good to use my skills …". */
export const EXTRAPOSED_IT_RE = new RegExp(`^${LEAD}it(?=${EXTRAPOSED_IT_REST})`, 'iu');
/**
 * A word anywhere in a clause that stands for someone or something said before: "it", "they",
 * "her", "there", "we", a demonstrative standing alone ("That helped a lot"). In the first
 * statement of an answer, it is what the question asked about ("What did you and your friends
 * do?" → "We looked through her photos").
 */
export const REFERRING_WORD_RE = new RegExp(
  `\\b(?:it|its|they|them|their|theirs|he|him|his|she|her|hers|there|we|us|our|ours|${DEMONSTRATIVE_PRONOUN})\\b`,
  'iu',
);
/** An image caption on its own ("[image: a photo of a dog]"). */
export const CAPTION_RE = /^\[image:/iu;
/**
 * A caption of a picture of the speaker or of theirs ("[image: me crossing the finish line]",
 * "[image: a photo of my new puppy]"). Group 1: what it shows; group 2: whose ("me", "my" …).
 */
export const CAPTION_OF_OWN_RE =
  /^\[image:\s*(?:(?:an?\s+)?(?:photo(?:graph)?|picture|pic|selfie|image|snap)\s+of\s+)?((me|us|my|our)\b[^\]]*)\]?/iu;
/** Pointing at something shared: "Check out this piece I made!", "Look at this", "Here's a pic". */
export const POINTING_RE = new RegExp(
  `^${LEAD}(?:check\\s+(?:this|it|them|these|that)?\\s*out|look\\s+at|take\\s+a\\s+look|see\\s+this|here['’]s\\s+(?:a\\s+|the\\s+|my\\s+)?(?:pic|photo|picture|snap|shot|one)|here\\s+(?:it\\s+is|they\\s+are))\\b`,
  'iu',
);
// ── A picture pointed at, said plainly (issue 28, precision) ──

/** What shows or points: "Take a look at", "Check out", "Here's", "Here are". */
const SHOWING_WORDS = `^${LEAD}(?:take\\s+a\\s+look\\s+at|look\\s+at|check\\s+out|here['’]s|here\\s+(?:is|are))\\s+`;
/** A picture, named ("pic", "photos", "snap"). */
const PICTURE_NOUN = '(?:pics?|photos?|pictures?|snaps?|shots?|images?)';
/** What points at a picture, up to what it shows: "Take a look at", "Check out pic of", "Here's a snap of", "Here are". */
const SHOWN_LEAD = `${SHOWING_WORDS}(?:(?:a|an|the|this|that|my|one)\\s+)?(?:(?:[\\p{L}-]+\\s+)?${PICTURE_NOUN}\\s+(?:of|from)\\s+)?`;
/** What a picture shows, named ("this unforgettable moment", "a cake", "my new vintage camera"): a determiner and up to eight words. */
const SHOWN_THING = `((?:a|an|the|this|these|those|that|some|my|our)(?:\\s+(?!(?:i|we|you|me|us|him|her|them|it|they|that|which|who|what|when|where|why|how)\\b)[\\p{L}\\p{N}'’-]+){1,8}?)`;
/** A verb of the speaker's, done or under way: "captured", "'ve just finished", "'m restoring". */
const SPEAKERS_VERB = `((?:['’](?:m|re)|\\s+(?:am|are))\\s+(?:(?:still|currently|now)\\s+)?\\p{L}{2,}ing|(?:['’]ve|\\s+(?:have|had))?\\s+(?:(?:just|recently|finally|also|actually|once)\\s+)?(?!used\\s+to\\b)(?:${PAST_VERB}|done|seen|taken|drawn|grown|ridden|written|eaten|given|worn|won))\\b`;
/** A preposition left at the end of what the speaker did to what is shown ("… the cars I'm working with right now"). */
const STRANDED = `\\s+(?:with|on|in|at|for|about|into|from|to|through|over)(?=\\s*(?:[.!?…,;]|$|(?:right\\s+)?now\\b|lately\\b|recently\\b|these\\s+days\\b|today\\b|yesterday\\b|(?:last|this)\\s+\\p{L}+))`;
/**
 * After the speaker's verb, what says the thing shown is not its object, so the clause is not
 * reshaped: another object ("… the café I told you about"), a verb that takes its object after
 * "of" / "about" ("… the car I'm thinking of buying"), an infinitive ("… a picture I wanted to show
 * you") or a preposition left at the end that is no simple one ("… the house I grew up in").
 */
const NOT_ITS_OBJECT = `(?!\\s+(?:you|him|her|them|me|us|it|of|about)\\b|\\s+to\\s+(?!(?:my|our|the|a|an|his|her|their|this|that|these|those)\\b)|.*\\b(?:in|on|at|to|with|for|about|up|out|from|of|into|over|through)\\s*[.!?…]*$)`;
/**
 * A clause that only hands the listener a picture the speaker found or has: "I've found the
 * picture with the best part of the workshop, take a look", "I took a lot of shots yesterday and
 * chose the best one to send to you". What it shows, the picture's caption says; the speaker says
 * nothing of themselves. Not a picture of an occasion the speaker was at ("I took this pic at the
 * falls last summer, take a look!", "… from my trip"), nor one that is not handed over ("I found
 * an old photo of my grandpa").
 */
export const PICTURE_HANDED_OVER_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:['’]ve|\\s+have)?\\s+(?:(?:just|finally|also|actually)\\s+)?(?:found|got|have|took|snapped|picked|chose|dug\\s+up|pulled\\s+up)\\s+` +
    `(?:a|an|the|this|that|these|those|some|one|(?:a\\s+(?:bunch|lot|couple|few)|lots)\\s+of)\\s+(?:[\\p{L}-]+\\s+){0,3}?${PICTURE_NOUN}\\b` +
    `(?![^.!?]*\\b(?:at|in|on|during|from|when|while|near)\\b)[^.!?]*?` +
    `(?:(?:take|have)\\s+a\\s+look|check\\s+(?:it|this|them)\\s+out|see\\s+for\\s+yourself|to\\s+(?:show|send|share)\\s+(?:(?:to|with)\\s+)?(?:you|ya))\\b[\\s.!?…]*$`,
  'iu',
);
/** "I" or "we" as said in a memory's first words. */
const asSubject = (w: string): string => (w.toLowerCase() === 'i' ? 'I' : 'We');
/** A phrase with its first letter capitalised, as the first words of a memory. */
const firstUp = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * A clause that points at a picture, said plainly: what the speaker did or has, reshaped from what
 * it points at ("Take a look at how I performed on stage" → "I performed on stage"; "Here's a pic
 * of a cake I made recently!" → "I made a cake recently!"; "Check out pic of my garage, it looks
 * stunning!" → "My garage looks stunning!"). Ordered: the first row that matches the whole clause
 * says it; a clause none matches keeps its words. The picture's caption is kept with it elsewhere.
 */
export const SHOWN_PLAINLY: readonly {
  readonly what: string;
  readonly re: RegExp;
  readonly plain: (m: RegExpExecArray) => string;
}[] = [
  // "Take a look at how I performed on stage, that was awesome!" ("… how I look" says no doing).
  {
    what: 'how the speaker did something',
    re: new RegExp(
      `${SHOWN_LEAD}how\\s+(i|we)\\s+(?!(?:look|looks|looked|feel|felt|am|was|were|are)\\b)(\\p{L}.*)$`,
      'iu',
    ),
    plain: (m) => `${asSubject(m[1]!)} ${m[2]}`,
  },
  // "Take a look at this unforgettable moment that I captured at the concert", "Here's a pic of the
  // car I'm restoring": what the speaker did to what is shown. Not the picture itself ("Here's a
  // shot I got when I volunteered" says when it was taken, not that a shot was got).
  {
    what: 'what the speaker did to what is shown',
    re: new RegExp(
      `${SHOWN_LEAD}(?!(?:a|an|the|this|that|my|one)\\s+(?:[\\p{L}-]+\\s+)?${PICTURE_NOUN}\\s+(?:that\\s+|which\\s+)?(?:i|we)\\b)${SHOWN_THING}\\s+(?:that\\s+|which\\s+)?(i|we)${SPEAKERS_VERB}(${STRANDED})?${NOT_ITS_OBJECT}(.*)$`,
      'iu',
    ),
    // "the cars I'm working with right now": what is shown goes after its preposition.
    plain: (m) => `${asSubject(m[2]!)}${m[3]}${m[4] ?? ''} ${m[1]}${m[5]}`,
  },
  // "Check out pic of my garage, it looks stunning!", "Here's a pic of my family - they're the
  // reason why I never give up": the speaker's own, then what it is like ("…, it was taken last
  // year" says it of the picture).
  {
    what: "the speaker's own, then what it is like",
    re: new RegExp(
      `${SHOWN_LEAD}((?:my|our)(?:\\s+[\\p{L}'’-]+){1,5}?)\\s*(?:,|\\s[-–—])\\s*(?:it|they)(?:(['’]s)|(['’]re)|\\s+)\\s*(?!(?:(?:was|is|were|are)\\s+)?(?:taken|shot|snapped|from)\\b)(\\p{L}.*)$`,
      'iu',
    ),
    // "it's been …" is "has been"; "it's …" otherwise "is …".
    plain: (m) =>
      `${firstUp(m[1]!)} ${m[2] ? (/^(?:been|got)\b/iu.test(m[4]!) ? 'has ' : 'is ') : m[3] ? 'are ' : ''}${m[4]}`,
  },
  // "Take a look at this park in my neighborhood that has these flowers": what is shown, then what it does.
  {
    what: 'what is shown, then what it does',
    re: new RegExp(
      `${SHOWN_LEAD}${SHOWN_THING}\\s+(?:that|which|who)\\s+((?:is|was|are|were|has|had|${PAST_VERB}|\\p{L}+s)\\b.*)$`,
      'iu',
    ),
    plain: (m) => `${firstUp(m[1]!)} ${m[2]}`,
  },
  // "Here's a pic of my family camping at the beach", "Here's a photo from my last hike - so
  // serene!": a picture of the speaker's own, with no doing said, is one the speaker shared.
  {
    what: "a picture of the speaker's own, shared",
    re: new RegExp(
      `${SHOWING_WORDS}(?:(?:a|an|the|this|that|another|one|some)\\s+)?(?:[\\p{L}-]+\\s+)?${PICTURE_NOUN}\\s+(of|from)\\s+((?:my|our)\\s+\\p{L}.*)$`,
      'iu',
    ),
    plain: (m) => `Shared a picture ${m[1]!.toLowerCase()} ${m[2]}`,
  },
];
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
      // "That must have been hard", "It must be awesome but it must have its own struggles", "Must
      // have been traumatizing for you guys": a guess at what the listener lives, not what the
      // speaker knows. Not what must be done by a time ("It must be done by Friday").
      // "Learning about their connections must be so cool": what the listener does, said with its
      // gerund as the subject (not one that names the speaker's own).
      "(?:(?:it|that|this|they|he|she|there)\\s+|(?![^.!?]*\\b(?:i|me|my|mine|myself)\\b)\\p{L}+ing\\s+(?:[\\p{L}'’-]+\\s+){0,6}?)?must\\s+(?:(?:really|surely|definitely|also|still|so|all)\\s+)*(?:be|have|feel|mean|take|get)\\b(?![^.!?]*\\b(?:by|before|until|tomorrow|tonight|today|next)\\b)",
      '(?:sounds?|looks?|seems?)\\s+(?:like|so|really|great|amazing|awesome|fun|good|lovely|cool|nice)\\b',
      `(?:what\\s+an?|how)\\s+(?:\\p{L}+\\s+)?(?:${PRAISE})\\b`,
      `(?:that|this|it)(?:['’]s|\\s+is|\\s+was)\\s+(?:so\\s+|really\\s+|such\\s+|just\\s+|absolutely\\s+|totally\\s+|super\\s+)*(?:an?\\s+)?(?:${PRAISE})\\b(?:\\s+\\S+){0,4}[\\s!.…]*$`,
      // (Not "I'm proud of finishing my first marathon", "… of myself", "… of my son": what is the speaker's own.)
      "(?:i['’]m|i\\s+am)\\s+(?:so\\s+|really\\s+|very\\s+)*(?:happy|glad|proud|sorry|thrilled|excited|impressed)\\s+(?:for|of(?!\\s+(?:my|myself|our|ourselves|\\p{L}+ing)\\b)|to\\s+hear|that\\s+you|you)\\b",
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
/**
 * What the listener said, judged by how it sounds, with its own subject: "A pastry party sounds
 * awesome, count me in!", "Camping with the kids sounds like fun". Not the speaker's own ("My plan
 * sounds crazy").
 */
export const SOUNDS_JUDGED_RE = new RegExp(
  `^${LEAD}` +
    "(?!(?:but|and|so|yet|though|although)\\b)(?:(?!(?:i|i['’]m|my|our|we|mine)\\b)[\\p{L}'’-]+\\s+){1,6}?sounds?\\s+(?:(?:so|really|super|very|pretty|truly|absolutely|like)\\s+)*(?:an?\\s+)?(?:great|amazing|awesome|fun|good|lovely|cool|nice|perfect|exciting|interesting|wonderful|delicious|incredible|fantastic|intense|tough|hard|rough|fascinating|relaxing|refreshing|peaceful|blast|plan|idea)\\b",
  'iu',
);
/** A wish, an offer or a hedge rather than a fact: "I'd love to help", "Let me know", "I hope so", "Maybe I should", "I'm up for trying it", "I'm hoping we can …" (as "I hope we can …"). */
export const WISH_RE = new RegExp(
  `^${LEAD}(?:(?:i['’]d|i\\s+would|we['’]d|we\\s+would)\\s+(?:really\\s+)?(?:love|like|be\\s+(?:happy|glad))\\s+to|let\\s+me\\s+know|(?:hope|hoping)\\s+(?:i|we|you|it|that|this|they|so)\\b|(?:i|we)\\s+(?:(?:really|truly|just|sure|do|also|so)\\s+)*(?:hope|wish)\\b|i\\s+(?:bet|guess|suppose)\\b|(?:i['’]m|i\\s+am|we['’]re)\\s+(?:(?:really|just|also|still)\\s+)*(?:wishing\\b|hoping\\s+(?:that\\s+)?(?:i|we|you|ya|it|they|this|things)\\b)|(?:can['’]?t|cannot)\\s+wait|i['’]ll\\s+keep\\s+(?:you|ya)\\s+(?:posted|updated)|(?:maybe|perhaps)\\b|i\\s+(?:might|may|could)\\b|(?:i\\s+)?(?:just\\s+)?wanted\\s+to\\s+(?:say|let|check|tell|ask)\\b|we\\s+(?:can|could|should)\\b|we['’]re\\s+all\\b|let['’]s\\b|makes?\\s+me\\s+(?:feel|want|think|wonder)|if\\s+(?:you|ya)(?:['’](?:re|d)|\\s+are|\\s+would)?\\s+(?:ever|want|wanna|need|interested|up\\s+for|keen|like|free|curious)|fingers\\s+crossed|(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+(?:(?:so|totally|always|definitely|really|all|def)\\s+)*(?:game|up|down)\\s+for\\b)`,
  'iu',
);
/** A passing state rather than a lasting one: "I'm so tired", "it's pretty late already", "Been a busy week", "Had a tough week". */
export const PASSING_STATE_RE = new RegExp(
  `^${LEAD}(?:(?:i['’]m|i\\s+am|i\\s+feel|i['’]ve\\s+been|i\\s+was|feeling|been|it['’]s|it\\s+is|it\\s+was)\\s+(?:so\\s+|really\\s+|pretty\\s+|very\\s+|a\\s+bit\\s+|kinda\\s+|super\\s+|just\\s+|quite\\s+|a\\s+little\\s+|such\\s+)*(?:tired|exhausted|busy|excited|happy|glad|sad|stressed|nervous|thrilled|grateful|thankful|okay|ok|good|great|fine|well|sick|bored|hungry|sleepy|pumped|stoked|late|early|cold|hot|sunny|rainy|an?\\s+(?:busy|long|crazy|hectic|rough|tough)\\s+\\p{L}+)|how['’]s\\s+it\\s+going|(?:(?:i|we)\\s+)?had\\s+(?:such\\s+)?an?\\s+(?:(?:really|very|pretty|super)\\s+)?(?:busy|long|crazy|hectic|rough|tough|hard|bad|stressful|wild)\\s+(?:day|week|weekend|month|night|time|year))\\b`,
  'iu',
);
/**
 * A "task" that is nothing to do: "I'll keep you posted", "I'll start thinking about it", "We'll
 * have fun", one with no time ("We'll go there together sometime"), one that lasts ("I will
 * always love reading", "I'll forever be grateful").
 */
export const VAGUE_TASK_RE = new RegExp(
  `(?:\\b(?:i['’]ll|i\\s+will|we['’]ll|we\\s+will)\\s+(?:always|forever)\\b|\\b(?:i['’]ll|i\\s+will|we['’]ll|we\\s+will|i\\s+(?:should|must|need\\s+to|have\\s+to|gotta)|i['’]m\\s+going\\s+to|i\\s+am\\s+going\\s+to|gonna)\\s+(?:(?:definitely|totally|really|probably|surely|also|just|def|always)\\s+)*(?:keep|let|think|start\\s+thinking|see|try|be|have\\s+(?:fun|a\\s+(?:blast|great|good))|make\\s+(?:some\\s+)?(?:\\p{L}+\\s+)?memories|check\\s+(?:it|them|that)\\s+out|tell\\s+you|say(?=\\s*[,:]|\\s+(?:that|this|it)\\b)|admit|confess|(?:talk|chat)(?=[\\s!.…]*$|\\s+(?:(?:to|with)\\s+(?:you|ya|u)|soon|later|more|again|about\\s+(?:it|this|that))\\b)|catch\\s+up|get\\s+back|do\\s+(?:it|that|this|so|the\\s+same)|look\\s+into\\s+it|remember|miss|stay\\s+in\\s+touch|send\\s+(?:you|pics?)|share|keep|go(?:\\s+now)?(?=[\\s!.…]*$)|head\\s+out|ttyl|take\\s+(?:a\\s+)?look|(?:always\\s+)?cherish|believe|take\\s+(?:the|your|that|those|this)\\s+(?:advice|bet|offer|tips?|idea)|reach\\s+out|get\\s+in\\s+touch|find\\s+time|make\\s+sure\\s+to\\s+(?:take|find|do|keep)\\s+(?:it|that|time|them))\\b|^${LEAD}don['’]?t\\s+forget\\s+to\\b|\\b(?:sometime|someday|some\\s+day|one\\s+day|at\\s+some\\s+point|eventually)\\b)`,
  'iu',
);
/**
 * Words after which "like" is no verb but "as if" or "such as": "it feels like nothing", "I feel
 * like a different person", "sounds like a fun way to …", "tastes like the real thing", "just like
 * any other relationship". Regex alternatives.
 */
export const LIKE_AS_IF_AFTER =
  'feel|feels|felt|feeling|look|looks|looked|looking|seem|seems|seemed|sound|sounds|sounded|smell|smells|smelled|taste|tastes|tasted|just|exactly|more|much|something|anything|nothing|kinda|sorta|things|stuff';
/** What "like", "love" or "enjoy" must not be followed by to be a liking: "I love how …", "I'd like to …". */
export const NOT_AN_OBJECT_RE =
  /^(?:how|that|it|this|those|these|them|you|your|when|what|the\s+way|to\s+(?:see|hear|help|check|know|meet|join|visit|read|try|say|thank)\b|seeing|hearing)\b/iu;
/**
 * Capitalised words that open a sentence and are no name, for patterns that read a capitalised
 * word as a subject ("Our shared garden …" is no "Our" who shared). Regex alternatives.
 */
export const CAPITALISED_NOT_NAME =
  'Our|Your|My|His|Her|Their|Its|A|An|And|But|So|Or|Then|Now|Just|Also|All|Some|Every|Each|No|Many|Most|Both|What|When|Where|Who|How|Why|Which|There|Here|These|Those|We|You|He|She|They';
/**
 * Capitalised words that open a sentence without naming anyone ("Just", "Right", "Much", "We've"),
 * {@link CAPITALISED_NOT_NAME} among them ("Our lives changed" names no "Our").
 */
export const NOT_A_NAME: ReadonlySet<string> = new Set(
  (
    'the this that these those it he she they we you there here what which who whom whose when where why how ' +
    'everything everyone everybody nothing nobody someone somebody something anything anyone life today yesterday tomorrow ' +
    'work it’s one mine just right much many more most some any all both each every also still even only ' +
    'really well so but and or yet then now now, maybe perhaps sometimes always never often usually besides ' +
    'anyway honestly actually basically luckily sadly thankfully hopefully definitely totally absolutely ' +
    'recently lately finally currently seriously literally apparently obviously clearly personally ' +
    'yes yeah no nope okay ok sure great cool nice wow oh ah hey hi hello thanks congrats ' +
    'yep yup agreed exactly indeed woah whoa wowza yay hooray bravo cheers congratulations omg lol haha ' +
    'christmas easter thanksgiving halloween art music family nature love life cooking reading painting ' +
    // A verb that opens a sentence typed with no subject ("Got married last weekend", "Moved to Berlin").
    'got went made took saw tried found loved felt spent bought visited started finished moved married ' +
    'adopted quit joined lost won met had did came became began been passed failed graduated retired ' +
    'signed booked landed scored ran left'
  )
    .split(' ')
    .concat(CAPITALISED_NOT_NAME.toLowerCase().split('|')),
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

// ── Formation: what a statement about a person is not (issue 28, formation half) ─────────────

/**
 * Feelings said in passing: "excited", "grateful", "proud". A clause that says only how the
 * speaker feels ("I felt so accepted", "I'm so excited to meet everyone") is not a lasting fact;
 * a liking or a condition ("passionate about", "allergic to") is not among them.
 */
/**
 * A good feeling, named as what something gives: "joy", "peace", "fulfillment" ("It brings me
 * joy to …", "something that brings us fulfillment"). Regex alternatives.
 */
const GOOD_FEELING_NOUN = 'joy|peace|happiness|purpose|comfort|satisfaction|fulfil+ment|calm|pride|meaning';
const FEELING =
  'excited|thrilled|stoked|pumped|happy|happier|glad|grateful|thankful|blessed|lucky|proud|fulfilled|liberated|empowered|inspired|motivated|determined|overwhelmed|stressed|scared|nervous|anxious|worried|relieved|touched|moved|honou?red|amazed|overjoyed|accepted|loved|supported|welcomed|sad|upset|frustrated|down|bummed|heartbroken|devastated|calm|peaceful|content|energi[sz]ed|refreshed|recharged|alive|free|powerful|special|comfortable|confident|hopeful|optimistic|safe|at\\s+peace';
// ── Passing feelings, more of them (issue 28, precision, round 6) ──
/**
 * More feelings said in passing: guilt, calm, closeness, boredom, a void. "I feel kinda guilty",
 * "I felt so relaxed", "I feel a void in my heart" say how the speaker feels, not what about.
 * Not a state that is also an event ("I got hurt", "I got lost", "I was stuck in traffic").
 */
const PASSING_FEELING =
  'guilty|relaxed|connected|lonely|bored|ashamed|embarrassed|confused|drained|exhausted|jealous|homesick|nostalgic|emotional|disappointed|discouraged|appreciated|valued|understood|humbled|reassured|encouraged|uplifted|rejuvenated|pleased|delighted|ecstatic|elated|joyful|satisfied|insecure|helpless|hopeless|empty|invincible|unstoppable|at\\s+ease|a\\s+void(?:\\s+in\\s+my\\s+(?:heart|life))?';

/** A clause that says how the speaker feels: "I felt so accepted", "I'm so excited to …". */
const FEELING_CLAUSE_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:(?:['’]m|['’]re|\\s+am|\\s+are|\\s+was|\\s+were|['’]ve\\s+been|\\s+have\\s+been)(?:\\s+(?:feeling|getting))?|\\s+(?:always\\s+)?(?:feel|felt|get|got))` +
    `(?:\\s+(?:so|really|very|super|totally|truly|just|a\\s+bit|kinda|quite|extremely|incredibly|deeply|also|still|even|much|always|beyond|more|most|genuinely|honestly|too))*` +
    `\\s+(?:${FEELING}|${PASSING_FEELING})(?:\\s*(?:,|and|&)\\s*(?:${FEELING}|${PASSING_FEELING}))*\\b`,
  'iu',
);
/**
 * What a feeling is about, named right after it: a possessive, a capitalised name or what the
 * speaker does ("… for my sister's help", "… about Japan", "… about dancing each day").
 * Case-sensitive, unlike the lexicon's `iu` patterns: under `i`, `\p{Lu}` matches any letter,
 * and "… about the trip" would name something. Not "… for being …", "… by seeing …".
 */
const FEELING_NAMED_OBJECT_RE =
  /^\s+(?:about|of|with|for|at|by|in)\s+(?:(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\b|\p{Lu}|\d|(?!(?:being|having|seeing|hearing|knowing|getting\s+to)\b)\p{Ll}{2,}ing\b(?![^.!?]*\b(?:you|your)\b))/u;
/**
 * Whether a clause says how the speaker feels and nothing it is about: "I felt so accepted", "I'm
 * so excited to meet other people", "I'm much happier being around them", "I was nervous about
 * the exam". One that names what the feeling is about by a name or a possessive ("I'm grateful
 * for my sister's help", "I'm excited about Japan"), or says what inspires the speaker ("I'm
 * inspired by autumn") or names a favourite after it, is kept; "grateful for the chance to …" is
 * still a feeling.
 */
export function saysOnlyAFeeling(text: string): boolean {
  const m = FEELING_CLAUSE_RE.exec(text);
  if (m === null) return false;
  const rest = text.slice(m[0].length);
  return (
    !FEELING_NAMED_OBJECT_RE.test(rest) &&
    !(FEELING_WITH_SOURCE_RE.test(m[0]) && SOURCE_NAMED_RE.test(rest)) &&
    !namesOwnCause(rest, text) &&
    !(LUCKY_RE.test(m[0]) && LUCKY_FIND_RE.test(rest) && !LISTENER_ANY_RE.test(text)) &&
    // "I've been blessed to travel to a few places and Bali last year was one of my favs": a favourite named after it.
    !(FAVOURITE_RE.test(rest) && !LISTENER_ANY_RE.test(text))
  );
}
/**
 * What the speaker did, said after the feeling as its cause ("I'm so excited, I opened my car shop
 * last week!", "I have been stressed since I lost my work files", "I was so nervous I forgot my
 * lines"): the clause says what happened, not only how it felt. Not about the listener ("I'm so
 * glad I got to meet you"), nor a likeness ("I felt like I got a new lease of life").
 */
const FEELING_CAUSE_DONE_RE = new RegExp(
  `(?<!\\b(?:like|if)\\s+)\\b(?:i|we)\\s+(?:(?:just|recently|finally|also|actually|even|already|first)\\s+)?(?:${PAST_VERB})\\b\\s+\\p{L}`,
  'iu',
);
/**
 * The speaker's own cause, named after "because" or "since": "… because I finally finished my
 * painting", "… because of my tournament progress", "… since we moved to Porto". Not the
 * listener's ("… because you came": `LISTENER_ANY_RE`), nor what "it" or "that" was ("… because
 * it worked"), nor an opinion ("… because I think so").
 */
const OWN_CAUSE_RE =
  /\b(?:because|since|['’]?cause)\s+(?:of\s+(?:my|our)\s+\p{L}|(?:i|we)(?:['’](?:ve|m|re|d))?\s+(?!(?:think|thought|guess|know|knew|feel|felt|hope|mean|said|say|can['’]?t|don['’]t|didn['’]t)\b)\p{L})/iu;
/**
 * Whether what follows a feeling (`rest`, of the clause `text`) names its cause, the speaker's
 * own: what they did ("I'm so excited, I opened my car shop last week!") or what they say is why
 * ("I'm so happy because I finally finished my painting", "I've been so stressed because of my
 * tournament progress"). The cause is what the memory keeps; the feeling alone is none.
 */
export function namesOwnCause(rest: string, text: string): boolean {
  return (FEELING_CAUSE_DONE_RE.test(rest) || OWN_CAUSE_RE.test(rest)) && !LISTENER_ANY_RE.test(text);
}
/** Luck, felt: "I got lucky …", "We were so fortunate …". */
const LUCKY_RE = /\b(?:lucky|fortunate)$/iu;
/**
 * What the speaker was lucky to come by, named after it: "I got lucky finding a breeder nearby",
 * "We were lucky to get tickets for the final". Not what was had ("lucky to have …", a fact
 * elsewhere) nor a pronoun ("lucky to find it").
 */
const LUCKY_FIND_RE =
  /^\s+(?:to\s+(?:find|get|land|meet|score|catch|grab|win)|finding|getting|landing|meeting|scoring|catching|grabbing|winning)\s+(?!(?:it|them|this|that|one|him|her)\b)\p{L}/iu;
/** Feelings whose source says what drives the speaker: "I'm inspired by autumn", "I'm motivated by a thirst for adventure". */
const FEELING_WITH_SOURCE_RE = /\b(?:inspired|motivated|energi[sz]ed)$/iu;
/** A source named after "by" that is not the listener's or what was said ("… by your drive", "… by it"). */
const SOURCE_NAMED_RE = /^\s+by\s+(?!(?:you|your|it|this|that|them|these|those)\b)\p{L}/iu;
/**
 * A clause whose object is a pronoun or "the same": "I want to pass it on to others", "We love
 * it", "My snake did it", "A friend made it for my birthday", "I also did the same", "I met her at the gym", "I still really want
 * one." What it is about is said in another clause. ("one" only at the clause's end: "I want one
 * more chance" names its object.) So is an object whose noun is left out ("I saw another at a pet
 * store", "I just submitted a few more last week", "I started writing another one"): more of
 * what, is said elsewhere ("another painting", "a few more scripts" name it). What it is taken as
 * is said of it, not named by it ("I see it as a chance to grow", "I got it as a gift", "I use them as a way to unwind").
 */
export const OBJECT_REFERS_BACK_RE = new RegExp(
  `^${LEAD}(?:i|we|my\\s+[\\p{L}'’-]+(?:\\s+${NAME})?|${NAME}|(?:a|an)\\s+(?:[\\p{L}'’-]+\\s+)?(?:friend|${RELATIONS}))\\s+(?:(?:also|just|really|totally|still|even|definitely|always|never|finally|actually|now|first|recently|usually|often|sometimes|ever|do|did|can|could|will|would)\\s+)*` +
    `\\p{L}+(?:\\s+to\\s+\\p{L}+|\\s+\\p{L}{2,}ing)?\\s+(?:one(?=\\s*(?:[,.!?;…—–]|$))|(?:it|them|her|him|the\\s+same|this|that|these|those|another(?:\\s+one)?|(?:a\\s+few|a\\s+couple|some|one|two|three|several)\\s+more)` +
    `(?=\\s*(?:[,.!?;…—–-]|$)|\\s+(?:to|for|on|off|up|out|in|into|onto|at|with|from|after|before|when|while|since|during|over|through|last|yesterday|today|tonight|now|here|there|and|but|so|too|because|a\\s+lot|all|again|already|every|more|so\\s+much|as\\s+well|as)\\b))`,
  'iu',
);
/**
 * A pronoun object with what it is said to be after it: "I find it really rewarding", "I found
 * them so helpful", "I find it helps me relax". Each says what the speaker thinks of something
 * said elsewhere. Not "it" that stands for what comes after ("I find it helpful to plan my week",
 * "I find it hard that …").
 */
export const OBJECT_JUDGED_RE = new RegExp(
  `^${LEAD}(?:i|we)\\s+(?:(?:also|just|really|totally|still|even|definitely|always|actually|now|do|did)\\s+)*(?:find|found|consider|considered)\\s+(?:it|them)\\s+(?![^.!?;]*\\b(?:to|that|how|when|if|whether)\\b)\\p{L}`,
  'iu',
);
/**
 * A pronoun object after a preposition, after a verb in -ing or "to …", or "there", that ends the
 * clause or has little after it: "I even swapped numbers with a couple of them", "I stayed there
 * quite a bit", "I'm proud of it", "I got so close to finishing it", "I really should start doing
 * that as well", "… to make it happen", "I've been dreaming of this for a while now", or goes on
 * with a clause of its own or a reason ("I'm passionate about it and it's time to …", "I lost
 * some of it because I forgot to save"). What it stands for is said in
 * another clause. Read like {@link OBJECT_REFERS_BACK_RE}.
 */
export const TRAILING_REFERENT_RE = new RegExp(
  `^${LEAD}(?:i|we|i['’](?:m|ve|d|ll)|we['’](?:re|ve|d|ll)|${SUBJECT_LEFT_OUT})\\s[^.!?;,]*?(?:\\b(?:with|to|for|about|from|of|at|in|on|into|without|around|near|over|after)\\s+(?:(?:a\\s+few|a\\s+couple|some|one|two|three|most|all|each|many|both|none|any)\\s+of\\s+)?(?:it|them|(?:this|that)(?:\\s+one)?|these|those|him|her|one)|\\b(?:to\\s+\\p{L}+|\\p{L}{2,}ing)\\s+(?:it|them|this|that|these|those)|(?<!\\b(?:be|am|is|are|was|were|been|always)\\s+|['’](?:m|re|s)\\s+)\\bthere)` +
    `(?=\\s*(?:[,.!?;…—–-]|$)|\\s+(?:quite\\s+a\\s+bit|a\\s+lot|a\\s+while|too|again|already|now|as\\s+well|one\\s+day|some\\s*day|so\\s+much|(?:and|but|so)\\s+(?:i|it|it['’]s|that['’]s|i['’](?:m|ve|d|ll))|(?:because|since|when|while|after|before|until)\\s+(?:i|we)(?:['’](?:m|re|ve|d|ll))?|happen|work|(?:a|an|\\d+|one|two|three|a\\s+few|a\\s+couple\\s+of|several|many)\\s+(?:days|weeks|months|years)\\s+(?:ago|back)|for\\s+(?:a\\s+while|ages|years|(?:a|an|\\d+|one|two|three|a\\s+few|a\\s+couple\\s+of|several|many)\\s+(?:days|weeks|months|years)))\\b)`,
  'iu',
);
/**
 * A gerund subject whose object is "it" or "them": "Taking care of it motivates me to keep
 * going", "Seeing them grow up makes me proud", "Playing with them is the best part of my day".
 * What the pronoun stands for is said in another clause, as a trailing pronoun's is. Not the
 * idioms whose "it" stands for nothing ("Taking it easy …", "Making it to the finals …").
 */
export const GERUND_SUBJECT_REFERS_BACK_RE = new RegExp(
  `^${LEAD}(?!(?:taking|making)\\s+it\\b)\\p{L}{2,}ing\\s+(?:[\\p{L}'’]+\\s+){0,2}?(?:it|them)\\s+(?:[\\p{L}'’]+\\s+){0,2}?(?:is|was|are|were|has|have|had|makes?|made|keeps?|kept|gives?|gave|helps?|helped|motivates?|motivated|brings?|brought|reminds?|reminded|means?|meant|feels?|felt)\\b`,
  'iu',
);
/**
 * "This one" as the subject of a clause ("This one's my favorite", "This one of my favorites",
 * "This one was taken at sunset"): in a turn that shares a picture, the one shown.
 */
export const THIS_ONE_SUBJECT_RE = new RegExp(
  `^${LEAD}(?:this|that)\\s+one(?:['’]s\\b|\\s+(?:is|was|of|has|had|right\\s+here)\\b)`,
  'iu',
);
/**
 * A line said by someone, quoted first in a clause: four words or more in quotation marks, with a
 * subject of its own and words in lower case ("\"I'm gonna make him an offer he can't refuse\" - now
 * that's motivation!"). A title in quotes ("\"The Night We Met\" is my favourite song") is no line, and a
 * line the clause goes on to make the speaker's is theirs ("\"You miss 100% of the shots you don't take\" is my motto").
 */
export const QUOTED_LINE_RE =
  /^["“](?=[^"”]*\b(?:I|I['’]m|[Ww]e|[Yy]ou|[Hh]e|[Ss]he|[Tt]hey)\b)(?=[^"”]*\s\p{Ll}{2,})(?:[^"”\s]+\s+){3,}[^"”\s]+["”]\s*(?:[-–—,.!?:;]|$)/u;
/**
 * What the speaker was doing when something happened, said before "and": "I was playing video
 * games and my pet just slinked out of her cage". The two are one event, not a clause each.
 */
export const BACKGROUND_DOING_RE = new RegExp(
  `^${LEAD}(?:i|we)\\s+(?:was|were)\\s+(?:just\\s+|still\\s+)?\\p{L}{2,}ing\\b`,
  'iu',
);
/**
 * "It was …", "It's …", "It has been …" first in a clause: what is judged is what was said before
 * it ("I read a book about castles. It was so interesting!"). Anchored, case-insensitive.
 */
export const IT_JUDGED_RE = new RegExp(`^${LEAD}it(?:['’]s|\\s+(?:was|is|has\\s+been|had\\s+been))\\b`, 'iu');
/**
 * A clause whose "it" (or "this") may be the picture shared with it: "I painted it because it was
 * calming", "I put in a lot of work restoring it", "I made this last night!"; not one that says
 * "them", "there", "her" (people or a place in it) or speaks to the listener ("I made this for you").
 */
export const IT_MAY_BE_PICTURED_RE = /^(?!.*\b(?:them|there|him|her|his|you|your)\b).*\b(?:it|this|these)\b/iu;
/**
 * A thing a clause points at with "this" / "these" and a noun, which a picture shared in the same
 * turn shows: "I finally got myself this beauty", "These little guys bring joy to my life", "I
 * took this pic last summer". Not a time ("this week", "these days"), a manner ("this way", "this
 * kind of …"), what is lived rather than seen ("all this hard work", "this opportunity", "in this
 * area", "a fan of this genre"), nor "this" standing alone ("this is", "this really helped").
 */
export const THIS_THING_RE =
  /(?<!\b(?:all|of|about|in|like)\s+)\b(?:this|these)\s+(?!(?:week|weekend|month|year|morning|afternoon|evening|night|time|summer|winter|spring|fall|autumn|season|semester|term|past|coming|next|last|day|days|weeks|months|years|times|way|ways|kind|kinds|sort|type|point|stuff|thing|things|whole|work|hard|area|issue|issues|situation|idea|opportunity|moment|journey|experience|process|challenge|problem|news|topic|conversation|chat|world|life|year['’]s|is|was|are|were|has|had|have|does|did|will|would|can|could|must|might|should|may|really|just|also|all|too|one|ones|and|but|for|with|to|of|in|on|at|as|so|sounds?|looks?|seems?|feels?|means?|makes?|helps?|reminds?|brings?|gives?|keeps?|shows?|[\p{L}]{2,}ed)\b)\p{L}{3,}/iu;
/**
 * A thing pointed at by "this" / "these" and a noun ({@link THIS_THING_RE}) that is the subject of
 * a clause, first in it or after "and" / "but" / a comma: "… and this series is one of my
 * favorites", "This plaque I keep on my desk is a constant reminder …", "These little guys bring
 * joy to my life". What the clause says, it says of what a picture shared with it shows, however
 * long it is.
 */
export const THIS_THING_SUBJECT_RE = new RegExp(
  `(?:^${LEAD}|(?:[,;:–—-]|\\b(?:and|but))\\s+)${THIS_THING_RE.source}(?:\\s+(?!(?:and|but|or|so|because|when|while|if|to)\\b)[\\p{L}'’-]+){0,5}?\\s+(?:is|was|are|were|has|have|had|means?|meant|makes?|made|reminds?|reminded|brings?|brought|gives?|gave|keeps?|kept|shows?|showed|sits?|sat|hangs?|hung|got|gets)\\b`,
  'iu',
);
/**
 * "This" / "these" alone as the subject of "is" / "was" and what it shows: "This is me at the
 * beach", "This is a book I found", "This was the view from our cabin", "This is from my trip to
 * Peru", "This is where I grew up". In a turn that shares a picture, the one shown. Not what a
 * remark says it is ("This is why I …", "This is a big step for me", "This is so cool"), nor
 * "This is my new puppy", "This is a photo from my sister's wedding", which name what it shows.
 */
export const THIS_ALONE_RE = new RegExp(
  `^${LEAD}(?:this|these)(?:['’]s|\\s+(?:is|was|are|were))\\s+(?:(?:me|us|from|where)\\b|(?:a|an|the)\\s+(?!(?:big|huge|real|great|good|reason|way|kind|sort|start|step|move|chance|lot|part|first\\s+time|best\\s+part|photos?|pictures?|pics?|shot|snap(?:shot)?|image)\\b))`,
  'iu',
);
/**
 * "This" / "these" alone as the object of a verb: "I even got this as a treat", "I made these
 * last night", "Found this at a flea market!", "I revised an old recipe and made this!". In a turn that shares a picture, the one
 * shown, however much the clause or the statement it goes on with says. Not "this" before a noun
 * ("this book": {@link THIS_THING_RE}), a subject ("This is me": {@link THIS_ALONE_RE}), "like
 * this", "all this" (a manner, a situation), nor what is said or done ("I've said this so many
 * times", "if I do this").
 */
export const THIS_OBJECT_RE = new RegExp(
  `(?:^|(?<=[\\p{L},]\\s+))(?!(?:like|all|is|was|are|were|be|been|of|about|for|with|in|on|at|to|from|into|by|that|and|but|or|so|what|how|say|says|said|saying|tell|told|do|does|did|doing|done|mean|meant|know|knew)\\b)\\p{L}{2,}\\s+(?:this|these)` +
    `(?=\\s*(?:[,.!?;…—–-]|$)|\\s+(?:as|for|at|on|in|from|with|last|yesterday|today|recently|myself|ourselves|when|while|after|before|because|and|but|so|too|back|up|a\\s+(?:while|few|couple))\\b)`,
  'iu',
);
/**
 * A name said alone, exclaimed or asked: "Paris?!", "The Louvre?", "Rome!". What the speaker's
 * "it" after it in the same turn stands for ("Paris?! That is really great Jon! Never had a chance
 * to visit it."). Each word must be able to be a name ({@link canBeName}: not "Wow!", "Yes?"), and
 * no praise ("Awesome!"). Group 1: the name, with its "the". Case-sensitive.
 */
export const NAME_EXCLAIMED_RE = /^((?:[Tt]he\s+)?\p{Lu}[\p{L}\p{M}'’-]+(?:\s+\p{Lu}[\p{L}\p{M}'’-]+){0,3})\s*[?!]+$/u;
/**
 * A thing said to be like "this" / "these", what a picture shared with it shows: "a thing like
 * this", "something like this", "Stuff like this mural", "reminders like these". Not a verb
 * ("I've never felt like this", "It looks like this") nor a time ("times like these").
 */
export const THING_LIKE_THIS_RE =
  /\b(?!(?:feel|feels|felt|feeling|look|looks|looked|looking|sound|sounds|sounded|seem|seems|seemed|be|am|is|was|are|were|been|being|times|just|exactly|much|more|nothing|lot|out)\b)\p{L}{3,}\s+like\s+(?:this|these)\b(?!\s+(?:week|weekend|time|times|year|month|morning|day|days)\b)/iu;
/** When a clause says something is done, and nothing else: "next month", "on Monday", "yesterday", "in two weeks", "soon". */
const WHEN_ONLY = `(?:tomorrow|today|tonight|yesterday|soon|later|now|again|already|finally|too|officially|(?:next|last|this)\\s+\\p{L}+|on\\s+\\p{L}+day|in\\s+(?:a|an|\\d+|one|two|three|four|five|six|a\\s+few|a\\s+couple\\s+of)\\s+(?:days?|weeks?|months?|years?)|(?:a|an|\\d+|one|two|three|four|five|six|a\\s+few|a\\s+couple\\s+of)\\s+(?:days?|weeks?|months?|years?)\\s+ago)`;
/**
 * A verb that needs an object said without one, and only when after it: "I'm starting next
 * month", "I finished yesterday!", "We launch on Monday", "I'll apply in two weeks". What is
 * started or finished is said in another clause ("I'm taking a pottery class. I'm starting next
 * month"); "I'm starting a new job at Google next month" and "I graduated last year" (a verb that
 * needs none) say it. So does a win or a loss said with nothing it was in: "I came out on top",
 * "We won yesterday!", "I pulled it off" (what was won is said before: "I played in the regional
 * chess tournament").
 */
export const OBJECT_LEFT_OUT_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:['’](?:m|re|ll|ve|d)|\\s+(?:am|are|will|was|were|have|had))?\\s+(?:(?:just|finally|also|already|officially|actually|really|gonna|going\\s+to|about\\s+to|supposed\\s+to|planning\\s+to|hoping\\s+to|(?:get|got)\\s+to|be)\\s+)*` +
    `(?:start(?:s|ed|ing)?|beg(?:in|ins|inning|an|un)|finish(?:es|ed|ing)?|complet(?:e|es|ed|ing)|submit(?:s|ted|ting)?|launch(?:es|ed|ing)?|appl(?:y|ies|ied|ying)|resum(?:e|es|ed|ing)|sign(?:s|ed|ing)?\\s+up|came\\s+out\\s+on\\s+top|came\\s+(?:in\\s+)?(?:first|second|third)|won|lost|made\\s+it(?:\\s+through)?|pulled\\s+(?:it|that)\\s+off)` +
    `(?:\\s+${WHEN_ONLY})*\\s*[.!…]*$`,
  'iu',
);
/**
 * A third person or a place inside a clause, not as its subject: "I can still remember the smell
 * of her special dish", "Once I read a book there", "I make sure to take them out every
 * morning". Whom or where it is, is said in another clause, unless the clause names it before
 * ({@link PERSON_BEFORE_RE}, {@link PLURAL_BEFORE_RE}, {@link PLACE_BEFORE_RE}). Not "there" that
 * says something exists ("… there is a park"). Group 1: the word.
 */
export const INNER_PRONOUN_RE =
  /(?<=\S\s+)\b(her|him|his|them|their|there)\b(?!\s+(?:is|are|was|were|has|have|had|will|would|isn['’]t|aren['’]t|wasn['’]t|weren['’]t)\b|['’]s\b)/iu;
/** A person named before a "her", "him" or "his" in the clause: a name, "my mom", "a girl", "the teacher". */
export const PERSON_BEFORE_RE = new RegExp(
  `\\b(?:a|an|the|my|our|this|that|his|her|their)\\s+(?:[\\p{L}'’-]+\\s+)?(?:${RELATIONS}|girl|boy|man|woman|guy|lady|person|kid|student|member|client|customer|owner|instructor|coach|mentor|artist|player|actor|author|writer|singer)\\b`,
  'iu',
);
/** A name before a "her", "him" or "his" in the clause, not its first word (case-sensitive: under `i`, `\\p{Lu}` is any letter). */
export const NAME_BEFORE_RE = /(?<=\S\s+)\b(?!I\b)\p{Lu}\p{Ll}+/u;
/** Things or people named before a "them" or "their": a plural ("two puppies", "my students", "the kids"). */
export const PLURAL_BEFORE_RE =
  /\b(?:a|an|the|my|our|some|two|three|four|five|several|these|those|many|all|few|new)\s+(?:[\p{L}'’-]+\s+)?\p{L}{2,}s\b|\b(?:people|kids|children|folks|friends|family|team|group|class|everyone|parents|students|colleagues|coworkers|co-workers|members|fans|players|volunteers|neighbou?rs|clients|customers|readers|viewers|audience|crowd|participants|attendees|teachers|artists|musicians|veterans|animals|siblings|teammates|classmates|others)\b/iu;
/**
 * "This", "that", "these", "those" as the determiner of a noun inside a clause, not its subject:
 * "I've heard of that game", "Capturing that view was amazing", "I'll never forget those
 * moments". What the noun is, is said before ("that game": the game the turn or the other
 * speaker named). Not a time ("this weekend", "these days"), a measure or a manner ("that much",
 * "that way"), nor "that" opening a clause ("I realised that life is short", "I'm glad that
 * people care"). "Those" only after remembering or missing ("I'll never forget those moments"):
 * elsewhere it is as often a kind ("capture those special moments", "those close to me").
 */
export const DEMONSTRATIVE_INSIDE_RE = new RegExp(
  `(?:\\b(?:of|about|with|on|in|at|to|for|from|into|like|through|over|after|(?!(?:some|any|every|no)thing\\b)\\p{L}{2,}ing|tried|try|visited|visit|watched|watch|played|play|love|loved|like|liked|miss|missed|captured|capture|took|take|got|get|had|have|made|make|enjoyed|enjoy|saw|see|read)\\s+that\\s+|\\b(?:forget|remember|remembered|cherish|treasure|miss|missed)\\s+those\\s+)` +
    `(?!(?:times?|weeks?|weekends?|months?|years?|days?|mornings?|afternoon|evenings?|nights?|summer|winter|spring|fall|autumn|season|moment|point|way|much|many|far|long|same|kind|sort|type|ones?|stuff|who|whom|which|of|is|was|are|were|i|you|he|she|it|we|they|my|your|his|her|our|their|the|a|an|there|this|that|people|everyone|everything|someone|something|all|if|when|how|what)\\b)` +
    `\\p{L}{3,}\\b(?!\\s+(?:is|was|are|were|has|have|had|can|could|will|would|should|must|makes?|made|gets?|helps?|me|us|you|him|her|them|it)\\b)`,
  'iu',
);
/** A possessive "their" inside a clause ("Things can be tough, but their support means everything to me"): whose, is said before unless named before it in the clause ({@link PLURAL_BEFORE_RE}). */
export const THEIR_INSIDE_RE = /(?<=\S\s+)\btheir\s+\p{L}/iu;
/** A place named before a "there": "I went to the park and played there", "I visited Rome and loved it there". */
export const PLACE_BEFORE_RE = /\b(?:to|in|at|into|from|near|around|visited|visit|visiting|left|reached)\s+\p{L}/iu;

/**
 * "We" as the subject: said right after a statement of the same turn, it is whom that statement
 * named ("I'm lucky to have my cousins nearby. We cook together every Sunday"); first in a turn,
 * the speaker and theirs.
 */
export const WE_SUBJECT_RE = new RegExp(`^${LEAD}(?:we|we['’](?:re|ve|d|ll))\\b`, 'iu');
/**
 * A verbless "For …ing" fragment: the rest of what the sentence before it said or thanked for
 * ("For encouraging me to try new genres", once "Thanks" is cut off). No subject of its own.
 */
export const FOR_ING_FRAGMENT_RE = new RegExp(
  `^${LEAD}for\\s+\\p{L}{2,}ing\\b(?![^,;:]*\\b(?:i|we|they|he|she)(?:['’]\\p{L}+)?\\s)[^,;:]*$`,
  'iu',
);
/**
 * Said to the listener about the listener's words or doings, though it opens with "I": "I really
 * respect you for that", "I love the thought", "I love when you …", "I would also say that your …",
 * advice ("I recommend trying …", "I'd suggest …") and encouragement of oneself said in reply
 * ("I won't give up", "Hiccups won't stop me", "I'm gonna stay positive and keep going", "I'll take
 * it one day at a time", "Trying my best").
 */
export const ADDRESSED_RE = new RegExp(
  `^${LEAD}(?:` +
    [
      'i\\s+(?:really\\s+|totally\\s+|completely\\s+|truly\\s+|so\\s+|also\\s+)*(?:respect|admire|envy|applaud|encourage|support|believe\\s+in|love|like|adore|appreciate)\\s+(?:you|your|the\\s+(?:thought|idea|sound\\s+of\\s+that)|(?:it|that)\\s+when\\s+you|when\\s+you|that\\s+idea|it|that)\\b(?!\\s+(?:so\\s+much\\s+)?(?:because|since))',
      "i(?:\\s+would|['’]d)\\s+(?:also\\s+|definitely\\s+|really\\s+|totally\\s+|highly\\s+)*(?:say|add|agree|recommend|suggest|advise)\\b",
      'i\\s+(?:really\\s+|strongly\\s+|highly\\s+|definitely\\s+|totally\\s+|also\\s+)*(?:recommend|reccomend|recomend|suggest|advise)\\b',
      "(?:i|we)\\s+(?:won['’]t|will\\s+not|never)\\s+(?:give\\s+up|quit|stop|lose\\s+(?:focus|hope|sight|faith|heart)|let\\s+(?:you|anything|anyone|it))\\b",
      "(?:nothing|[\\p{L}'’-]+(?:\\s+[\\p{L}'’-]+)?)\\s+(?:won['’]t|will\\s+not|can['’]t|cannot|is\\s+not\\s+going\\s+to|isn['’]t\\s+going\\s+to|(?:is|are)n['’]t\\s+gonna)\\s+(?:ever\\s+)?(?:stop|hold|get|keep|bring|slow|break)\\s+(?:me|us)(?:\\s+(?:back|down))?(?:\\s+(?:now|again))?[\\s!.…]*$",
      "(?:i['’]m|i\\s+am|i['’]ll|i\\s+will|we['’]ll|we\\s+will|i\\s+(?:gotta|got\\s+to|have\\s+to|need\\s+to|must)|we\\s+(?:gotta|got\\s+to|have\\s+to|need\\s+to|must)|i['’]m\\s+(?:(?:definitely|really|totally|also|still|actually|seriously)\\s+)?(?:gonna|going\\s+to))\\s+(?:(?:definitely|totally|really|just|also|always|keep\\s+on|trying\\s+to)\\s+)*(?:stay\\s+(?:positive|strong|focused|motivated|determined|hopeful|in\\s+touch)|keep\\s+(?:going|pushing|at\\s+it|it\\s+up|trying|that\\s+in\\s+mind|you\\s+(?:posted|updated))|take\\s+it\\s+(?:one\\s+day|easy|slow)|stick\\s+together|have\\s+(?:some\\s+)?faith|keep\\s+(?:the\\s+)?faith|be\\s+patient|push\\s+(?:through|on|forward)|hang\\s+in\\s+there|do\\s+my\\s+best|give\\s+it\\s+(?:a\\s+(?:try|shot|go)|my\\s+all))\\b",
      "i\\s+(?:can['’]?t|cannot)\\s+wait\\b",
      "(?:(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+)?(?:(?:just|really|still|always)\\s+)*(?:trying|doing|putting\\s+in)\\s+(?:my|our)\\s+(?:very\\s+)?best\\b",
      "(?:i['’]m|i\\s+am)\\s+(?:really\\s+|so\\s+|also\\s+)*looking\\s+forward\\s+to\\s+(?:\\p{L}+ing|it|that|this|seeing|meeting|hearing)\\b",
      '(?:just\\s+)?a\\s+reminder\\s+to\\b',
      "(?:i['’]m|i\\s+am)\\s+(?:so\\s+|pretty\\s+|really\\s+)?(?:sure|certain|positive|confident)\\b(?!\\s+(?:of|about)\\s+(?:my|the)\\b)",
      'i\\s+(?:really\\s+|totally\\s+|just\\s+)?(?:know|think|bet|get|understand|believe|feel|can\\s+tell)\\s+(?:that\\s+)?(?:you|your|how\\s+(?:that|you|much|hard|tough)|why\\s+you|what\\s+you)\\b',
      "(?:i['’]m|i\\s+am)\\s+(?:off|heading\\s+out)\\s+to\\b",
      // "I totally understand the satisfaction you get from …", "I remember when you started …", "I noticed your pet in the picture".
      'i\\s+(?:(?:totally|completely|really|truly|fully|also|still|just|definitely)\\s+)*(?:understand|see|hear|remember|noticed?|saw)\\s+[^.!?;]*?\\b(?:you|your)\\b',
      // "I understand how frustrating …", "I get how it feels", "I know what you mean", "I understand the
      // stress of …": understanding what the listener lives ("I know how to fix it" is the speaker's).
      "i\\s+(?:(?:totally|completely|really|truly|fully|definitely|can|do|also)\\s+)*(?:understand|get|know)\\s+(?:(?:how|what|why)\\s+(?!to\\b)(?:[\\p{L}'’-]+\\s+){0,2}?(?:it|that|this|you|life|things|frustrating|hard|tough|difficult|scary|stressful|exhausting|overwhelming|upsetting|painful)\\b|the\\s+(?:stress|struggle|feeling|frustration|pressure|pain|worry|fear)\\b)",
      // "I'm in awe of your courage", "Loving your newfound passion", "Wishing you a great day", "I'll keep my fingers crossed for you".
      "(?:(?:i['’]m|i\\s+am)\\s+(?:(?:so|really|just|totally)\\s+)*)?(?:in\\s+awe\\s+of|loving|wishing)\\s+(?:you|your)\\b",
      "i(?:['’]ll|\\s+will)?\\s+(?:(?:definitely|totally|really|also)\\s+)*(?:keep|have)\\s+(?:my\\s+)?fingers\\s+crossed\\b",
      'i\\s+(?:have|had)\\s+(?:(?:so\\s+much|complete|full|total|every)\\s+)?faith\\s+in\\s+(?:you|ya)\\b',
      'been\\s+(?:a\\s+(?:long|tough|rough|hard|wild|crazy)\\s+(?:road|ride|time|week|month|year|journey)|having\\s+(?:some\\s+)?(?:tough|rough|hard)\\s+times?)\\b',
    ].join('|') +
    ')',
  'iu',
);
/**
 * Leaving to do something: "I'm off to do some taekwondo!", "Well, I'm off to have dinner with
 * some friends from the gym", "We're heading out to go swimming with the kids". Group 1: what the
 * speaker leaves to do. Read with {@link LEAVING_ONLY_RE}: "I'm off to bed" only signs off.
 */
export const OFF_TO_RE = new RegExp(
  `^${LEAD}(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+(?:(?:just|now|also)\\s+)?(?:off|heading(?:\\s+out)?)\\s+to\\s+(.+)$`,
  'iu',
);
/** What one leaves to do that only signs off: bed, sleep, work, a meal alone ("I'm off to get some rest", "… to grab lunch"). */
export const LEAVING_ONLY_RE =
  /^(?:(?:go|get|grab|head|have|eat)\s+(?:to\s+)?)?(?:some\s+|my\s+|the\s+)?(?:bed|sleep|rest|work|office|school|class|now|eat|lunch|dinner|breakfast|shower|store|shops?|errands|run\s+some\s+errands|do\s+some\s+errands|get\s+ready)\b(?:\s+(?:now|soon|then))?\s*[.!…]*$/iu;
/** Catching up without saying what happened: "A lot's happened since we talked", "So much since we last spoke!". */
export const CATCH_UP_RE = new RegExp(
  `^${LEAD}(?:(?:a\\s+lot|so\\s+much|much|lots|tons|loads|plenty|quite\\s+a\\s+bit)(?:\\s+(?:of\\s+)?(?:stuff|things))?(?:['’]s|\\s+has|\\s+have)?(?:\\s+(?:been\\s+)?(?:happened|happening|going\\s+on|changed))?(?:\\s+(?:here|lately|recently))?\\s+since\\b|since\\s+(?:we|our)\\s+(?:last\\s+)?(?:talked|spoke|chatted|chat|talk)\\b[\\s!.…]*$|i['’]m\\s+still\\s+(?:figuring|working)\\s+(?:out\\s+)?(?:the\\s+)?(?:details|things\\s+out|it\\s+out)|(?:recently|lately),?\\s+i\\s+had\\s+a\\s+(?:setback|rough\\s+time|hard\\s+time)[\\s!.…]*$|(?:it(?:['’]s|\\s+has|\\s+is)\\s+)?been\\s+(?:a\\s+)?(?:(?:few|couple(?:\\s+of)?|\\d+|two|three|four|five|several|some)\\s+)?(?:days?|weeks?|months?|years?|while|ages|forever)\\s+since\\b)`,
  'iu',
);
/**
 * A greeting after a while, at the end of what opens a turn ("hey dave long time no see", "been
 * ages since we chatted", "it's been a minute", "good to catch up again"), within its first words:
 * typed with no full stop, what follows it starts a sentence of its own (not "It's been a bit
 * hectic", "Things have been great since we last talked"). Regex, case-insensitive, matched
 * against the words of a sentence so far.
 */
export const AFTER_A_WHILE_END_RE =
  /^(?:\S+\s+){0,3}?(?:long\s+time\s+no\s+(?:see|talk|chat)|(?:(?:it['’]?s|its)\s+)?been\s+(?:a\s+(?:while|minute|hot\s+minute|few\s+(?:days|weeks))|ages|forever|(?:too|so)\s+long)|(?:(?:(?:it['’]?s|its)\s+)?been\s+(?:a\s+(?:while|minute|bit|hot\s+minute)|ages|forever|(?:too|so)\s+long)\s+)?since\s+(?:(?:we|i)\s+(?:last\s+)?(?:talked|spoke|chatted|caught\s+up)(?:\s+last)?|our\s+last\s+(?:chat|talk|conversation)|(?:the\s+)?last\s+time(?:\s+we\s+(?:talked|spoke|chatted))?)|(?:haven['’]?t|have\s+not)\s+(?:talked|chatted|spoken)\s+(?:for|in)\s+(?:a\s+(?:while|bit|minute|week|few\s+(?:days|weeks))|ages|forever|(?:so|too)\s+long)|(?:good|nice|great|glad)\s+to\s+(?:catch\s+up|chat|talk|see\s+you|hear\s+from\s+you)(?:\s+again)?)(?:\s*,)?$/iu;
/** The words that end {@link AFTER_A_WHILE_END_RE}: only after one is it tried. */
export const AFTER_A_WHILE_LAST_WORDS: ReadonlySet<string> = new Set(
  'see talk chat while minute bit ages forever long again you talked spoke chatted up conversation time days weeks week then'.split(
    ' ',
  ),
);
/**
 * When the speakers last talked, as a catching-up clause says it: "since we last talked", "since
 * our last chat", "since last time". Regex, case-insensitive.
 */
export const SINCE_WE_TALKED_RE =
  /\bsince\s+(?:(?:we|i)\s+(?:last\s+)?(?:talked|spoke|chatted|caught\s+up|saw\s+(?:each\s+other|you)|talked\s+to\s+you)(?:\s+last)?|our\s+last\s+(?:chat|talk|conversation|call)|last\s+(?:time|chat|talk|call|we\s+(?:talked|spoke|chatted)))\b/iu;
/**
 * "Something happened" that does not say what: "Something exciting happened recently", "Some
 * pretty cool stuff happened", "A few new things have come up". Regex, case-insensitive.
 */
export const SOMETHING_HAPPENED_RE =
  /\b(?:something|stuff|things)\s+(?:[\p{L}-]+\s+){0,2}?(?:happened|happening|(?:has|have)\s+(?:happened|come\s+up|been\s+happening)|came\s+up)\b/iu;
/**
 * Words a catching-up clause may say besides when the speakers last talked ({@link
 * SINCE_WE_TALKED_RE}) or that something happened: how the time was, not what happened ("Been a
 * busy week since we talked", "Quite a week since we last talked - something awesome happened to
 * me!", "Haven't seen you since we last talked"). A clause made only of these, the lexicon's
 * {@link PHATIC} words and function words catches up and says nothing of anyone.
 */
export const VAGUE_NEWS: ReadonlySet<string> = new Set(
  (
    'busy crazy wild eventful hectic long tough rough interesting exciting amazing quite week weeks weekend days day month months ' +
    'time times while things thing stuff something lot lots happened happening happen come came up keeping kept had have has ' +
    'having seen haven havent adventure adventures few new pretty much life going been be been it its s i me my we us our you the ' +
    'a an to for so just really very with lately recently since last talked spoke chatted chat t ve m re d ll all some of here ' +
    'there this that ton tons bunch loads several couple lot'
  ).split(' '),
);

/**
 * What announces news without saying it: "news", "an update", "a (big life) change". Read with
 * {@link ANNOUNCING_WORDS}: a clause that says only these announces what the statement after it
 * in the turn says. Regex, case-insensitive.
 */
export const ANNOUNCEMENT_RE = /\b(?:news|updates?|announcements?|changes?)\b/iu;
/**
 * Words an announcement may say besides {@link VAGUE_NEWS}: how good or big the news is, and that
 * it is shared ("I have some big news to share with you", "Got some cool news", "I just had a big
 * life change").
 */
export const ANNOUNCING_WORDS: ReadonlySet<string> = new Set(
  (
    'news update updates announcement announcements change changes share sharing tell telling announce got gotten ' +
    'big huge major great good cool awesome fantastic incredible wonderful exciting excited thrilling surprising ' +
    'wanted want wanna guess what believe some'
  ).split(' '),
);

/**
 * Agreeing to try what the listener spoke of: "I'm keen to give it a shot", "I'll give it a go".
 * What "it" is, is said elsewhere.
 */
export const TRY_IT_RE =
  /\b(?:give|giving|gave|try|trying)\s+(?:it|that|this|them|these|those)\s+a\s+(?:shot|try|go|whirl|chance)\b/iu;
/**
 * A clause whose object is what the listener showed or said: "I'm a big fan of scents like
 * this!", "I need one like that", "I might order some similar ones".
 */
export const LIKE_THIS_RE =
  /\b(?:like|as)\s+(?:this|that|these|those|this\s+one|that\s+one|yours)\s*[!.…]*$|\b(?:some\s+)?similar\s+ones?\b/iu;
/**
 * What something said before made the speaker think or feel, its subject left out: "Really
 * made me think about taking care of our minds", "Made me realize how lucky I am", "Really made
 * me proud".
 */
export const MADE_ME_RE = new RegExp(
  `^${LEAD}(?:(?:really|truly|definitely|also|totally|kinda|sure)\\s+)*(?:made|makes|got|gets)\\s+me\\s+(?:think|feel|realize|realise|reflect|appreciate|wonder|remember|want|smile|laugh|cry|(?:so\\s+|really\\s+|very\\s+|even\\s+|more\\s+)*(?:${FEELING}))\\b`,
  'iu',
);
/**
 * Showing something rather than saying something: "Look what I got!", "Here's a painting I did",
 * "Here's what I did last week", "Here's me and my partner at one", "Here I am with my mom", "I'd
 * rather show you a photo", "I want to show you this".
 */
export const SHOWING_RE = new RegExp(
  `^${LEAD}(?:look\\s+(?:what|who|how|here)|here(?:\\s+i\\s+am|\\s+we\\s+are|(?:\\s+is|\\s+are|['’]s)\\s+(?:a|an|the|my|our|some|another|one|two|this|these|new|what|me|us)\\b)|(?:i['’]d\\s+rather|let\\s+me|i\\s+(?:just\\s+)?want(?:ed)?\\s+to|i['’]ll|i\\s+will|i\\s+can)\\s+(?:show|share|send)\\s+(?:you\\s+|with\\s+you\\s+)?(?:a|the|this|my|some|these)\\s+(?:[\\p{L}-]+\\s+)?(?:pics?|photos?|pictures?|snaps?|shots?|selfies?)|(?:i['’]d\\s+rather|let\\s+me|i\\s+(?:just\\s+|really\\s+)?want(?:ed)?\\s+to|i['’]ll|i\\s+will|i\\s+can)\\s+(?:show|share)\\s+(?:you|with\\s+you)\\s+(?:this|these)(?=\\s*(?:[.!?,;…]|$))|i['’]m\\s+sending\\b)`,
  'iu',
);
/**
 * An activity that acts on the speaker: "Dancing makes me so happy", "Painting helps me explore
 * my identity". It says what the speaker likes or needs. Not a perception of what was shown
 * ("Seeing this pic made me …") nor a generic "us".
 */
export const ACTS_ON_SPEAKER_RE = new RegExp(
  `^${LEAD}(?!(?:seeing|hearing|watching|reading|looking|talking|chatting|surrounding)\\b)\\p{L}+ing\\b(?:\\s+[\\p{L}'’-]+){0,4}?\\s+(?:makes?|helps?|gives?|brings?|keeps?|lets?|calms?|relaxes?|grounds?|inspires?|motivates?|fills?)\\s+me\\b`,
  'iu',
);
/** A reaction to what the listener said, with the "I'm" left out: "Glad you bonded over …", "So happy for you". */
export const BARE_REACTION_RE = new RegExp(
  `^${LEAD}(?:(?:so|really|super)\\s+)*(?:glad|happy|sorry|great|nice|good|cool|awesome|proud)\\s+(?:to\\s+(?:hear|see|know)\\b|(?:that\\s+)?you\\b|for\\s+you\\b|of\\s+you\\b)|^${LEAD}i\\s+can\\s+(?:only\\s+|totally\\s+|just\\s+)?(?:imagine|tell|see|picture)\\b|^${LEAD}(?:i\\s+)?(?:really\\s+|just\\s+|totally\\s+)?(?:love|like|adore|appreciate|enjoy)\\s+(?:seeing|hearing|reading|watching|how|the\\s+way|all\\s+the|your|what\\s+you)\\b|^${LEAD}i\\s+(?:really\\s+)?look\\s+forward\\s+to\\s+(?:\\p{L}+ing\\s+)?(?:you|it|that|this)\\b`,
  'iu',
);
/**
 * Words of praise or sympathy: in a clause about the listener ("You captured the sunset
 * perfectly", "Taking in kids in need - you're so kind") they make it a reaction.
 */
export const PRAISE_RE = new RegExp(
  `\\b(?:${PRAISE}|perfectly|beautifully|brilliantly|wonderfully|nicely|kind|talented|skilled|strong|lucky|deserve|deserves|rock|rocks|nailed|killing\\s+it|proud|peaceful|awesome)\\b`,
  'iu',
);

/**
 * Said in passing: passing states, vague plans, generic remarks, encouragement and reactions that
 * the other tables leave as statements. Each entry names what it is; the `said in passing` rule
 * of the episodic table reads them all, so the turn keeps such a clause and it forms no memory.
 * Regexes, case-insensitive.
 */
export const SAID_IN_PASSING: readonly { readonly what: string; readonly re: RegExp }[] = [
  // "I'm feeling good and ready to give it my best", "I'm all set and ready to go".
  {
    what: 'a passing state',
    re: new RegExp(
      `^${LEAD}(?:i['’]m|i\\s+am|i\\s+feel|feeling)\\s+(?:(?:so|really|pretty|super|all|just)\\s+)*(?:feeling\\s+)?(?:good|great|fine|ok|okay|set|pumped|ready)\\s+(?:and\\s+(?:(?:so|really|all)\\s+)?ready|to\\s+(?:go|roll))\\b`,
      'iu',
    ),
  },
  // "I'm gonna make it happen!", "We'll reach our goals!", "starting today I'm gonna do my best".
  {
    what: 'a vague plan',
    re: /\b(?:i['’]ll|i\s+will|we['’]ll|we\s+will|i['’]m\s+(?:gonna|going\s+to)|we['’]re\s+(?:gonna|going\s+to)|(?:i|we)\s+(?:need|have|want)\s+to)\s+(?:(?:definitely|really|totally|just|still|also|always|keep)\s+)*(?:make\s+it\s+(?:happen|work|count)|make\s+(?:my|our)\s+dreams?\s+(?:come\s+true|a\s+reality|happen)|do\s+(?:my|our)\s+(?:very\s+)?best|give\s+it\s+(?:my|our)\s+(?:best|all)|reach\s+(?:my|our)\s+goals?|stay\s+on\s+track|get\s+there|make\s+(?:it|a\s+difference|an\s+impact)[\s!.…]*$|have\s+something\b)/iu,
  },
  // "Trying to stay positive, not easy", "I'm staying motivated and believing in myself".
  {
    what: 'encouragement of oneself',
    re: new RegExp(
      `^${LEAD}(?:(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+)?(?:(?:just|still|really|always|also)\\s+)*(?:trying\\s+to\\s+stay|staying|keeping)\\s+(?:positive|strong|motivated|focused|hopeful|optimistic|determined|(?:my|our)\\s+(?:spirits|head|chin)\\s+up)\\b`,
      'iu',
    ),
  },
  // "… - you hang in there too!", "Whenever you need support, I'm here for you", "I can share the recipe if you'd like".
  {
    what: 'encouragement or an offer to the listener',
    re: /\b(?:(?:you\s+)?hang\s+in\s+there|you\s+(?:got|'ve\s+got|’ve\s+got)\s+this|you\s+can\s+do\s+(?:it|this)|(?:i['’]m|i\s+am|we['’]re)\s+(?:always\s+)?(?:here|there)\s+for\s+(?:you|ya)|if\s+you['’]d\s+like|if\s+you\s+(?:want|wanna|need)|if\s+(?:you|ya)(?:['’]re|\s+are)\s+(?:ever\s+)?(?:interested|up\s+for\s+it|keen|curious)|i\s+(?:can|could)\s+(?:help|show|teach)\s+(?:you|ya)\b|(?:anytime|whenever)\s+you\s+(?:need|want|like))\b/iu,
  },
  // "Got to go now, I have a lot of work to do!", "I gotta run": leaving the chat, not a plan.
  {
    what: 'leaving',
    re: new RegExp(
      `^${LEAD}(?:i\\s+)?(?:(?:really|just|kinda)\\s+)?(?:(?:need|have|got)\\s+to|gotta|must)\\s+(?:go|run|dash|bounce|head\\s+out|sign\\s+off)(?:\\s+(?:now|for\\s+now|soon))?(?=\\s*(?:[,;!.…–—-]|$))`,
      'iu',
    ),
  },
  // "Doing research and readying myself emotionally makes sense", "Your plan makes total sense":
  // what was said or advised, judged; what the speaker does, they say elsewhere.
  {
    what: 'a judgement that it makes sense',
    re: /\bmakes?\s+(?:(?:total|perfect|complete|so\s+much|a\s+lot\s+of)\s+)?sense(?:\s+(?:now|to\s+me))?\s*[.!…]*$/iu,
  },
  // "Hopefully I'll get an appointment soon": a hope, not a plan.
  { what: 'a hope', re: new RegExp(`^${LEAD}hopefully\\b`, 'iu') },
  // "Seeing it makes me think of campfires", "Hearing that made me smile", "Seeing this pic just made
  // me …": a reaction to what was shown or said ("Seeing those pups made me want a dog" names what
  // it saw, and is kept).
  {
    what: 'a reaction to what was shown',
    re: new RegExp(
      `^${LEAD}(?:seeing|hearing|reading|watching|looking\\s+at)\\s+(?:it|you|your|(?:this|that|these|those)(?:\\s+(?:pics?|photos?|pictures?|shots?|snaps?|images?))?(?=\\s+(?:makes?|made|reminds?|keeps?|fills?|gives?|gave|brings?|brought|always|really|just)\\b))\\b`,
      'iu',
    ),
  },
  // "The colors make me feel calm", "The pic takes me back": what the other speaker showed, acting on the
  // speaker ("That pic reminds me of when I was younger", "… of a tree near my home" say what is the speaker's).
  {
    what: 'what was shown, acting on the speaker',
    re: new RegExp(
      `^${LEAD}(?:the|that|this|these|those)\\s+(?:[\\p{L}-]+\\s+)?(?:pics?|pictures?|photos?|shots?|snaps?|images?|colou?rs|art|artwork|view|scenery)\\s+(?:(?:really|just|always|definitely|totally|kinda|sure)\\s+)*(?:makes?|made|takes?|took|reminds?|reminded|gets?|got|brings?|brought|gives?|gave|fills?|filled|keeps?|kept)\\s+me\\b(?![^.!?]*\\b(?:my|mine|our|when\\s+(?:i|we)|(?:i|we)\\s+(?:took|was|were|went|used|had))\\b)`,
      'iu',
    ),
  },
  // "Moments like these remind me how much kindness matters", "Conversations like this remind me why
  // I love what I do": a remark on what was said or shown, or on the chat itself ("Moments like this
  // remind me why I'm chasing my dream" says what is the speaker's).
  {
    what: 'a remark on moments like this',
    re: new RegExp(
      `^${LEAD}(?:moments|times|days|things|experiences|memories|people|conversations|chats|talks)\\s+like\\s+(?:this|that|these|those|ours)\\b(?![^.!?]*\\b(?:my|mine|our)\\b)`,
      'iu',
    ),
  },
  // "Glad my journey is inspiring others", "So happy it worked out": gladness with the "I'm" left out.
  {
    what: 'a bare reaction',
    re: /^(?:(?:so|really|super|just)\s+)*(?:glad|happy|grateful|thankful|relieved)\s+(?:that\s+)?(?:my|our|it|this|that|everything|things)\b/iu,
  },
  // "Taking risks pays off!", "Starting a business takes courage", what is important for all of us
  // ("Taking care of ourselves and looking out for our well-being is key"): a remark about everyone.
  // "Staying in shape is important to me" says what the speaker values, and is kept; "Making sure
  // they stay healthy is key" is said of the speaker's own.
  {
    what: 'a generic remark',
    re: new RegExp(
      `^${LEAD}(?![^.!?]*\\b(?:i|me|my|mine|myself)\\b)(?:\\p{L}+ing\\s+(?:[\\p{L}'’-]+\\s+){0,3}?(?:pays?\\s+off|takes?\\s+(?:courage|guts|time|patience|work|practice|effort|strength)|is\\s+(?:key|everything|never\\s+easy|not\\s+easy|always\\s+worth))|(?=[^.!?]*\\b(?:ourselves|yourself|yourselves|oneself|us|our|everyone|everybody|people)\\b)\\p{L}+ing\\s+(?:[\\p{L}'’-]+,?\\s+){0,10}?(?:is|are)\\s+(?:(?:so|really|super|very|truly|also|just|always|still|extremely|incredibly|absolutely)\\s+)*(?:key|everything|vital|essential|crucial|important)|\\p{L}+ing\\s+(?:[\\p{L}'’/-]+,?\\s+){0,10}?(?:(?:is|are)\\s+(?:(?:so|really|super|very|truly|also|just|always|still|definitely|often)\\s+)*(?:(?:a|the)\\s+(?:\\p{L}+\\s+)?way\\s+to\\b|rewarding|helpful|beneficial|worthwhile|worth\\s+it)|(?:can|could|will|would)\\s+(?:(?:really|definitely|also|always|surely)\\s+)*(?:make\\s+(?:a|all\\s+the)\\s+(?:\\p{L}+\\s+)?difference|go\\s+a\\s+long\\s+way|be\\s+(?:so\\s+|really\\s+|very\\s+)*(?:beneficial|helpful|rewarding))|makes?\\s+(?:life|things|everything)\\s+(?:(?:so|much|a\\s+lot)\\s+)*better))\\b`,
      'iu',
    ),
  },
  // "It's amazing how a few quiet moments can work wonders", "It's funny what a walk can do": a remark on how things are.
  {
    what: 'a remark on how things are',
    re: new RegExp(
      `^${LEAD}(?:it['’]s|it\\s+is|isn['’]t\\s+it)\\s+(?:(?:so|really|just|truly|pretty|kinda)\\s+)*(?:amazing|incredible|crazy|funny|wild|wonderful|great|cool|interesting|awesome|insane|crazy|remarkable|fascinating|neat)\\s+(?:how|what)\\b`,
      'iu',
    ),
  },
  // "I wanted to chat about something that's been bothering me", "I need to talk to you": saying what one is about to say.
  {
    what: 'announcing what comes next',
    re: new RegExp(
      `^${LEAD}(?:i\\s+)?(?:just\\s+)?(?:wanted|need|have)\\s+to\\s+(?:chat|talk)(?:\\s+(?:to|with)\\s+you)?(?:\\s+about\\s+something\\b|[\\s!.…]*$)`,
      'iu',
    ),
  },
  // "Just finished something - pretty wild journey!", "I've been organizing something with my friends": what it is, is not said.
  {
    what: 'something unnamed',
    re: new RegExp(
      `^${LEAD}(?:(?:i|we)(?:['’](?:ve|m|re))?\\s+)?(?:(?:just|been|finally|also|really)\\s+)*\\p{L}+\\s+(?:something|somewhere(?:\\s+(?:fun|new|nice|cool|special|different))?)(?:\\s+(?:with|for)\\s+(?:my|our)\\s+\\p{L}+)?(?:\\s+(?:yesterday|today|lately|recently|last\\s+\\p{L}+))?\\s*(?:[-–—,!.…]|$)`,
      'iu',
    ),
  }, // "Pets have a way of brightening our days", "Nature does have a way of humbling us": a remark about everyone.
  {
    what: 'a generic "has a way of"',
    re: /^(?![^.!?]*\b(?:i|me|my|mine)\b)[^.!?]*?\b(?:has|have|had)\s+(?:such\s+)?a\s+(?:\p{L}+\s+)?way\s+of\b/iu,
  },
];
/**
 * The speaker anywhere in a clause: "I", "me", "my", "our", or "we" with a verb of the past
 * ("Seeing my mentee's face light up was the best", "Storm forced us to cancel our trip", "it
 * felt like we were part of something"). Not the present "we" and "us" that mean everyone
 * ("Animals have a way of bringing us happiness", "Remembering those we love is important").
 */
export const SPEAKER_ANY_RE = new RegExp(
  `\\b(?:i|me|my|mine|myself|our|ours)\\b|\\bi['’]|\\bwe\\s+(?:(?:all|just|also|really|finally|even)\\s+)?(?:were|${PAST_VERB})\\b`,
  'iu',
);

/** A liking said with "I" or without it: "I really love …", "Love …", "We adore …". Regex, anchored, case-insensitive. */
const LIKING_OPENER = `^${LEAD}(?:(?:i|we)\\s+)?(?:(?:really|just|totally|absolutely|so|also)\\s+)*(?:love|loving|like|adore|dig|enjoy)\\s+`;
/**
 * A liking of something pointed at: "Love that green colour!", "I really like those shapes".
 * What "that" is, is what the other speaker showed or said.
 */
export const LIKING_SHOWN_RE = new RegExp(`${LIKING_OPENER}(?:this|that|these|those)\\s+\\p{L}`, 'iu');
/** A liking of "the …" ("I love the warm colours"): a reaction when it follows one in the same turn ("Wow, that's gorgeous!"). */
export const LIKING_THE_RE = new RegExp(`${LIKING_OPENER}the\\s+\\p{L}`, 'iu');
/**
 * What everyone has, said with "our": "Our health can really put a damper on things", "Our
 * surroundings can really affect our mood", "Our planet needs us". Said without a past or a date,
 * a remark about everyone, not the speaker's own ({@link OUR_HOUSEHOLD_RE} is); not the idiom "our minds
 * are made up", a decision of the speaker's. Regex alternatives.
 */
const OURS_OF_EVERYONE =
  'health|mental\\s+health|well-?being|lives|bodies|minds(?!\\s+(?:are|were)\\s+made\\s+up)|hearts|souls|moods?|emotions|feelings|thoughts|actions|choices|words|habits|' +
  'surroundings|environment|society|world|planet|earth|generation|species|human\\s+nature';
/**
 * "We" that says it is everyone: "We all need a break sometimes", "We humans are funny", "We as
 * a society …", "All of us …", "Each of us …". With a verb of the past ("We all hiked the trails
 * last week") it is the speaker's group. Regex, case-insensitive.
 */
const GENERIC_WE =
  '(?:we\\s+(?:all|humans|human\\s+beings?|as\\s+(?:humans?|human\\s+beings?|people|a\\s+society|a\\s+species))|all\\s+of\\s+us|each\\s+of\\s+us)';
/**
 * A remark about everyone that opens with "our" or "we": "Our loved ones give us strength to
 * tackle any challenge", what "our" things can or will do ("Our actions, no matter how small, can
 * have a big impact", "Our stories can be so inspiring to others"), what everyone has ("Our health
 * can really put a damper on things": {@link OURS_OF_EVERYONE}), "we" that says it is everyone
 * ("We all make mistakes": {@link GENERIC_WE}), or what "we" must do to "ourselves" ("We gotta
 * push ourselves out of our comfort zones"). Not the speaker's own relations ("Our dog keeps us
 * busy", "Our son can walk now"). Read with {@link SINGULAR_SPEAKER_RE}, {@link OUR_HOUSEHOLD_RE}
 * and the clause's dates: a clause that also says "I" or "my", names the speaker's household
 * ("Our new apartment can fit a piano"), or names when ("Our team will play next Friday", "We all
 * hiked the trails last week"), is the speaker's.
 */
export const GENERIC_OUR_RE = new RegExp(
  `^${LEAD}(?:our\\s+(?!${RELATION_ADJECTIVE}(?:${RELATIONS})\\b)(?:` +
    `(?:own\\s+)?(?:${OURS_OF_EVERYONE})\\b(?![-'’])|` +
    `(?:[\\p{L}'’-]+\\s+){1,3}?(?:\\p{L}+\\s+)?us\\b|` +
    `(?:[\\p{L}'’-]+,?\\s+){1,6}?(?:can|could|will|would|should|must)\\s+(?:(?:surely|really|always|truly|definitely|still|all|so)\\s+)*(?:be|have|make|help|change|last|inspire|matter|mean|bring|create|shape|spread|touch|impact)\\b)|` +
    `${GENERIC_WE}\\b|` +
    `we\\s+(?:all\\s+)?(?:gotta|got\\s+to|have\\s+to|need\\s+to|must|should)\\s+[^.!?]*\\b(?:ourselves|each\\s+other|one\\s+another)\\b)`,
  'iu',
);
/**
 * The speaker's own household said with "our": "our marriage", "our family", "our baby", "our
 * new apartment", "our choice of apartment", "our wedding". A clause about it is the speaker's
 * ("Knowing they're happy about our marriage is so comforting", "One of the criteria for our
 * choice of apartment was the bar nearby"), even where it reads like a remark about everyone
 * ({@link GENERIC_OUR_RE}: "Our home can be so cozy in winter"). Not a likeness ("Taking care of
 * nature is like taking care of our house"), nor "our kids", often everyone's ("Having a safe
 * place for our kids matters", "Our kids are our future").
 */
export const OUR_HOUSEHOLD_RE =
  /(?<!\blike\s+(?:[\p{L}'’-]+\s+){0,4})\bour\s+(?:(?:choice|search|hunt)\s+(?:of|for)\s+(?:an?\s+|the\s+)?)?(?:(?:new|own|first|little|old|current|extended)\s+)?(?:marriage|wedding|engagement|honeymoon|anniversary|family|fam|baby|home|house|apartment|flat|condo|garden|backyard|yard|neighbou?rhood)\b/iu;
/**
 * A question that asks the listener for a favourite: "What's your favourite board game?", "what
 * is your all-time fave band?". Group 1 is what the favourite is of.
 */
export const FAVOURITE_QUESTION_RE =
  /\bwhat(?:['’]s|\s+is|\s+are|['’]re|\s+would\s+you\s+say\s+is)\s+(?:your|ur)\s+(?:all[- ]time\s+|absolute\s+|personal\s+)?fav(?:ou?rite|e)\s+([\p{L}\s-]{2,30}?)\s*(?:(?:these\s+days|right\s+now|at\s+the\s+moment|lately)\s*)?[?？]/iu;
/**
 * Words a question may open with before what it asks ("So what …", "And did you …", "Ana, where
 * …"), or a polite frame around it ("Mind if I ask how …", "Can I ask what …", "Just curious,
 * where …"). Regex, optional, case-insensitive.
 */
export const QUESTION_LEAD =
  "(?:(?:so|and|but|oh|ok|okay|well|also|then|btw|hey|wow|congrats|congratulations)[,!\\s]+|[\\p{L}'’-]+,\\s+|(?:(?:do\\s+you\\s+)?mind\\s+if\\s+i\\s+ask|(?:can|could|may)\\s+i\\s+ask(?:\\s+you)?|i\\s+(?:was\\s+)?wonder(?:ing)?|(?:just\\s+)?(?:curious|out\\s+of\\s+curiosity))[,\\s]+)*";
/**
 * A question that asks something of the listener: it opens with a question word or an auxiliary
 * ("What did you paint?", "Did you go?", "Any plans for the weekend?"), not a remark with a
 * question mark ("See how happy he was?", "Looks like it's dog friendly?").
 */
export const QUESTION_OPENER_RE = new RegExp(
  `^${QUESTION_LEAD}(?:what|which|who|whom|whose|where|when|why|how|do|does|did|is|are|was|were|have|has|had|can|could|would|will|should|may|might|any|anything|wanna|ever|got(?=\\s+any\\b))\\b`,
  'iu',
);
/**
 * A question that refers back itself: "How've you been using it?", "How you gonna keep track of
 * those dates?", "What did she say?". What it asks about is said before it ("That whiteboard has
 * a bunch of good ideas! …"). Not "there" that only says something exists ("Is there anything …?").
 */
export const QUESTION_REFERS_BACK_RE =
  /\b(?:it|its|they|them|their|he|him|his|she|her|this|these|those)\b|\bthat\b(?!\s+(?:i|you|we|they|he|she|it)\b)|(?<!\b(?:is|are|was|were|been|be)\s+)\bthere\b/iu;
/**
 * A question that asks yes or no: it opens with an auxiliary ("Did you join in?", "Have you been to
 * the mountains before?", "Is the sauce a family secret?", "Any plans for the weekend?"), not a
 * question word ("What did you paint?"), nor a request or an offer ("Can you show me the routes?",
 * "Can I join you sometime?", "Wanna see one of my routines?"): "Sure" grants it, and says nothing.
 */
export const YES_NO_QUESTION_RE = new RegExp(
  `^${QUESTION_LEAD}(?!(?:can|could|would|will|may)\\s+(?:i|we|you\\s+(?:please\\s+)?\\p{L}+\\s+(?:me|us))\\b)(?:do|does|did|is|are|was|were|have|has|had|can|could|would|will|should|may|might|any|anything|ever)\\b`,
  'iu',
);
/**
 * A reply that opens with yes or no: "Yes!", "Yeah, I did.", "Yup, it's a yoga studio", "Nah,
 * still working on that", "No, but it sounds fun!". Not "Yes" that runs into a word ("Yesterday …"), nor "No way!", "No worries".
 */
export const YES_OR_NO_FIRST_RE =
  /^(?:oh\s+)?(?:yes|yeah|yea|yep|yup|yess+|sure|definitely|absolutely|of\s+course|no(?!\s+(?:way|problem|worries)\b)|nope|nah|not\s+yet|not\s+really)(?=[\s,!.…:;-]|$)/iu;
/**
 * A pure reaction or thanks, which names nothing a reply could refer to: interjections and words
 * of taste or praise, perhaps after "looks" / "sounds" ("Mm, yum!", "Mmm, looks yummy!", "Ooh,
 * delicious!"), or thanks for what the listener gave ("Thanks for the support and encouragement.").
 */
export const PURE_REACTION_RE = new RegExp(
  `^(?:(?:thanks|thank\\s+you|cheers)\\b.*|(?:(?:m+|hm+|oh+|ooh+|wow+|aw+|ah+|haha+|ha|lol|omg|whoa|yay|woo+(?:hoo+)?|yum+|yummy|gosh|geez)[\\s,!.…]*)+(?:(?:(?:it|that|this|they|those)(?:['’](?:s|re)|\\s+(?:is|are|was|were))?\\s+)?(?:(?:looks?|sounds?|seems?|smells?|tastes?)\\s+)?(?:(?:so|very|really|super|pretty|totally|absolutely|just)\\s+)*(?:${PRAISE}|yum+|yummy|delicious|tasty|pretty|adorable|neat)[\\s!.…]*)?|(?:(?:it|that|this|they|those)(?:['’](?:s|re)|\\s+(?:is|are|was|were))?\\s+)?(?:looks?|sounds?|seems?|smells?|tastes?)\\s+(?:(?:so|very|really|super|pretty|totally|absolutely|just)\\s+)*(?:${PRAISE}|yum+|yummy|delicious|tasty|pretty|adorable|neat)[\\s!.…]*)$`,
  'iu',
);
/**
 * A question that asks how the listener is or what is new with them, or asks them for help or
 * advice: "How have you been?", "What's new with you?", "Anything fun happening?", "What about
 * you?", "What do you think?", "Any tips?", "Is there anything I can do?"; or asks for the listener's
 * own of what the asker spoke of ("How did you get yours?"). It asks of nothing the listener said before it.
 */
export const OPEN_QUESTION_RE =
  /\b(?:new|up\s+to|what['’]s\s+up|been\s+up|happening|going\s+on|lately|recently|how\s+(?:(?:have|are)\s+(?:you|things)|['’]ve\s+you|you['’]ve)|anything\s+(?:fun|new|interesting|exciting|cool|else|that)|st(?:an|oo)d\s+out|how['’]s\s+(?:it|everything|life|things|your\s+(?:week|day|weekend))|how\s+(?:is|was)\s+your\s+(?:week|day|weekend)|(?:what|how)\s+about\s+you|you\s+think|(?:can|could)\s+(?:i|we)\s+do|help|tips|advice|suggestions?|ideas|recommendations?|updates?|yours)\b/iu;
/** A question an answer without a verb can answer: "What's your favourite game?" → "Catan!" (not "Did you go?" → "Definitely!"). */
export const WH_QUESTION_RE = new RegExp(`^${QUESTION_LEAD}(?:what|which|who|whom|whose|where|when)\\b`, 'iu');
/** A question that asks what the listener likes: "What kind of music do you listen to?", "Do you enjoy hiking?". */
export const LIKING_QUESTION_RE =
  /\b(?:(?:what|which)\s+(?:kinds?|sorts?|types?|genres?)\s+of|(?:like|likes|love|enjoy|prefer|into|fav(?:ou?rite|e)s?)\b)/iu;
/**
 * The words in front of an answer that has no verb ("Definitely Catan!", "Probably hiking",
 * "Has to be jazz"): a hedge, not the answer. Regex, anchored, case-insensitive.
 */
export const ANSWER_HEDGE_RE =
  /^(?:(?:yes|yeah|yep|yup|oh|ah|um+|hmm+|well|so|definitely|probably|mostly|mainly|maybe|perhaps|honestly|easily|hands\s+down|i['’]d\s+say|i\s+guess|gotta\s+be|has\s+to\s+be|def|totally|tough\s+one|good\s+question)[\s,!.…:-]+)+/iu;
/**
 * An answer without a verb that answers nothing: "No idea!", "Not sure", "Good question!", "Thanks
 * for the offer, Maria.", "Your completely right!" (as typed), or a reaction whose verb the
 * reading does not list ("Kayaking sounds awesome!", "Those look delicious").
 */
export const NON_ANSWER_RE =
  /^(?:no|not|none|nothing|never|nah|dunno|idk|depends|hard\s+to\s+say|good|great|nice|cool|awesome|interesting|fun|tough|same|thanks|thank|thx|sorry|congrats|congratulations|wow|haha|lol|hi|hey|hello|me\s+too|you|your|too\s+many|so\s+many|lots|all\s+of\s+them)\b|\b(?:looks?|sounds?|seems?)\s+(?:so\s+|really\s+|super\s+)*(?:like\b|\p{L}+[\s!.…]*$)/iu;

/** The speaker alone ("I", "me", "my"), not the "we" and "our" that may mean everyone. */
export const SINGULAR_SPEAKER_RE = /\b(?:i|me|my|mine|myself)\b|\bi['’]/iu;
/**
 * A request rather than a statement: "Please remember my setup", "Call me on …", "Tell me about
 * it", "Remind me …". Said to the listener, it says nothing about the speaker's life. A
 * preposition before "me" asks nothing ("For me, taking my dogs for a walk helps me …").
 */
export const REQUEST_RE = new RegExp(
  `^${LEAD}(?:please|kindly|pls|remember|note|don['’]?t|do\\s+not|(?!(?:for|to|with|from|of|about|like|than|at|by|as|without|around|behind|beside|near)\\s)\\p{L}+\\s+(?:me|us)\\b(?!\\s+(?:feel|think|realize|realise|want|smile|laugh|cry|happy|so)\\b))`,
  'iu',
);

/** Adjectives in "-ed" that say how someone is, not what they did ("Impressed by …", "Determined to …"). Regex alternatives. */
const ED_ADJECTIVE =
  'impressed|mixed|determined|scared|fascinated|interested|tired|bored|amazed|surprised|shocked|obsessed|pleased|delighted|exhausted|stressed|worried|tempted|blown\\s+away';
/**
 * A past action whose subject, the speaker, is left out: "Just got some new shoes", "Spent the
 * weekend repainting my kitchen". Not a word that only ends like a past verb ("Need …", "Indeed"),
 * nor a feeling with its "I'm" left out ("Excited for …", "Blessed we …", "Felt so refreshing"), nor
 * a verb whose object is said elsewhere ("Started when I was young").
 */
export const IMPLIED_SPEAKER_PAST_RE = new RegExp(
  `^(?:(?:just|recently|finally|also|actually)\\s+)?(?!(?:need|indeed|feed|seed|speed|proceed|succeed|exceed|bleed|breed|agreed|felt|got\\s+to|reminded|won['’]t|${FEELING}|${ED_ADJECTIVE})\\b)(?:${PAST_VERB})\\b(?!\\s+(?:when|because|since|while|as)\\b)`,
  'iu',
);
/** A thing of the speaker's named by "my": "my new workbench", "one of my trophies" (not "my own", "my best", "my day"). */
export const SPEAKERS_THING_RE =
  /\bmy\s+(?!(?:own|best|day|week|way|mind|heart|life|favou?rites?|faves?|favs?|turn|time|goodness|god)\b)\p{L}{3,}/iu;

// ── Formation: informative clauses the tables above would leave episodic (issue 28, coverage) ──

/**
 * Looking forward to something: "Can't wait for our camping trip next month", "I can't wait to
 * start my new job", "I'm really looking forward to my sister's wedding", or excited for it: "I'm
 * stoked for my game there next month", "I'm so pumped for the launch tomorrow" ("excited to …"
 * is an aim, {@link EAGER_TO_DO_RE}; "… about dancing each day" a liking). Group 1: "for", "to", "till" or "about"; group 2: what is ahead.
 * Read with {@link NOT_A_PLAN_RE} and {@link SPEAKERS_THING_RE}: only what names the speaker's
 * own, or an occasion with its date ("Can't wait for tomorrow's grand opening"), is a plan.
 */
export const LOOKING_FORWARD_RE = new RegExp(
  `^${LEAD}(?:(?:i|we)\\s+)?(?:(?:really|just|so|also)\\s+)*(?:(?:can['’]?t|cannot)\\s+wait|(?:(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+)?(?:(?:so|really|also|super|very|truly)\\s+)*looking\\s+forward|(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+(?:(?:so|really|also|super|very|truly|totally|pretty)\\s+)*(?:excited|stoked|pumped|psyched|thrilled)(?=\\s+(?:for|about)\\s+(?!\\p{L}+ing\\b)))\\s+(for|to|till|until|['’]?til|about)\\s+(.+)$`,
  'iu',
);
/**
 * What looking forward names that is no plan: a pronoun whose referent is said elsewhere ("… to
 * share this experience", "… to explore it"), or a vague good time ("… to make some memories",
 * "… to start my journey", "… to learn new stuff", "… to share with my customers").
 */
export const NOT_A_PLAN_RE =
  /\b(?:it|that|this|them|those|these|him|her|everything|memories|moments|journey|stuff|things|adventures?|fun|blast)\b|^(?:share|show|tell|make|capture|create)\b/iu;
/**
 * Being lucky or grateful to have someone or something: "We feel so lucky to have Biscuit", "I'm
 * grateful for my team at work". Group 1: what is had; it must name the speaker's own
 * ({@link OWN_OBJECT_RE}) or a person (a capitalised name), not the listener.
 */
export const FORTUNATE_RE = new RegExp(
  `^${LEAD}(?:(?:i|we)(?:['’]m|['’]re|\\s+am|\\s+are|\\s+feel|\\s+felt|\\s+was|\\s+were)?\\s+)?(?:(?:so|really|very|truly|super|extremely|incredibly|just|also|always|beyond|feeling)\\s+)*(?:lucky|fortunate|blessed|grateful|thankful)\\s+(?:to\\s+have|for|that\\s+(?:i|we)\\s+have)\\s+(.+)$`,
  'iu',
);
/** What is had that is the speaker's own: "my brothers", "our garden", "such a supportive family", "two dogs". */
export const OWN_OBJECT_RE = new RegExp(
  `^(?:(?:my|our)\\s+\\p{L}{3,}|(?:such\\s+)?(?:an?|two|three|four|five|so\\s+many|such)\\s+(?:[\\p{L}'’-]+\\s+){0,2}?(?:${RELATIONS}|family|friends|community|team|job|home|house|garden|neighbou?rs|mentors?)\\b)`,
  'iu',
);
/**
 * A habit or a skill said in few words: "I play clarinet", "We knit scarves", "I run a bakery".
 * The object must follow: "I play it too", "I practice every day", "I cook a lot" say what
 * elsewhere. Regex, anchored, case-insensitive.
 */
export const HABIT_RE = new RegExp(
  `^${LEAD}(?:i|we)\\s+(?:(?:also|still|usually|often|always|regularly|sometimes|mostly|even|now|really|actually)\\s+)*(?:play|practi[cs]e|speak|teach|study|coach|volunteer|train|swim|surf|ski|skate|paint|draw|knit|sew|crochet|bake|cook|garden|write|collect|ride|climb|hike|dance|sing|run|grow|brew|sculpt|fish|meditate)\\s+(?!(?:it|them|that|this|those|these|too|well|a\\s+lot|every|daily|often|sometimes|again|now|with\\s+(?:it|them|you|your)|for\\s+(?:it|them|you|fun))\\b)\\p{L}`,
  'iu',
);
/**
 * An activity under way, said in few words: "I'm learning Spanish", "We're training for a
 * marathon", "I'm running for office again", "I've been studying piano". What is done must follow:
 * "I'm working on it", "I'm learning a lot", "I'm running late" and "I'm playing with you" say
 * nothing of the speaker's own. Regex, anchored, case-insensitive.
 */
export const ONGOING_ACTIVITY_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:['’]m|['’]re|\\s+am|\\s+are|['’]ve\\s+been|\\s+have\\s+been)\\s+(?:(?:still|also|now|currently|really|actually|even|finally|slowly)\\s+)*(?:learning|studying|training|practi[cs]ing|teaching|coaching|volunteering|writing|building|running|playing|painting|knitting|sewing|baking|collecting|growing|brewing|raising|fostering|renovating|restoring|coding|developing|designing|recording|composing|saving|applying)\\s+(?!(?:it|them|that|this|those|these|too|well|a\\s+lot|late|out|behind|low|around|every|daily|again|now|(?:with|to|for)\\s+(?:it|them|you|u|your|fun))\\b)\\p{L}`,
  'iu',
);
/**
 * What a picture shared is from, an occasion of the speaker's: "These are from my trip to Peru",
 * "This is from our wedding", "That was taken at my graduation". Not a favourite or "own".
 */
export const PICTURED_FROM_MINE_RE = new RegExp(
  `^${LEAD}(?:this|these|that|those)(?:\\s+(?:is|are|was|were)|['’]s)\\s+(?:(?:all|just|actually|both)\\s+)?(?:from|at|taken\\s+(?:at|on|during|in|from))\\s+(?:my|our)\\s+(?!(?:favou?rites?|fave|own|place|house|home|phone|camera)\\b)\\p{L}{3,}`,
  'iu',
);
/**
 * A picture or thing introduced as the speaker's own: "This is my new puppy", "These are my
 * kids", "This is a photo from my sister's wedding", "This is me with my brothers". Not "my"
 * that names no thing ("This is my favourite part", "This is my first time", "That's my point",
 * "This is just our random photo").
 */
export const THIS_IS_MINE_RE = new RegExp(
  `^${LEAD}(?:this|these)(?:\\s+is|\\s+are|['’]s)\\s+(?:(?:actually|just|also|finally|all)\\s+)*(?:(?:a|an|the|one|some)\\s+(?:(?:old|new|recent|quick)\\s+)?(?:pics?|photos?|pictures?|snaps?|shots?|selfies?)\\s+(?:of|from|at|with|i\\s+took\\s+(?:of|at|with))\\s+)?(?:me\\s+(?:and|with)\\s+)?(?:my|our)\\s+(?!(?:[\\p{L}'’-]+\\s+)?(?:pics?|photos?|pictures?|snaps?|shots?|selfies?)\\b)(?!(?:favou?rites?|fave|first|last|own|kind|type|point|thing|way|dream|goal|plan|hope|motto|jam|life|day|time|take|opinion|advice|style|bad)\\b)\\p{L}{3,}`,
  'iu',
);
/**
 * "(I) wanted to let you know (that) I …", "Just want to tell you my …": what announces the
 * speaker's news, said before it. Regex source, case-insensitive.
 */
const NEWS = '(?:some|the|a|any)\\s+(?:(?:big|great|good|cool|exciting|awesome|amazing|fun|crazy|huge)\\s+){0,2}news';
const TELLING_OPENER = `(?:(?:so|and|but|just)\\s+)?(?:(?:i\\s+)?(?:just\\s+)?want(?:ed)?\\s+to\\s+(?:let\\s+(?:you|ya|u)\\s+know|tell\\s+(?:you|ya|u)|let\\s+(?:you|ya|u)\\s+in\\s+on\\s+${NEWS}|share\\s+${NEWS})|there['’]?s\\s+something\\s+i\\s+(?:want(?:ed)?|have|need|gotta|got)\\s+(?:to\\s+)?tell\\s+(?:you|ya|u)|(?:i\\s+)?(?:have|got|i['’]ve\\s+got)\\s+${NEWS})[\\s,:;–—-]+(?:that\\s+)?(?=(?:i|we|my|our)\\b)`;
/**
 * What a speaker thanks the listener for, said before the news once "Thanks" is cut off or with
 * "Appreciate" ("thanks for the support it means a lot", "For asking, Gina: I lost my job",
 * "appreciate the offer we already fixed it"): a closed list of what is given or done in a chat,
 * then a stop or the next clause's first word. Not "for the support group I joined", "I appreciate
 * the help my neighbours gave me", nor "appreciate it when …". Part of {@link DISCOURSE_OPENER_RE}:
 * left out with the thanks, as a greeting is. Regex source, case-insensitive.
 */
const THANKED_FOR_END =
  "(?:\\s*[,:;!.…–—-]+\\s*|\\s*$|\\s+(?=(?:i|i['’]?m|i['’]?ve|i['’]?ll|i['’]?d|im|ive|ill|it|it['’]?s|its|we|we['’]?re|were|we['’]?ve|they|just|so|but|and|yeah|\\p{L}+ing)\\b))";
const THANKED_FOR =
  '(?:for|(?:i\\s+)?(?:really\\s+|truly\\s+|(?:so\\s+)?much\\s+)?appreciate)\\s+(?:' +
  // What was given: "the support", "your kind words"; "the help my neighbours gave me" goes on.
  '(?:all\\s+)?(?:the|your|ur)\\s+(?:(?:kind|sweet|nice|lovely|great|encouraging|warm|good)\\s+)?(?:support|help|offer|tips?|idea|advice|words|encouragement|recommendations?|reccomendations?|suggestions?|compliments?|concern|reminder|invite|invitation|update|info|love|shout-?out|motivation|inspiration|understanding|feedback|input|thoughts|wishes|kindness|patience|vibes)' +
  THANKED_FOR_END +
  // What was done: "asking", "checking in"; "thanks for asking my new job is great" goes on.
  '|(?:asking|checking\\s+(?:in|up(?:\\s+on\\s+me)?)|reaching\\s+out|listening|being\\s+there(?:\\s+for\\s+me)?|believing\\s+in\\s+me|cheering\\s+me\\s+on|supporting\\s+me|letting\\s+me\\s+know|(?:appreciating|sharing)\\s+(?:it|that|this))' +
  '(?:\\s+(?=(?:my|our|this|that|me)\\b)|' +
  THANKED_FOR_END +
  ')' +
  // "Thanks for that!", "appreciate it I'll reach out": not "appreciate that my sister drove me".
  "|(?:it|that|this|(?:you|ya)(?:\\s+(?:so\\s+much|a\\s+lot))?)(?=\\s*[,:;!.…–—-]|\\s*$|\\s+(?:i|i['’]?m|i['’]?ve|i['’]?ll|im|ive|ill|we|we['’]?re|were)\\b)\\s*[,:;!.…–—-]*\\s*" +
  ')(?!\\s*when\\b)';
/** {@link TELLING_OPENER}, first in a clause: "… but wanted to let you know I read …" starts a clause of its own. */
export const TELLING_OPENER_RE = new RegExp(`^${TELLING_OPENER}`, 'iu');
/**
 * The listener in a condition the speaker's clause sets, an invitation more than praise: "… and
 * thought it'd be cool if you and the pups could come along", "… if you want to join". What is
 * left without it says whether the clause speaks of the listener.
 */
export const IF_LISTENER_RE = /\b(?:if|whether)\s+(?:you|ya|u)\b[^,.!?;]*/giu;
/**
 * The listener as whom the speaker tells or shows something: "… insights on car modification
 * that I want to share with you", "… a pic I'll show you". Like {@link IF_LISTENER_RE}, what is
 * left without it says whether the clause speaks of the listener.
 */
export const TOLD_TO_LISTENER_RE =
  /\b(?:share|show|tell|send|give|bring)\s+(?:(?:it|them|this|that)\s+)?(?:with\s+|to\s+)?(?:you|ya|u)\b/giu;
/**
 * Someone of the speaker's who did something, opening a clause: "My agent found me this awesome
 * place", "My best friend threw me a party". Said in the past, it tells what happened to the
 * speaker ("My hard work is paying off" is a thing of theirs, going on).
 */
export const OWN_ONE_DID_RE = new RegExp(
  `^(?:(?:so|and|but|now|well|yeah|also|actually|honestly|wow|oh)[,\\s]+)*(?:my|our)\\s+(?:[\\p{L}'’-]+\\s+){1,2}?(?:just\\s+|recently\\s+|finally\\s+|also\\s+)?(?:${PAST_VERB})\\b`,
  'iu',
);
/** A question that asks how long something has gone on: "How long have you been doing yoga?". */
export const HOW_LONG_ASKED_RE = /\bhow\s+long\b/iu;
/**
 * How the speaker feels, said before the news it is about, set off by a comma: "I'm so excited,
 * we're moving to Denver next month", "So happy - I got the job". Part of
 * {@link DISCOURSE_OPENER_RE}: the news is the statement.
 */
const EXCITED_OPENER =
  "(?:(?:i['’]m|i\\s+am)\\s+)?(?:(?:so+|really|super|soo+|beyond)\\s+)*(?:excited|happy|thrilled|glad|stoked|pumped|psyched|relieved|proud)\\s*[,:;!–—-]+\\s*(?=(?:i|we|my|our)(?:['’]\\p{L}+)?\\s)";
/**
 * A phrase that only opens what follows: "That reminds me, …", "You won't believe it - …",
 * "Guess what, …", "Funny you mention it, …", "Speaking of which, …", or sides with what the
 * listener said ("I totally agree, …", "I know that feeling - …", "I hear you, …"), or announces
 * it ("Wanted to let you know that I …", "Just so you know, …", "I'll be honest, …"), or what the
 * listener is thanked for ("[thanks] for the tip, …", {@link THANKED_FOR}). Left out
 * before the statement is read, as a greeting is.
 */
export const DISCOURSE_OPENER_RE = new RegExp(
  `^(?:(?:that|this|which)\\s+reminds\\s+me(?:\\s+that|\\s*[,:;–—-])|you\\s+(?:won['’]t|will\\s+not|wouldn['’]t)\\s+believe\\s+(?:it|this|what\\s+happened)\\s*[,:;!–—-]|guess\\s+what\\s*[,:;!–—-]|funny\\s+you\\s+(?:should\\s+)?(?:mention|ask)(?:\\s+(?:it|that))?\\s*[,:;!–—-]|speaking\\s+of\\s+(?:which|that)\\s*[,:;!–—-]|on\\s+that\\s+note\\s*[,:;–—-]|i\\s+(?:(?:totally|completely|really|fully|so|just|definitely|absolutely)\\s+)*agree(?:\\s+with\\s+(?:you|that|this))?(?:\\s+(?:completely|totally|100\\s*%))?\\s*[,:;!.–—-]|i\\s+(?:know|understand|get)\\s+(?:that|the|this)\\s+feeling\\s*[,:;!.–—-]|i\\s+(?:hear|feel)\\s+(?:you|ya)\\s*[,:;!.–—-]|${TELLING_OPENER}|${THANKED_FOR}|(?:just\\s+)?so\\s+(?:you|ya|u)\\s+know\\s*[,:;!–—-]|(?:i['’]ll\\s+be|to\\s+be|i['’]m\\s+being)\\s+(?:totally\\s+|completely\\s+)?honest\\s*[,:;!–—-]|${EXCITED_OPENER})\\s*`,
  'iu',
);
/**
 * What the speaker has done at some time, said with "I've … before", "I've never been to …",
 * "I've … twice": an experience, whatever its length ("I've played chess before"). Regex,
 * anchored, case-insensitive.
 */
export const EXPERIENCE_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:['’]ve|\\s+have)\\s+(?:(?:never|already|also|even|only|just|actually|definitely|both)\\s+)*(?:been\\s+to\\b|(?!been\\b)\\p{L}+\\s+(?:[\\p{L}'’-]+\\s+){0,5}?(?:before|once|twice|(?:a\\s+few|many|several|three|four|five|\\d+)\\s+times)\\b)`,
  'iu',
);
/**
 * A phrase in front of a clause that frames the remark after it, though it names the speaker:
 * "As for me, …", "For me, …", "Whenever I look out the window, …", "Every time I step in, …",
 * "If I had to pick, …", "For letting me help, …" (thanks, once "Thanks" is cut off), "Wish I
 * could …". Read with the clause's opener ({@link SPEAKER_ANY_RE}).
 */
export const FRAMING_OPENER_RE =
  /^(?:(?:and|but|so|well|also|plus)\s+)?(?:as\s+for|for|when|whenever|every\s*time|each\s+time|any\s*time|if|even\s+if|wish|thanks|thank\s+you)\b/iu;
/**
 * A question that tells something of the speaker: "Did I tell you I adopted a puppy?", "Have I
 * mentioned that my sister moved to Lisbon?", "Did I show you that I have a big bookshelf too?",
 * "Did you know I used to play the cello?". What follows it is a statement (read as one when
 * it has a subject of its own).
 */
export const TOLD_YOU_RE =
  /^(?:(?:oh|so|hey|btw|by\s+the\s+way)[,\s]+)*(?:(?:did|have)\s+i\s+(?:ever\s+|already\s+|even\s+)?(?:tell|told|mention|mentioned|show|showed|shown)\s+(?:(?:to\s+)?you\s+)?|did\s+you\s+know\s+)(?:that\s+)?/iu;
/**
 * A reminder asked for as a question ("Can you remind me to call the dentist tomorrow?", "could u
 * pls remind me about mom's birthday"): read as the request "Remind me …", a task like any other.
 * The part in front of "remind me".
 */
/**
 * A request to forget something said: "Please forget that I'm vegetarian", "can you forget what I
 * told you about my sister", "disregard the part about my job". Group 1 is what to forget.
 */
export const FORGET_REQUEST_RE =
  /^(?:(?:oh|so|hey|ok|okay|actually|also)[,\s]+)*(?:(?:please|pls|plz)\s+|(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+|plz\s+)?)?(?:forget|disregard|erase|delete|remove)\s+(?:(?:the\s+(?:fact|part|bit)\s+)?that\s+|(?:what\s+i\s+(?:said|told\s+(?:you|u))|the\s+(?:part|bit|thing))\s+about\s+|about\s+)(.+?)[\s,.!?]*(?:please|pls|plz)?[\s.!?]*$/iu;
export const ASKS_TO_BE_REMINDED_RE =
  /^(?:(?:oh|so|hey|ok|okay|btw|also)[,\s]+)*(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|pls\s+|plz\s+)?(?=remind\s+me\s+(?:to|about|of\s+my|that\s+i)\b)/iu;
/**
 * A plan with its subject, the speaker, left out: "Gonna volunteer at shelters next month", "Going
 * to visit my grandma next weekend". A cue of the future only with the date it names ("Gonna take
 * lots of pics" is said in passing).
 */
/**
 * Something the speaker has on a day ahead: "I have a job interview at Google next Tuesday", "my
 * exam is tomorrow", "we have a flight on Friday". With the date it names, a plan. Regex,
 * case-insensitive.
 */
export const SCHEDULED_RE =
  /^(?:(?:so|and|also|just|btw)[,\s]+)*(?:i|we|i['’]ve|we['’]ve|my|our)\s+(?:have\s+(?:got\s+)?|got\s+)?(?:an?\s+|my\s+|our\s+)?(?:[\p{L}'’-]+\s+){0,2}?(?:interview|exam|test|surgery|operation|flight|appointment|meeting|recital|presentation|deadline|check-?up|audition|game|match|tournament|race|marathon|date)s?\b/iu;
/**
 * A step the speaker is taking, said in the present ("We're moving to Seattle next month!", "I'm
 * flying to Lisbon on Friday"): with the date it names, a plan. Regex, case-insensitive.
 */
export const UNDER_WAY_PLAN_RE =
  /^(?:(?:so|and|also|just|btw|guess\s+what)[,!\s]+)*(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+(?:(?:finally|officially|actually|really|also)\s+)?(?:moving|leaving|flying|heading|starting|visiting|travel(?:l)?ing|hosting|throwing|getting\s+married|having\s+(?:a|our)\s+(?:baby|party|wedding))\b/iu;
export const IMPLIED_SPEAKER_FUTURE_RE =
  /^(?:(?:so|just|now|also)\s+)?(?:gonna(?!\s+be\b)\s+\p{L}|going\s+to\s+(?:visit|see|try|start|get|take|go|have|make|buy|move|meet|fly|travel|head|spend|do|watch|join|sign|apply|celebrate|throw|host|cook|bake|run|finish|learn|play|check|pick|drive|stay|attend)\b)/iu;
/**
 * An activity of the speaker's as a clause's subject, up to the verb that tells how it went:
 * "Touring with Frank Ocean", "Exploring the city and trying all the restaurants", "Looking for
 * the right place and getting everything ready". Not a perception of what was shown ("Seeing
 * this …"), nor a noun in -ing ("The wedding …", "Morning …", "The meeting …").
 */
const EXPERIENCE_GERUND = `^${LEAD}(?!(?:seeing|hearing|watching|reading|looking(?!\\s+for\\b)|talking|chatting|being\\s+(?:a|an|the)|nothing|something|everything|anything|morning|evening|thing|king|spring|sibling|during|wedding|building|meeting(?!\\s+(?:all|new|so|these|those|my|our|people|everyone|lots)\\b)|painting|clothing|ceiling|string|evening|feeling|ending|beginning|opening|setting|training\\s+(?:camp|session)|ring|outing|offering|living\\s+room)\\b)\\p{L}{3,}ing\\b(?:\\s+(?:and\\s+\\p{L}{3,}ing\\b|(?!(?:and|but|it|that|this|which|who)\\b)[\\p{L}\\p{N}'’-]+)){0,8}?`;
/**
 * What the speaker did, said as a gerund in the past: "Touring with Frank Ocean last week was
 * wild", "Fitting into the new team's style of play was a challenge". A remark about everyone is
 * said in the present ("Hiking is fun").
 */
export const PAST_EXPERIENCE_RE = new RegExp(`${EXPERIENCE_GERUND}\\s+(?:was|were)\\b`, 'iu');
/**
 * What the speaker has been doing, said as a gerund with how it has gone: "Searching for a dance
 * studio location has been tricky", "Performing and connecting with the crowd has been so
 * energizing", "Finding a pet-friendly place to live has been tough". Said in the perfect, it is
 * the speaker's own going on (a remark about everyone is said in the present or with "can":
 * "Camping with pets can be so soul-nourishing"); not a past event.
 */
export const ONGOING_EXPERIENCE_RE = new RegExp(`${EXPERIENCE_GERUND}\\s+ha(?:s|ve)\\s+been\\b`, 'iu');
/**
 * A clause whose subject, the speaker, is left out before a negated or perfect verb: "Didn't see
 * any bands, but met lots of artists", "Haven't tried it before", "Never been to Rome". Not
 * catching up ("Haven't talked in a while") or an idiom ("Never say never").
 */
export const IMPLIED_SPEAKER_NOT_RE =
  /^(?:(?:nah|nope|no|yeah|actually|honestly|sadly|unfortunately)[,\s]+)*(?:didn['’]?t|haven['’]?t|hadn['’]?t|wasn['’]?t|never)\s+(?:(?:really|even|actually|ever|got\s+to|get\s+to)\s+)*(?!(?:talked|spoken|chatted|heard|say|saw\s+(?:this|that|it)\s+coming)\b)\p{L}{2,}/iu;

// ── Formation: fragments whose referent is what the other speaker said (issue 28, precision) ──

/**
 * An activity judged as a whole, with nothing said after the judgement: "Seeing my kids' smiles
 * was so awesome", "Watching the sunset there was magical". Right after the speaker's statement
 * it judges what that statement told, kept whole with it.
 */
export const JUDGED_ACTIVITY_RE = new RegExp(
  `^${LEAD}(?!(?:some|any|every|no)thing\\b|(?:morning|evening|spring|during|wedding|building|clothing)\\b)\\p{L}{2,}ing\\b[^,.!?;]*?\\s(?:was|is|has\\s+been|were|are)\\s+(?:(?:so|really|super|truly|just|pretty|absolutely|such|the\\s+best|a|an)\\s+)*(?:${PRAISE}|magical|unforgettable|heartwarming|rewarding|blast|treat|highlight|priceless|surreal)(?:\\s+(?:experience|time|feeling|moment))?\\s*[.!…]*\\s*$`,
  'iu',
);

/**
 * Any activity whose object is "it", "them" or a "that" said before, or how "it" went:
 * "Doing that usually helps to jumpstart my inspiration", "Seeing how much it changed sparked
 * ideas for my next script", "Thinking about it makes me smile", with the verb it is the subject
 * of ("Adding it to my list." is the speaker's own doing). Not "that" opening a clause
 * ("Knowing that I helped makes me happy") or naming a noun ("Seeing that movie …"), nor a noun
 * in -ing ("Spring", "Something").
 */
const GERUND_OF_WHAT_WAS_SAID =
  "(?!(?:some|any|every|no)thing\\b|(?:morning|evening|spring|string|during|wedding|building|ceiling|pudding|clothing|offspring|bring|thing|king|ring|sing|wing)\\b)\\p{L}{2,}ing\\s+(?:(?:about|with|to|on|at|of|for|around)\\s+)?(?:(?:how|what|why|where|when)\\s+(?:(?:much|many|far|well)\\s+)?)?(?:it|them|that(?=\\s+(?:usually|really|always|often|sometimes|just|also|still|never|has|had|is|was|makes?|made|helps?|helped|gives?|gave|keeps?|kept|brings?|brought|reminds?|reminded|sparked|gets?|got|lets?|can|could|will|would|might|must)\\b|\\s*(?:[,.!?;…—–-]|$)))\\b(?!['’])[^.!?;]*?\\b(?:is|was|has|had|makes?|made|helps?|helped|gives?|gave|keeps?|kept|brings?|brought|reminds?|reminded|sparked|gets?|got|means?|meant|feels?|felt|takes?|took|can|could|will|would|must)\\b";

/**
 * "It" in a set phrase, standing for nothing said: "taking it easy", "taking it one day at a
 * time", "keeping it simple", "giving it my all", "playing it safe", "hitting it off".
 */
const IT_IDIOM =
  '(?:taking|take)\\s+it\\s+(?:easy|slow|slowly|one\\s+day|one\\s+step|day\\s+by\\s+day|in\\s+stride)\\b|keeping\\s+it\\s+(?:simple|real|light|casual|chill|low[- ]key|up)\\b|giving\\s+it\\s+(?:my|our|your|his|her|their)\\s+all\\b|playing\\s+it\\s+(?:safe|cool|by\\s+ear)\\b|hitting\\s+it\\s+off\\b|making\\s+it\\s+(?:big|through)\\b';

/**
 * An activity whose object is "it", "them", or "that" / "this" standing alone, first in the clause,
 * with or without a verb after it: "Making it unique for each owner and pup", "Adding that to my
 * bucket list!", "Glimpsing that calms me". What it does something to is said before, or by the
 * other speaker. Not "that" naming a noun ("Watching that movie …"), nor "it" in a set phrase ({@link IT_IDIOM}).
 */
const GERUND_OF_IT = `(?!(?:some|any|every|no)thing\\b|${IT_IDIOM}|(?:morning|evening|spring|string|during|wedding|building|ceiling|pudding|clothing|offspring|bring|thing|king|ring|sing|wing)\\b)\\p{L}{2,}ing\\s+(?:it|them|(?:that|this)(?=\\s*(?:[,.!?;…—–-]|$)|\\s+(?:to|into|for|on|with|\\p{L}+s\\s+(?:me|us))\\b))\\b(?!['’])`;

/**
 * An activity with someone or something said elsewhere, as the subject: "Seeing them so happy
 * makes me happy", "Being with them brings me so much joy", "Having her around keeps me going".
 * Who "them" is, is said in the clause before it or by the other speaker; kept whole with it.
 */
export const GERUND_REFERS_BACK_RE = new RegExp(
  `^${LEAD}(?:(?:being|seeing|watching|having|hearing|spending\\s+time|hanging\\s+out|playing|working|living|talking)\\s+(?:(?:with|around|near|next\\s+to)\\s+)?(?:them|him|her|it)\\b|${GERUND_OF_WHAT_WAS_SAID}|${GERUND_OF_IT})`,
  'iu',
);
/**
 * A clause whose subject "it" is left out: "Helps me chill and enjoy the view", "Keeps me
 * sane", "Reminds me of when I used to play with my husband". What helps is said before it.
 */
export const IMPLIED_IT_RE = new RegExp(
  `^${LEAD}(?:(?:really|definitely|also|totally|always|kinda|sure|truly)\\s+)*(?:helps|makes|keeps|gives|brings|reminds|lets|allows|takes|gets)\\s+(?:me|us)\\b`,
  'iu',
);
/**
 * A remark on what the other speaker showed, said or offered, or thanks for it: "That pic is
 * gorgeous!", "That dessert looks amazing", "The Name of the Wind sounds cool", "Appreciate the
 * help". Regex, case-insensitive.
 */
export const SHOWN_OR_THANKS_RE =
  /\b(?:looks?|sounds?|seems?|pics?|photos?|pictures?|snaps?|shots?)\b|^(?:(?:i\s+)?(?:really\s+)?appreciate|thanks|thank\s+you|cheers)\b/iu;
/**
 * The words of a sentence that shows a picture that name nothing of what it shows: "Take a look
 * at this pic!", "Check it out", "Here's a photo". What is left ("this cool Disney poster", "a pic
 * from when I was dancing") names what the picture is. Every match, case-insensitive.
 */
export const SHOWING_WORDS_RE =
  /\b(?:take|took|look|looking|check|checking|see|here|pics?|photos?|photography|pictures?|snaps?|shots?|images?|epic|cool|awesome|nice|great|amazing|beautiful|gorgeous|lovely|stunning)\b/giu;
/**
 * A noun said as known, by "the", "that" or "this", with a word before it at most: "the
 * organization I need", "that same spot". Group 1: the words after the determiner. Every match,
 * case-insensitive.
 */
export const DEFINITE_NOUN_RE = /\b(?:the|that|this|those|these)\s+((?:[\p{L}'’-]+\s+)?[\p{L}'’-]+)/giu;
/** A picture said as known, "this pic", "that photo", "the picture": in a reply that shares none, the one the other speaker shared. Case-insensitive. */
export const THE_PICTURE_RE =
  /\b(?:this|that|the|these|those)\s+(?:pics?|pictures?|photos?|photographs?|shots?|snaps?|images?)\b/iu;
/** An opinion about how things should be: "Celebrating small wins is crucial", "Love should be everyone's right". Regex, case-insensitive. */
export const OPINION_RE =
  /\b(?:is|are|'s|’s)\s+(?:so\s+|really\s+|super\s+|very\s+|just\s+)?(?:important|crucial|key|essential|vital|everything)\b|\b(?:should|must)\b/iu;
/** "My" or "mine": something said to be the speaker's. Regex, case-insensitive. */
export const MY_RE = /\b(?:my|mine)\b/iu;

// ── Standing instructions: how the speaker wants to be answered ──────────────────────────────

const RESPONSE_VERB =
  '(?:use|answer|reply|respond|write|speak|talk|explain|give|keep|include|add|format|put|start|end|sign|mention|suggest|recommend|show|send|say|call\\s+me|address\\s+me|refer\\s+to\\s+me)';
const FROM_NOW_ON = '(?:from\\s+now\\s+on|going\\s+forward|in\\s+(?:the\\s+)?future|for\\s+future\\s+reference)';
/** What a standing instruction is about: the answers themselves, or the speaker. */
const ABOUT_ANSWERS =
  '\\b(?:answers?|repl(?:y|ies)|responses?|messages?|emojis?|emoticons?|bullet\\s+points?|bullets|lists?|markdown|tables?|headings?|jargon|examples?|sources?|links?|me|english|spanish|french|german|portuguese|italian|formal(?:ly)?|casual(?:ly)?|short|shorter|brief|briefly|concise|detail(?:ed)?|simple|simply|plain)\\b';
/**
 * How the speaker likes to be answered, said as a liking or a rule for the answers themselves: "I
 * prefer short answers", "Keep your answers brief", "I like it when you give examples", "Use
 * metric units".
 */
const ANSWER_STYLE =
  '(?:i\\s+(?:(?:really|much|generally|usually)\\s+)?(?:prefer|like|want|need)\\s+(?:(?:it\\s+)?when\\s+you\\s+(?:give|use|include|add|explain|keep|show|answer|reply|write)|(?:(?:short|shorter|brief|concise|long|longer|detailed|simple|plain|direct|step-by-step)\\s+)+(?:answers|replies|responses|explanations))|keep\\s+(?:your\\s+|the\\s+)?(?:answers|replies|responses)\\s+(?:short|brief|concise|simple)|(?:please\\s+)?use\\s+(?:the\\s+)?(?:metric|imperial|celsius|fahrenheit|british\\s+english|american\\s+english|uk\\s+english|us\\s+english)\\b)';
/**
 * A standing instruction for how to answer the speaker: "Please always answer in Spanish", "From
 * now on, don't use emojis", "Never use bullet points", "Always keep your answers short". A
 * preference of the speaker's, not a request said once ("Can you write me a poem?") nor advice
 * to the listener ("Don't use the oven", "Never give up!"). Regex, anchored, case-insensitive.
 */
export const STANDING_INSTRUCTION_RE = new RegExp(
  `^(?:(?:please|pls|and|also|oh|ok|okay|btw)[,\\s]+)*(?:${FROM_NOW_ON}[,\\s]+(?:please\\s+)?(?:always\\s+|never\\s+|don['’]?t\\s+|do\\s+not\\s+)?${RESPONSE_VERB}\\b|(?=.*${ABOUT_ANSWERS})(?:please\\s+)?(?:always|never|don['’]?t\\s+ever|don['’]?t|do\\s+not)\\s+(?:ever\\s+)?${RESPONSE_VERB}\\b|${ANSWER_STYLE})`,
  'iu',
);

/**
 * Nothing planned or new, said of now: "I have no big events coming up", "No plans this
 * weekend", "Nothing much going on", "I don't have anything planned". A passing state, not a
 * lasting fact ("I have no siblings" is one). Regex, case-insensitive.
 */
export const NOTHING_PLANNED_RE =
  /^(?:(?:i|we)\s+(?:(?:have|['’]ve\s+got|got)\s+no|(?:don['’]?t|do\s+not)\s+have\s+(?:any|anything))\s+(?:(?:big|special|real|exciting|major|fun|particular|other)\s+)?(?:plans?|events?|news|updates?|trips?|planned)\b|^(?:no|not\s+(?:many|much))\s+(?:(?:big|special|real|exciting|major)\s+)?(?:plans?|events?|news|updates?)\b|^nothing\s+(?:much\s+|big\s+|special\s+|new\s+)?(?:planned|going\s+on|new|coming\s+up|happening)\b)/iu;

// ── Consolidation: what no longer holds ────────────────────────────────────────────────────────

/**
 * Words that say something no longer holds: "I'm not vegetarian anymore", "I stopped playing
 * tennis", "I no longer drink coffee", "I quit smoking", "I gave up meat" (not "I stopped by"). A statement with one
 * contradicts an earlier one that says the same without it (`formation/consolidation.ts`).
 * Regex, case-insensitive, global (to read a statement without them).
 */
export const NO_LONGER_RE =
  /\b(?:no\s+longer|any\s*more|stopped(?!\s+(?:by|at|in|over|off|for|to)\b)|quit|quitting|gave\s+up|given\s+up|giving\s+up)\b/giu;
/** A negation: "not", "never", "no", "-n't" ("I'm not vegan", "I don't eat meat"). Regex, case-insensitive, global. */
export const NEGATION_RE = /\b(?:not|never|no|nope)\b|n['’]t\b/giu;

// ── Safety: allergies, conditions and dietary limits (issue 28) ────────────────────────────────
// One table, read by formation (a statement of one's own becomes a fact) and by recall (a food or
// health question gets what the store knows of them): `SAFETY_WORDS` in `relations.ts` is its words.

/** Conditions a person lives with, said as a noun: "I have asthma", "My son has epilepsy", "I have a nut allergy". */
export const SAFETY_CONDITIONS: readonly string[] = [
  'diabetes',
  'prediabetes',
  'asthma',
  'epilepsy',
  'seizures',
  'celiac disease',
  'coeliac disease',
  'celiac',
  'coeliac',
  "crohn's disease",
  "crohn's",
  'ibs',
  'irritable bowel syndrome',
  'colitis',
  'hypertension',
  'high blood pressure',
  'heart condition',
  'heart disease',
  'heart problems',
  'kidney disease',
  'kidney condition',
  'kidney problems',
  'kidney failure',
  'lactose intolerance',
  'gluten intolerance',
  'gluten sensitivity',
  'allergy',
  'allergies',
  'anaphylaxis',
  'phenylketonuria',
  'pku',
  'gout',
  'acid reflux',
  'gerd',
];
/**
 * Conditions a person lives with that rule out no food: "My son has ADHD", "I have migraines",
 * "I was diagnosed with depression". A lasting fact of whom the clause names, read by formation
 * only (the safety table above is what a food question gets). Regex alternatives.
 */
/**
 * Who the speaker is, said in a word or two: "I'm retired", "I'm an introvert", "I'm a night
 * owl", "I'm colorblind", "I'm on a diet". A fact however few its words. Regex, case-insensitive.
 */
export const IDENTITY_IN_FEW_WORDS_RE =
  /^(?:(?:so|and|well|actually|also|btw)[,\s]+)*(?:i['’]?m|i\s+am)\s+(?:(?:now|still|also|officially)\s+)?(?:(?:an?\s+)?(?:retired|unemployed|self-employed|introvert|extrovert|introverted|extroverted|night\s+owl|early\s+bird|morning\s+person|colou?r-?\s?blind|only\s+child|twin|widow(?:er)?|homeschooled|neurodivergent|deaf|hard\s+of\s+hearing|blind|vegan|vegetarian|pescatarian|teetotal(?:er)?|sober)|on\s+a\s+(?:diet|budget))(?=\s*(?:[,.!…]|$)|\s+(?:now|too|as\s+well|and|but|so|lol|haha|btw|these\s+days|since)\b)/iu;
export const LASTING_CONDITIONS =
  'adhd|autism|dyslexia|dyspraxia|depression|bipolar(?:\\s+disorder)?|ptsd|ocd|migraines|arthritis|cancer|pcos|endometriosis|hypothyroidism|anemia|anaemia|sleep\\s+apnea|fibromyalgia|multiple\\s+sclerosis|lupus|tinnitus|scoliosis';
/** Conditions said as what someone is: "I'm diabetic", "Raj is allergic to shellfish", "I'm pregnant". */
export const SAFETY_STATES: readonly string[] = [
  'diabetic',
  'prediabetic',
  'asthmatic',
  'epileptic',
  'celiac',
  'coeliac',
  'pregnant',
  'anaemic',
  'anemic',
  'hypertensive',
  'lactose intolerant',
  'gluten intolerant',
  'allergic',
  'intolerant',
  'anaphylactic',
];
/** Diets that rule foods out: "I'm vegetarian", "We keep kosher", "I eat halal", "I'm on a gluten-free diet". */
export const SAFETY_DIETS: readonly string[] = [
  'vegetarian',
  'vegan',
  'pescatarian',
  'pescetarian',
  'kosher',
  'halal',
  'gluten-free',
  'dairy-free',
  'nut-free',
  'lactose-free',
  'sugar-free',
  'low-sodium',
];
/** Foods a person may not eat or drink, the allergens first: "I can't eat gluten", "I don't eat pork", "a peanut allergy". */
export const SAFETY_FOODS: readonly string[] = [
  'peanuts',
  'peanut',
  'tree nuts',
  'tree nut',
  'tree-nuts',
  'tree-nut',
  'nuts',
  'nut',
  'almonds',
  'cashews',
  'walnuts',
  'sesame',
  'soy',
  'shellfish',
  'shrimp',
  'prawns',
  'crab',
  'lobster',
  'seafood',
  'fish',
  'eggs',
  'egg',
  'dairy',
  'milk',
  'cheese',
  'lactose',
  'gluten',
  'wheat',
  'bread',
  'pork',
  'bacon',
  'ham',
  'beef',
  'red meat',
  'meat',
  'poultry',
  'chicken',
  'animal products',
  'sugar',
  'salt',
  'alcohol',
  'spicy food',
  'penicillin',
];
/** Words that mark a text as one of the above on their own, whatever is said around them ("EpiPen", "anaphylactic shock"). */
const SAFETY_MARKERS: readonly string[] = ['epipen', 'insulin', 'inhaler'];

/** A phrase of a table as regex alternatives: any apostrophe or none, a space or a hyphen between its words, longest first. */
function phrases(list: readonly string[]): string {
  return [...list]
    .sort((a, b) => b.length - a.length)
    .map((p) =>
      p
        .replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')
        .replace(/'/gu, "['’]?")
        .replace(/[\s-]+/gu, '[\\s-]+'),
    )
    .join('|');
}
const CONDITION = phrases(SAFETY_CONDITIONS);
const STATE = phrases(SAFETY_STATES);
const DIET = phrases(SAFETY_DIETS);
/** What someone is that is a condition or a diet ("diabetic", "lactose intolerant", "vegan"): what "I'm …" says of a lasting fact. Regex alternatives. */
export const SAFETY_STATE = `(?:${STATE}|${DIET})(?![\\p{L}\\p{N}'’-])`;
const FOOD = phrases(SAFETY_FOODS);
/** The end of a table's word: "vegan" but not "vegan-friendly", "nut" but not "nutmeg". */
const END = "(?![\\p{L}\\p{N}'’-])";
/** Words that may stand before a condition: "a", "severe", "type 2", "a peanut" ("I have a severe peanut allergy"). */
const CONDITION_MODIFIER = `(?:(?:an?|mild|severe|bad|serious|chronic|life-threatening|type\\s*[12]|${FOOD}|food)\\s+)*`;
/** Adverbs between a subject and what it has or is; never "not" ("I'm not vegetarian" states no diet). */
const SAFETY_ADVERB =
  '(?:(?:also|still|now|actually|strictly|severely|really|totally|completely|just|mostly|only|always|mildly|very|extremely|highly|deathly|super|both|all)\\s+)*';
/** A foods limit: not "I don't eat breakfast much", "I can't eat that much" (no food of the table), nor one said of now ("… today"). */
const LIMITED_FOOD = `(?:any(?:thing)?\\s+(?:with|containing)\\s+|any\\s+|foods?\\s+with\\s+)?(?:${FOOD})${END}(?!\\s+(?:much|often|very\\s+often|that\\s+often|these\\s+days|lately|today|tonight|right\\s+now|now|at\\s+the\\s+moment|a\\s+lot)\\b)`;
/** What is said of the subject: a condition had, a condition or diet that it is, a diet kept, a food it cannot or does not eat. */
const SAFETY_PREDICATE = [
  // "I have asthma", "I've had diabetes for years", "My son was diagnosed with epilepsy", "I suffer from IBS".
  `(?:['’](?:ve|s)\\s+(?:got|had|been\\s+diagnosed\\s+with)|\\s+${SAFETY_ADVERB}(?:(?:have|has)(?:\\s+(?:got|had|been\\s+diagnosed\\s+with))?|(?:was|were|got)\\s+diagnosed\\s+with|suffers?\\s+from|lives?\\s+with)|(?:['’]m|\\s+am|\\s+is|['’]s|['’]re|\\s+are)\\s+living\\s+with)\\s+${CONDITION_MODIFIER}(?:${CONDITION})${END}`,
  // "I'm vegetarian", "Raj is diabetic", "My daughter is allergic to shellfish", "I'm a vegan".
  `(?:['’]m|['’]re|['’]s|\\s+am|\\s+are|\\s+is|\\s+was\\s+born|['’]ve\\s+been|\\s+(?:have|has)\\s+been)\\s+${SAFETY_ADVERB}(?:an?\\s+)?(?:type\\s*[12]\\s+)?(?:${STATE}|${DIET})${END}`,
  // "We keep kosher", "I eat halal", "I only eat gluten-free", "I'm on a vegan diet", "I went vegetarian".
  `(?:\\s+${SAFETY_ADVERB}(?:keeps?|eats?|follows?|went|became|turned)|(?:['’]m|['’]re|['’]s|\\s+am|\\s+are|\\s+is)\\s+${SAFETY_ADVERB}on)\\s+(?:(?:an?|strictly|strict|only)\\s+)*(?:${DIET})${END}`,
  // "I can't eat gluten", "I don't eat pork", "My son can't have dairy", "I'm not allowed to drink alcohol".
  `(?:\\s+${SAFETY_ADVERB}(?:can['’]?t|cannot|can\\s+not|don['’]?t|do\\s+not|doesn['’]?t|does\\s+not|never|shouldn['’]?t|mustn['’]?t)|(?:['’]m|['’]re|['’]s|\\s+am|\\s+are|\\s+is)\\s+not\\s+(?:allowed|supposed)\\s+to)\\s+(?:eat|have|drink|consume|tolerate|digest|touch)\\s+${LIMITED_FOOD}`,
  // "I avoid gluten", "I have to avoid dairy", "My wife stays away from shellfish".
  `\\s+${SAFETY_ADVERB}(?:avoids?|(?:have|has|need|needs)\\s+to\\s+avoid|must\\s+avoid|stays?\\s+away\\s+from)\\s+${LIMITED_FOOD}`,
  `(?:['’]m|\\s+am|\\s+is|['’]s|['’]re|\\s+are)\\s+avoiding\\s+${LIMITED_FOOD}`,
].join('|');
/**
 * A clause that states an allergy, a condition or a dietary limit of its subject: the speaker ("I
 * have asthma", "I'm vegetarian", "I can't eat gluten", "We keep kosher"), a relation ("My son
 * has epilepsy", "My daughter is allergic to shellfish") or a person named ("Raj is diabetic").
 * Not negated ("I'm not vegetarian", "I don't have diabetes"), not a passing ailment ("I have a
 * cold"), not a habit said of now ("I don't eat breakfast much these days"), not said of
 * everyone ("Gluten is bad for you"). Read with the clause's subject (the speaker, a relation or a
 * name; not the listener, not a pronoun whose referent is said elsewhere).
 */
export const SAFETY_STATEMENT_RE = new RegExp(
  `^${LEAD}(?:i|we|(?:my|our)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})(?:,?\\s+${NAME})?|${NAME})(?:${SAFETY_PREDICATE})`,
  'iu',
);
/**
 * A clause that states an allergy, a condition or a dietary limit of the speaker or the speaker's
 * own people ("I'm vegan", "We keep kosher", "My son has epilepsy"): `SAFETY_STATEMENT_RE` less a
 * person named ("Raj is diabetic") — what a turn must say for recall to read it as a safety fact
 * of whoever said it.
 */
export const SAFETY_OWN_STATEMENT_RE = new RegExp(
  `^${LEAD}(?:i|we|(?:my|our)\\s+${RELATION_ADJECTIVE}(?:${RELATIONS})(?:,?\\s+${NAME})?)(?:${SAFETY_PREDICATE})`,
  'iu',
);
/**
 * A text that names an allergy, a condition or a dietary limit, whoever it is of: what makes a
 * memory a safety fact for recall ("I am allergic to peanuts.", "I have high blood pressure.",
 * "I don't eat pork.", "Ana: I have celiac disease").
 */
export const SAFETY_TEXT_RE = new RegExp(
  `\\b(?:${CONDITION}|${STATE}|${DIET}|${phrases(SAFETY_MARKERS)})${END}|\\b(?:can['’]?t|cannot|can\\s+not|don['’]?t|do\\s+not|doesn['’]?t|does\\s+not|never|not\\s+(?:allowed|supposed)\\s+to)\\s+(?:eat|have|drink|consume|tolerate|digest|touch)\\s+${LIMITED_FOOD}|\\b(?:avoids?|avoiding|stays?\\s+away\\s+from)\\s+${LIMITED_FOOD}`,
  'iu',
);
/** The words of the safety table, for a word search of what the store knows of them. */
export const SAFETY_VOCABULARY: readonly string[] = [
  ...new Set(
    [...SAFETY_CONDITIONS, ...SAFETY_STATES, ...SAFETY_DIETS, ...SAFETY_FOODS, ...SAFETY_MARKERS].flatMap((p) =>
      p.split(/[\s-]+/u),
    ),
  ),
];
/**
 * Ailments that pass: "I have a cold", "I've got a headache", "I had the flu". Said with "have",
 * they are no lasting fact of the speaker. Regex alternatives.
 */
export const PASSING_AILMENT =
  'cold|headache|fever|flu|cough|sore\\s+throat|stomach\\s*ache|tummy\\s+ache|toothache|hangover|migraine|runny\\s+nose|sniffles|bug|virus|rash|sunburn|cramp|cramps|backache';

// ── Formation: small talk kept episodic (issue 28, precision: pleasantries, encouragement, passing states) ──

/** A stretch of time small talk says was busy or good: "this week", "the past few days", "today". Regex alternatives. */
const SMALL_TALK_TIME = 'days?|weeks?|weekends?|months?|mornings?|evenings?|nights?|years?|today|yesterday';
/** How that time was: busy, long, good. Regex alternatives. */
const SMALL_TALK_HOW =
  'busy|hectic|crazy|long|rough|tough|hard|wild|great|good|nice|lovely|amazing|awesome|fantastic|productive|relaxing|chill|quiet|slow|stressful|exhausting|tiring|bad|fun|eventful';
/** Words that only grade it ("really busy", "a bit hectic"). Regex, optional. */
const SMALL_TALK_GRADE = '(?:(?:so|really|pretty|very|super|quite|kinda|a\\s+bit|crazy|such|fairly|rather)\\s+)*';
/** The end of a clause that says no more: punctuation, an emoji. */
const SMALL_TALK_END = '[\\s!.…]*$';
/** Not giving up, pushing on: "I'm not giving up", "gonna keep pushing forward". Regex, no anchors. */
const PUSHING_ON =
  "(?:(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+)?(?:(?:just|still|really|definitely|so)\\s+)*(?:not\\s+(?:gonna\\s+|going\\s+to\\s+)?giv(?:e|ing)\\s+up|(?:(?:i['’]m\\s+|i['’]ll\\s+|we['’]ll\\s+)?(?:gonna|going\\s+to)\\s+)?keep(?:ing)?\\s+(?:on\\s+)?(?:pushing|going|moving|fighting|trying|working\\s+hard|at\\s+it)(?:\\s+(?:forward|on|ahead|through|myself|ourselves))?)";

/**
 * Clauses of small talk that say nothing a careful note-taker would keep about the speaker, read
 * whole (each ends with the clause): how a day, a week or life lately was, a mood, progress or
 * resolve with nothing named ("All my hard work is paying off", "I'm gonna make this work!", "I'm
 * not giving up"), staying upbeat, an offer to fill the listener in or to listen, catching up after
 * a while, a doing of the listener's judged, wanting what is the listener's, "I loved the experience". The turn keeps them. Each names what
 * it is; read by the 'small talk' rule, as said (a phrase in front that says what the speaker did
 * keeps the clause: "Since I lost my job, things have been tough").
 */
export const SMALL_TALK: readonly { readonly what: string; readonly re: RegExp }[] = [
  // "This week's been really busy for me", "I had a great day today", "The past few days have
  // been hectic" ("I had a great day at the beach with my kids" says where, and is kept).
  {
    what: 'how a day or week was',
    re: new RegExp(
      `^${LEAD}(?:(?:i|we)\\s+(?:had|['’]ve\\s+had|have\\s+had|am\\s+having|['’]m\\s+having|['’]re\\s+having|are\\s+having)\\s+(?:such\\s+)?an?\\s+${SMALL_TALK_GRADE}(?:${SMALL_TALK_HOW})\\s+(?:${SMALL_TALK_TIME})|(?:(?:this|my|the|that|last|our)\\s+)?(?:past\\s+)?(?:few\\s+|couple\\s+(?:of\\s+)?)?(?:${SMALL_TALK_TIME})(?:['’]s|\\s+has|\\s+have|\\s+was|\\s+were|\\s+is|\\s+are)(?:\\s+been)?\\s+${SMALL_TALK_GRADE}(?:${SMALL_TALK_HOW}))(?:\\s+(?:for|with)\\s+(?:me|us))?(?:\\s+(?:today|lately|recently|so\\s+far|this\\s+week))?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "I'm in a great mood today": a mood that passes.
  {
    what: 'a mood',
    re: new RegExp(
      `^${LEAD}(?:i['’]m|i\\s+am|i\\s+was|i['’]ve\\s+been|feeling|been)\\s+in\\s+(?:such\\s+)?an?\\s+${SMALL_TALK_GRADE}(?:good|great|bad|happy|festive|foul|weird|reflective|cheerful|grumpy)\\s+mood(?:\\s+(?:today|lately|tonight|this\\s+\\p{L}+))?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "All my hard work is paying off", "I've been working hard and it's paying off", "Things are
  // looking up": progress, not what it is in ("My bakery is finally paying off" names it).
  {
    what: 'progress, not what it is in',
    re: new RegExp(
      `^${LEAD}(?:(?:all\\s+)?(?:(?:my|our|the)\\s+)?(?:hard\\s+)?work(?:['’]s|\\s+is|\\s+has\\s+been)|(?:i|we)(?:['’]ve|\\s+have)\\s+been\\s+(?:working|trying|pushing)\\s+(?:(?:so|really|super)\\s+)?hard\\s+(?:and|but)\\s+(?:it|that)(?:['’]s|\\s+is)|things\\s+are|everything(?:['’]s|\\s+is))\\s+(?:(?:really|finally|definitely|all|slowly|starting\\s+to|already|totally)\\s+)*(?:paying\\s+off|pay\\s+off|looking\\s+up|coming\\s+together)${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "I'm gonna make this work!", "I'm sure we'll make it": a resolve, with nothing to do named
  // ("I'll make it to the party tomorrow" says what).
  {
    what: 'a resolve with nothing named',
    re: new RegExp(
      `^${LEAD}(?:(?:i['’]m\\s+sure|i\\s+know|i\\s+believe)\\s+)?(?:i['’]ll|i\\s+will|we['’]ll|we\\s+will|i['’]m\\s+(?:gonna|going\\s+to)|we['’]re\\s+(?:gonna|going\\s+to))\\s+(?:(?:definitely|really|totally|just|still|also|always|so)\\s+)*make\\s+(?:it|this|that)(?:\\s+(?:work|happen|count))?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "I'm trying to stay upbeat and learn as much as I can", "Staying calm": a mood kept, not what about.
  {
    what: 'staying upbeat',
    re: new RegExp(
      `^${LEAD}(?:(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+)?(?:(?:just|still|really|always|also)\\s+)*(?:trying\\s+(?:hard\\s+)?to\\s+stay|staying|keeping)\\s+(?:upbeat|cheerful|sane|grounded|calm|patient|humble|confident|inspired|optimistic)\\b`,
      'iu',
    ),
  },
  // "I just wanted to fill you in on my business", "Thought I'd give you a quick update": what is
  // about to be said ("I wanted to tell you I got the job" is read without its opener).
  {
    what: 'filling the listener in',
    re: new RegExp(
      `^${LEAD}(?:i\\s+)?(?:(?:just\\s+)?(?:wanted|want|needed)\\s+to|thought\\s+i['’]d)\\s+(?:just\\s+)?(?:fill\\s+(?:you|ya)\\s+in|update\\s+(?:you|ya)|give\\s+(?:you|ya)\\s+an?\\s+(?:quick\\s+)?update|check\\s+in|touch\\s+base|catch\\s+up|say\\s+hi|reach\\s+out)(?:\\s+(?:on|about|with)\\s+(?:my|our|the|some|how|what)\\b[^,;:!?.]{0,40})?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "Making a difference like that is truly amazing": a deed like the listener's, judged.
  {
    what: 'a deed like that, judged',
    re: new RegExp(
      `^${LEAD}\\p{L}+ing\\s+[^.!?]*?\\blike\\s+(?:that|this)\\s+(?:is|was|must\\s+be|must\\s+have\\s+been)\\s+(?:(?:so|really|truly|just|such|pretty|super)\\s+)*(?:an?\\s+)?(?:amazing|awesome|great|incredible|inspiring|cool|wonderful|impressive|fantastic|huge|special|admirable|brave)\\b`,
      'iu',
    ),
  },
  // "Long time no talk - I had lots of stuff going on": catching up, not yet what went on.
  {
    what: 'a lot going on',
    re: new RegExp(
      `^(?:long\\s+time\\s+no\\s+(?:talk|see|chat)\\s*[-–—,!.]+\\s*)?${LEAD}(?:i|we)(?:['’]ve|\\s+have)?\\s+had\\s+(?:(?:such\\s+)?a\\s+lot|lots|so\\s+much|a\\s+ton|tons)\\s+(?:of\\s+(?:stuff|things)\\s+)?(?:going\\s+on|to\\s+deal\\s+with)(?:\\s+(?:lately|recently))?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "My journey's just getting started!": a cheer, not what the journey is.
  {
    what: 'just getting started',
    re: new RegExp(
      `^${LEAD}(?:my|our|the|this)\\s+(?:journey|adventure|story)(?:['’]s|\\s+is|\\s+has)\\s+(?:only\\s+|just\\s+)*(?:getting\\s+started|beginning|begun|started)${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "Making videos and connecting with people about gaming - that's awesome!": what the listener
  // does, judged ("Hiking in the Alps - that's my favourite!" is the speaker's liking).
  {
    what: 'a doing judged',
    re: new RegExp(
      `^${LEAD}(?![^.!?]*\\b(?:i|me|my|mine)\\b)\\p{L}+ing\\b[^.!?]*?\\s[-–—]\\s+(?:that|this|it)(?:['’]s|\\s+is|\\s+was|\\s+sounds?)\\s+(?:(?:so|really|just|truly|pretty|super)\\s+)*(?:awesome|amazing|great|cool|incredible|impressive|inspiring|fantastic|wonderful|admirable|brave|fun)${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "I loved the experience": what it was, is said before.
  {
    what: 'loved the experience',
    re: new RegExp(
      `^${LEAD}(?:i|we)\\s+(?:(?:really|totally|just|truly|absolutely)\\s+)*(?:loved|enjoyed|liked)\\s+(?:the|that|this)\\s+(?:whole\\s+)?experience${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "I'm not giving up, just gonna keep pushing forward", "Gonna keep pushing myself to make it
  // happen": resolve, nothing named ("I'm not giving up on the marathon" names what, and is kept).
  {
    what: 'pushing on',
    re: new RegExp(
      `^${LEAD}${PUSHING_ON}(?:\\s*(?:,|and|but|[-–—])\\s*(?:just\\s+)?${PUSHING_ON})*(?:\\s+to\\s+make\\s+it\\s+(?:happen|work))?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "Seeing my effort pay off was awesome": progress, not what it is in.
  {
    what: 'effort paying off, judged',
    re: new RegExp(
      `^${LEAD}seeing\\s+(?:all\\s+)?(?:my|our|the)\\s+(?:hard\\s+)?(?:work|effort|efforts)\\s+pay(?:ing)?\\s+off\\s+(?:is|was|feels?|felt)\\s+(?:(?:so|really|just|truly|pretty|super)\\s+)*\\p{L}+${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "Life's been a bit rough lately but I'm doing alright", "I've been on an emotional
  // rollercoaster lately, but I'm coping", "Life's thrown me a few curveballs lately": how things
  // go, not what ("Life's been rough since my divorce" says why, and is kept).
  {
    what: 'how life goes lately',
    re: new RegExp(
      `^${LEAD}(?:(?:life|things|work|everything)(?:['’]s|\\s+has|\\s+have|\\s+is|\\s+are)(?:\\s+been)?\\s+${SMALL_TALK_GRADE}(?:${SMALL_TALK_HOW}|an?\\s+(?:(?:emotional|real|total)\\s+)?roller\\s*coaster)|(?:i|we)(?:['’]ve|\\s+have)\\s+been\\s+on\\s+(?:such\\s+)?an?\\s+(?:(?:emotional|real|total)\\s+)?roller\\s*coaster|life(?:['’]s|\\s+has)\\s+(?:thrown|given)\\s+(?:me|us)\\s+(?:a\\s+few|some|a\\s+lot\\s+of|lots\\s+of|so\\s+many)\\s+curve\\s*balls)(?:\\s+(?:for\\s+me|lately|recently|these\\s+days))*(?:\\s*,?\\s*(?:but|and)\\s+(?:i['’]m|i\\s+am|we['’]re)\\s+(?:(?:still|just|doing)\\s+)*(?:alright|all\\s+right|ok|okay|fine|good|coping|hanging\\s+in(?:\\s+there)?|managing|getting\\s+by|surviving))?${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "Missed chatting with ya!", "We haven't corresponded for a long time!": a greeting after a while.
  {
    what: 'a while since we talked',
    re: new RegExp(
      `^${LEAD}(?:(?:(?:i|we)(?:['’]ve|\\s+have)?\\s+)?(?:(?:really|so|totally)\\s+)?missed\\s+(?:chatting|talking|catching\\s+up|our\\s+(?:chats|talks))(?:\\s+(?:with|to)\\s+(?:you|ya|u))?|we\\s+(?:haven['’]t|have\\s+not|hadn['’]t)\\s+(?:talked|chatted|spoken|corresponded|caught\\s+up)\\s+(?:in|for)\\s+(?:a\\s+(?:long\\s+)?(?:time|while)|ages|(?:a\\s+few|several|many)\\s+\\p{L}+))${SMALL_TALK_END}`,
      'iu',
    ),
  },
  // "I'm here to lend an ear or help out however I can", "I'm always here to listen": an offer to the listener.
  {
    what: 'an offer to listen',
    re: new RegExp(
      `^${LEAD}(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+(?:(?:always|still|just|definitely)\\s+)*here\\s+(?:to\\s+(?:lend\\s+an\\s+ear|listen|talk|chat|help|support)|if\\s+(?:you|ya)\\s+(?:need|want))\\b`,
      'iu',
    ),
  },
  // "I'm keen to try your recipe", "I'm dying to see your garden!": wanting what the listener has or
  // made ("I'm keen to try your lasagna at the potluck next week", a plan with its date, is kept).
  {
    what: "wanting the listener's",
    re: new RegExp(
      `^${LEAD}(?:i['’]m|i\\s+am)\\s+(?:(?:so|really|super|totally|definitely|also)\\s+)*(?:keen|excited|eager|dying|tempted|itching)\\s+to\\s+(?:try|see|read|hear|taste|check\\s+out|watch)\\s+(?:your|yours|ur)\\b(?![^.!?]*\\b(?:tomorrow|tonight|next|this\\s+(?:weekend|week|month|year))\\b)`,
      'iu',
    ),
  },
];
/**
 * "Like when we went camping", "Or like the time I …": "like" meaning "such as", an example of
 * what the statement before it said; joined to it.
 */
export const SUCH_AS_FRAGMENT_RE =
  /^(?:(?:or|and|just|kinda|sorta)\s+)?like\s+(?:when|the\s+time|that\s+time|how|with)\b/iu;
// ── Formation: clauses that name nothing, and what is no task (issue 28, precision) ───────────

/**
 * A thing left unnamed, as an object: "something", "stuff", "things" ("I've been stumped about
 * something", "I'm starting some big new things"). Not a subject ("Things have been tough"), nor
 * one named by what it is like ("Stuff like this mural …").
 */
export const UNNAMED_THING_RE =
  /(?<=\S\s+(?:\p{L}+\s+){0,3})\b(?:something|stuff|things)\b(?!\s+like\s+(?!(?:this|that|these|those|it)\b))/iu;
/**
 * What a relative clause says of an unnamed thing when it says only how it makes the speaker
 * feel: "something that brings us fulfillment", "stuff that makes me happy", "things which give me
 * joy". It names the thing no more than "something" alone does. Not after "is" ("Gardening is
 * something that brings me joy" names gardening).
 */
export const FEELING_ONLY_RELATIVE_RE = new RegExp(
  `(?<!\\b(?:is|was|are|were|be|been)\\s+|['’]s\\s+)\\b(something|stuff|things)\\s+(?:that|which)\\s+(?:(?:really|always|truly|just|also|can|could|will)\\s+)*(?:brings?|gives?|makes?|fills?)\\s+(?:me|us)\\s+(?:with\\s+)?(?:(?:so\\s+much|such|great|real|a\\s+lot\\s+of|so|really|very|truly)\\s+)?(?:feel\\s+)?(?:${GOOD_FEELING_NOUN}|${FEELING})\\b`,
  'iu',
);
/**
 * Words that say no more of an unnamed thing: how big, new or good it is, when, and that there
 * is a lot of it ("some big new things", "lots of stuff going on in my life", "something like
 * this right now"). A clause that says only these and one verb names nothing.
 */
export const UNNAMED_THING_QUALIFIERS: ReadonlySet<string> = new Set(
  (
    'big new different good great cool exciting fun interesting amazing awesome special little small huge ' +
    'lots lot much many few several whole bunch ton tons kinds sorts ' +
    'now lately recently today currently right like want wanted wanna going goin happening life'
  ).split(' '),
);
/** How often, which makes an unnamed thing a habit of the speaker's ("I'm always trying new things"). */
export const HABITUAL_RE = /\b(?:always|usually|often|constantly|regularly|every\s+\p{L}+)\b/iu;
/**
 * "so" that opens a purpose or a result, not a clause of its own: "I wanna start a dance studio
 * so I can teach others", "… so we'll have more room". The clause after it says why, and stays
 * with the one before it.
 */
export const PURPOSE_AFTER_SO_RE =
  /^(?:that\s+)?(?:i|we|they|he|she|it)(?:\s+(?:can|could|will|would|may|might)(?!['’]t|n['’]t|not)\b|['’](?:ll|d)\b)/iu;
/**
 * A future cue that plans nothing to do: a good time wished ("I'll make sure to have a safe
 * trip", "We'll have a great time"), or a resolve ("I'm gonna make this work!", "I'll definitely
 * stick up for our community", "We'll rock the dance floor").
 */
export const NOT_A_TASK_RE =
  /\b(?:make\s+(?:it|this|that|things)\s+(?:happen|work|count)|(?:stick|stand)\s+up\s+for|keep\s+(?:going|pushing|fighting|trying|at\s+it)(?=\s*[!.,;…–—-]|\s*$)|(?:never|not)\s+give\s+up|rock\s+(?:it|the\s+\p{L}+(?:\s+floor)?)|chase\s+(?:my|our|their)\s+dreams)\b|\b(?:make\s+sure\s+to\s+)?have\s+an?\s+(?:(?:really|very|super)\s+)?(?:safe|good|great|nice|fun|wonderful|lovely|amazing|awesome)\s+(?:trip|time|day|flight|journey|weekend|one|night|evening)\b/iu;
/** What the speaker thinks everyone should do, an opinion and no task: "I agree that we should fight for more funding". */
export const OPINION_OF_WHAT_WE_SHOULD_DO_RE =
  /\b(?:i|we)\s+(?:(?:totally|really|strongly|truly|also|just|do)\s+)*(?:agree|believe)\s+(?:that\s+)?(?:we|everyone|people)\s+(?:all\s+)?(?:should|must|need\s+to|have\s+to|ought\s+to|gotta)\b/iu;
/**
 * What the speaker would do or would have done, and did not: "I would get two turtles today if I
 * could!", "I would've loved to hear that music". Neither an event nor a fact. Not a habit of the
 * past ("I'd practice basketball for hours"), nor what had been ("I'd been wanting to try yoga").
 * Nor what the speaker would not want, the other side of a wish ({@link WISH_RE}: "I'd love to …"):
 * "I wouldn't want to be punished", "I'd hate to lose it" ("I don't want to …" says what they
 * want now; "I would never eat meat" says a habit; "I wouldn't want to live anywhere else" says
 * what the speaker has and loves).
 */
export const HYPOTHETICAL_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:['’]d|\\s+would)(?:\\s+(?:really|totally|definitely|so|just|also))*(?:\\s+have|['’]ve)\\s+(?:been|\\p{L}+(?:ed|en|wn|ne|ght|ung|ook|ot|ade|ad|id|one))\\b|^${LEAD}(?:i|we)(?:['’]d|\\s+would)\\s+(?!(?:love|like|be\\s+(?:happy|glad))\\b)[^.!?]*\\bif\\s+(?:i|we)\\s+(?:could|had|were|was|did)\\b|^${LEAD}(?:i|we)(?:\\s+would(?:n['’]?t|['’]t|\\s+not|\\s+never)|['’]d\\s+(?:not|never))\\s+(?:(?:really|ever|even|ever\\s+really)\\s+)?(?:want|wanna|like|wish|choose)\\b(?![^.!?]*\\b(?:(?:anywhere|anything|anyone|anybody|anyplace)\\s+else|any\\s+other\\s+way)\\b)|^${LEAD}(?:i|we)(?:['’]d|\\s+would)\\s+(?:really\\s+)?hate\\s+to\\b`,
  'iu',
);
/**
 * A clause with its "I" left out that opens news of its own: "Got some great news - …", "Got
 * some cool news to share", "Just wanted to tell you …". What follows is news, not more of what
 * the speaker said before it.
 */
export const OWN_NEWS_OPENER_RE = new RegExp(
  `^${LEAD}(?:(?:got|had|heard)\\s+(?:(?:some|a\\s+(?:bit|piece)\\s+of)\\s+)?(?:[\\p{L}-]+\\s+){0,2}?(?:news|updates?|announcements?)\\b|wanted\\s+to\\s+(?:tell|share|let|give|update)\\b)`,
  'iu',
);
/**
 * A clause that says it happened just now, in its first word: "Just got back from a trip with my
 * partner", "Recently started learning an instrument". A time of its own, as a date is.
 */
export const JUST_NOW_RE = /^(?:just|recently|lately)\b/iu;
/**
 * A remark whose subject names the thing it is about, first: "The hike was amazing", "Pottery is
 * so relaxing", "That new café looks great". Not a pronoun ("It was amazing", "That's great"),
 * nor life or things at large ("Life has been hectic", "Things are good", "A lot's happened").
 */
export const THING_NAMED_FIRST_RE = new RegExp(
  `^${LEAD}(?:(?:the|this|that|these|those|a|an)\\s+)?(?!(?:i|we|you|it|they|he|she|there|here|this|that|these|those|what|which|who|how|why|when|where|everything|nothing|something|anything|everyone|everybody|life|things|stuff|time|lot|lots|bit|few|couple|ton|tons|much|plenty|a|an|the|is|was|are|were|has|have|had|so|such|not|no)\\b)[\\p{L}'’-]+(?:\\s+[\\p{L}'’-]+){0,3}?(?:['’]s|\\s+(?:is|was|are|were|has|have|had|looks?|looked|feels?|felt|seems?|seemed|sounds?|sounded|makes?|made|brings?|brought|gives?|gave|keeps?|kept|helps?|helped))\\b`,
  'iu',
);
/**
 * A judgement said with its "it is" left out: "Definitely what I deserve after all this hard
 * work", "Exactly what I needed", "Totally worth it", "Definitely worth the wait!". What is judged,
 * the statement before says. Not "what I …" as the subject of a verb ("What I love most is the
 * people").
 */
export const IT_IS_LEFT_OUT_RE = new RegExp(
  `^${LEAD}(?:(?:definitely|totally|absolutely|truly|honestly|so|exactly|just|precisely|probably|still)[,\\s]+)*(?:what\\s+(?:i|we)\\s+(?:(?:really|truly|totally|always|so)\\s+)?(?:needed|need|deserve|deserved|wanted|want|hoped\\s+for|was\\s+(?:hoping|looking)\\s+for|were\\s+(?:hoping|looking)\\s+for|had\\s+in\\s+mind|love|loved)\\b|worth\\s+(?:it|every|the|all)\\b)(?![^.!?]*\\b(?:is|was|are|were)\\b)`,
  'iu',
);
/**
 * A favourite said of nothing the clause names: "Definitely one of my favorites!", "This one of
 * my faves.", "Also my all-time fave too". What it is, the statement before says ("Coconut milk
 * ice cream is one of my favorites" names it).
 */
export const FAVOURITE_OF_NOTHING_RE = new RegExp(
  `^${LEAD}(?:(?:definitely|probably|also|still|totally|easily|absolutely|honestly|really|maybe|hands\\s+down)[,\\s]+)*(?:(?:it|that|this)(?:['’]s|\\s+is|\\s+was)?\\s+)?(?:(?:definitely|probably|also|still|totally|easily|absolutely|really)\\s+)*(?:(?:one|two|three|some|a\\s+few|all)\\s+of\\s+)?my\\s+(?:all[- ]time\\s+|absolute\\s+|personal\\s+|new\\s+)?fav(?:ou?rite|e)?s?(?:\\s+too)?\\s*[!.…]*$`,
  'iu',
);
/**
 * What the speaker heard or read of the listener: "I heard you got a new job!", "I read that your
 * team won". About the listener, who said it in their own turn; not something of the speaker's.
 */
export const HEARD_OF_LISTENER_RE = new RegExp(
  `^${LEAD}(?:i|we)\\s+(?:(?:just|also|finally)\\s+)?(?:heard|hear|read|learned|learnt|found\\s+out)\\s+(?:that\\s+)?(?:you|your|ya|u)\\b`,
  'iu',
);
/**
 * "why" that makes the past verb after it the reason talked about, not what was done: "Gotta focus
 * on success and why I started", "Moments like this remind me why I got into music". Not "That's
 * why we went volunteering", which says it was done.
 */
export const WH_BEFORE_PAST_RE = /(?<!\b(?:that['’]s|that\s+is|this\s+is|which\s+is|it['’]s)\s+)\bwhy\s+$/iu;
// ── Formation: what the speaker values, looks forward to doing, and plans with a date (issue 28, coverage 3) ──

/**
 * What matters to the speaker, said of a thing or a person of theirs: "Friendship means a lot to
 * me", "Nature is so therapeutic for me", "Family's super important to me", "My family has been my
 * rock through everything". Not of a pronoun whose referent is said elsewhere ("They mean the world
 * to me"), nor of the listener's ("Your support means a lot to me": thanks), nor what only suits
 * ("Saturday works for me"). Read with the clause's subject (no one, or someone the clause names).
 */
/**
 * A subject of up to four words that names something, then its verb "is", "means" or "matters":
 * "Dance is", "Friendship means", "Family's", "My family has been". Not a pronoun whose referent is
 * said elsewhere ("It's", "They are"), nor "everything", "something", "all".
 */
const NAMED_SUBJECT_IS = `(?!(?:it|its|it['’]s|this|that|that['’]s|these|those|they|he|she|there|which|what|everything|nothing|something|anything|all)\\b)(?:[\\p{L}'’-]+\\s+){0,3}[\\p{L}'’-]+?(?:\\s+(?:is|are|was|has\\s+been|have\\s+been|means|mean|matters|matter)|['’]s)\\s+`;
export const MATTERS_TO_SPEAKER_RE = new RegExp(
  `^${LEAD}${NAMED_SUBJECT_IS}` +
    `(?:(?:(?:so|really|super|very|truly|always|just|such|also|still|definitely|incredibly|pretty|extremely|a|an)\\s+)*(?:(?:important|special|precious|dear|therapeutic|healing|meaningful|a\\s+blessing|a\\s+lifeline|a\\s+lot|so\\s+much|the\\s+world|everything|there)\\s+(?:to|for)\\s+me\\b|(?:(?:always|really|truly)\\s+)?my\\s+(?:rock|everything|world|motivation|inspiration|escape|happy\\s+place|safe\\s+place|therapy|passion|lifeline)\\b))`,
  'iu',
);
/**
 * Looking forward to doing something named: "I'm so excited to learn about Japanese culture",
 * "I'm thrilled to make a family for kids who need one", "I hope to build my own family and put a
 * roof over kids who haven't had that before", "I'm looking forward to exploring the city". Group 1:
 * the verb; group 2: what follows it. Read with
 * {@link NOT_AN_AIM_RE}: to see, hear or get started ("I'm excited to see what the future holds")
 * is a feeling about what is ahead, not what the speaker means to do.
 */
export const EAGER_TO_DO_RE = new RegExp(
  `^${LEAD}(?:(?:i['’]m|i\\s+am|i\\s+was|we['’]re|we\\s+are|we\\s+were)\\s+(?:(?:so|really|super|very|truly|also|just|always|still|totally)\\s+)*(?:excited|thrilled|stoked|pumped|eager|keen)|(?:i|we)\\s+(?:(?:really|still|also)\\s+)*hope|(?:(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+)?(?:(?:so|really|also|super|very|truly|definitely|just)\\s+)*looking\\s+forward(?=\\s+to\\s+\\p{L}+ing\\b))\\s+to\\s+([\\p{L}'’-]+)\\s+(.+)$`,
  'iu',
);
/**
 * What looking forward to doing names that is no aim of the speaker's: seeing, hearing, getting
 * started, being, catching up; a pronoun or the listener whose referent is said elsewhere ("… to
 * give it a try", "… to hear how you …"); a vague good ("… to work hard and make a positive
 * impact", "… to start this new chapter", "… to try new things").
 */
export const NOT_AN_AIM_RE =
  /^(?:see|hear|get|be|catch|experience|find\s+out|know|watch\s+(?:it|them|you))\b|\b(?:it|this|them|those|these|him|her|one|there|you|your|everything|memories|moments|journey|chapter|stuff|things|adventures?|fun|blast|more)\b|\b(?:make|making)\s+(?:a|an|some)\s+(?:[\p{L}-]+\s+)?(?:difference|impact|change)\b|\bwork(?:ing)?\s+hard\b/iu;
/**
 * A plan said with the listener and its date ahead: "Let's get everything ready and paint next
 * Saturday", "Can't wait to paint with you next Saturday". Group 1: "let's", when it says so; group 2: what is planned. Read with a
 * future date in the clause and {@link NOT_A_PLAN_RE}: "Let's make tomorrow unforgettable",
 * "Let's do it next month" and "Let's plan for next month" name nothing planned.
 */
export const DATED_PLAN_RE = new RegExp(
  `^${LEAD}(?:(let['’\`]?s)|(?:(?:i|we)\\s+)?(?:(?:really|just|so)\\s+)*(?:can['’]?t|cannot)\\s+wait\\s+to)\\s+(?!(?:plan|get\\s+planning|start\\s+planning)\\b)(.+)$`,
  'iu',
);
/** Where the listener takes part in a plan rather than being its subject: "… with you", "… together". */
export const WITH_LISTENER_RE = /\b(?:with\s+(?:you|ya|u)|together)\b/giu;
/**
 * A wish of the speaker for their own life, with what they wish to do named: "I really wish I
 * could go on a road trip with a furry companion". Group 1: what they wish to do. Read with
 * {@link NOT_A_PLAN_RE}: "I wish I could do that more often" names nothing.
 */
export const WISHES_TO_DO_RE = new RegExp(
  `^${LEAD}(?:i|we)\\s+(?:(?:really|just|sometimes|truly|so)\\s+)*wish\\s+(?:i|we)\\s+could\\s+(.+)$`,
  'iu',
);
/** What a plan with the listener names that is nothing planned: a pronoun said of elsewhere, a good time ("… make some memories tomorrow", "… do it next month"). */
export const NOT_PLANNED_RE =
  /\b(?:it|that|this|them|those|these|him|her|memories|moments|fun|blast)\b|^(?:make|do|have|keep|enjoy|celebrate|live)\b/iu;
/** A title in quotes or a capitalised name in what a clause names ("… this new show called "The Wheel of Time""): "this" is then said of it. Case-sensitive. */
export const TITLE_OR_NAME_RE = /["“][^"”]{2,}["”]|(?<=\s)\p{Lu}\p{Ll}+/u;
/** A picture named in what a clause says ("… places like the one in the photo below"): what it is, the picture shows. */
export const SHOWN_RE = /\b(?:photo|pic|picture|image|shot)s?\b/iu;
/**
 * A dream, goal or joy of the speaker's, said with an "it" that stands for the phrase after it:
 * "It's been a dream to adopt and provide a safe, loving home for kids", "It's been my dream to
 * have a space for creating music", "It brings me joy to spread that feeling". Group 1: the verb;
 * group 2: what follows it (read with {@link NOT_AN_AIM_RE}).
 */
export const DREAM_TO_DO_RE = new RegExp(
  `^${LEAD}(?:it(?:['’]s|\\s+is|\\s+has|\\s+was)?\\s+(?:(?:been|always|really|truly|just|also)\\s+)*(?:a|my|our)\\s+(?:(?:lifelong|long-time|longtime|big|huge|childhood)\\s+)?(?:dream|goal|passion|mission)|it\\s+(?:(?:really|always|truly|just|also)\\s+)*(?:brings|gives)\\s+me\\s+(?:(?:so\\s+much|such|great|real|a\\s+lot\\s+of)\\s+)?(?:${GOOD_FEELING_NOUN}))\\s+to\\s+([\\p{L}'’-]+)\\s+(.+)$`,
  'iu',
);
/**
 * A liking said to last: "I will always love reading", "I'll forever enjoy hiking". Not of a
 * pronoun or the listener ("I'll always love you", "I'll always love it"). Case-insensitive.
 */
export const LASTING_LIKING_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:\\s+will|['’]ll)\\s+(?:always|forever)\\s+(?:love|enjoy|like|adore|treasure)\\s+(?!(?:it|them|this|that|these|those|you|your|him|her|us)\\b)\\p{L}`,
  'iu',
);
/**
 * Someone of the speaker's introduced by name, with what says they are a person or a pet: "That
 * one is Max, my childhood dog", "This is Max – he's so lovable", "Here's Toby at his favorite
 * spot". Group 1: the name. Case-sensitive: the name is capitalised ("This is Boston" says nothing
 * of whom it is, and stays out).
 */
export const INTRODUCING_NAMED_RE =
  /^(?:\p{L}+[,!]\s+)*(?:[Tt]his|[Tt]hat|[Hh]ere)(?:\s+(?:one|guy|girl|boy|pup|little\s+(?:one|guy|girl)))?(?:\s+is|['’]s)\s+(\p{Lu}\p{Ll}+)(?:,\s+my\s+\p{L}|\s*[-–—]+\s*(?:he|she)\b|\s+(?:at|in|on|with)\s+(?:his|her)\b)/u;
/**
 * What the speaker is doing now, said of what a picture shows: "… the car I'm restoring", "… how
 * I'm making a beat for a young artist". Not what only looks or shows ("… I'm looking at", "… I'm showing
 * you"), nor "what I've been working on", which names nothing the picture does not.
 */
export const DOING_NOW_RE =
  /(?<!\bwhat\s+)\b(?:i['’]m|i\s+am|i['’]ve\s+been|i\s+have\s+been|we['’]re|we\s+are)\s+(?:(?:currently|still|now|also)\s+)?(?!(?:looking\s+at|showing|sharing|talking|going|gonna|getting\s+at|trying\s+to\s+say)\b)\p{L}{3,}ing\b/iu;

/**
 * The occasion a picture is from, said as what the speaker did then: "… a shot I got when I
 * volunteered", "… a pic from when I was dancing", "… at how we freestyled when we were
 * teenagers", "… this photo showcasing how wonderfully we spent our time". Not what the speaker
 * does now ({@link DOING_NOW_RE}) nor what the listener did ("… from when you visited").
 */
export const OCCASION_OF_SPEAKER_RE = new RegExp(
  `\\b(?:when|while|how(?:\\s+\\p{L}+ly)?)\\s+(?:i|we)\\s+(?:(?:was|were)\\s+\\p{L}{2,}ing|(?:just\\s+|first\\s+|all\\s+)?(?:${PAST_VERB}))\\b`,
  'iu',
);

// ── Formation: chores, things brought along, maxims (issue 28, precision, round 6) ──

/**
 * What one leaves to do that is a chore with nothing named: "I'm off to go do some research", "…
 * to do the laundry". Read after {@link OFF_TO_RE}, like {@link LEAVING_ONLY_RE} ("I'm off to
 * research adoption agencies" names what).
 */
export const LEAVING_FOR_A_CHORE_RE =
  /^(?:go\s+)?(?:do|get|finish)\s+(?:some\s+|my\s+|the\s+)?(?:research|homework|chores|cleaning|laundry|shopping|grocery\s+shopping|groceries|stuff|things|prep|paperwork|dishes|studying|reading)\b(?:\s+(?:now|soon|then))?\s*[.!…]*$/iu;
/**
 * Something brought along, the only thing said: "I'm going to bring some snacks", "I'll bring
 * drinks too". What the gathering is, and when, the turn says; alone it is nothing to keep.
 */
export const BRINGING_ALONG_RE = new RegExp(
  `^${LEAD}(?:i['’]ll|i\\s+will|i\\s+can|i['’]m\\s+(?:gonna|going\\s+to)|i\\s+am\\s+going\\s+to|we['’]ll|we\\s+will|we\\s+can)\\s+(?:(?:just|also|definitely|totally|happily|gladly)\\s+)*bring\\s+(?:(?:some|a\\s+few|the|a|an|my|extra)\\s+)?(?:[\\p{L}-]+\\s+)?(?:snacks?|drinks?|chips|desserts?|food|treats?|beers?|wine|cookies|water|sandwiches|blankets?|chairs?|napkins|cups|plates|ice)(?:\\s+(?:too|as\\s+well|along|with\\s+me))?[\\s!.…]*$`,
  'iu',
);
/**
 * A maxim of what everyone should do: "We gotta look after our health", "We have to cherish the
 * little things", "We should stick together", "should" typed in haste too ("We shold really
 * appreciate the small things in life"). Not a chore of the speaker's household ("We need to
 * fix our roof") nor one of theirs ("We have to take care of my mom": {@link SINGULAR_SPEAKER_RE}).
 */
export const MAXIM_RE = new RegExp(
  `^${LEAD}(?:we|you)\\s+(?:all\\s+)?(?:gotta|got\\s+to|have\\s+to|need\\s+to|must|sh(?:ou|o|u|uo)ld|shoud|ought\\s+to)\\s+(?:(?:always|just|really|all|also)\\s+)*(?:look\\s+after\\s+(?:our|ourselves|each\\s+other|one\\s+another|your|yourself)|take\\s+care\\s+of\\s+(?:ourselves|each\\s+other|one\\s+another|yourself|our\\s+(?:health|bodies|minds|mental\\s+health))|appreciate|cherish|treasure|stick\\s+together|support\\s+each\\s+other|believe\\s+in\\s+(?:ourselves|yourself)|be\\s+(?:kind|grateful|thankful|patient|gentle)|stay\\s+(?:positive|strong|hopeful)|keep\\s+(?:going|pushing|our\\s+heads?\\s+up)|never\\s+give\\s+up|live\\s+(?:life|in\\s+the\\s+moment))\\b`,
  'iu',
);
/**
 * A participle that describes the subject, not a verb with the "I" left out: "Roasted chicken is
 * one of my favorites", "Mixed emotions are rough", "Baked goods were a hit". Read against
 * {@link IMPLIED_SPEAKER_RE} and {@link IMPLIED_SPEAKER_PAST_RE} ("Roasted marshmallows with the
 * kids" is the speaker's; "Started a new job, which is great" has a determiner after the verb).
 */
export const PARTICIPLE_SUBJECT_RE =
  /^(?:(?:so|and|but|yeah|oh|well)[,\s]+)*\p{L}+ed\s+(?!(?:a|an|the|my|our|his|her|their|some|this|that|these|those|it|them|me|us|him|you|i|we|they|he|she|both|all|everyone|everybody|to|up|out|in|on|at|for|with|by|from|into|over|off|back|down|so|really|just)\b)\p{L}+(?:\s+(?!(?:a|an|the|my|our|to|at|in|on|for|with)\b)\p{L}+)?\s+(?:is|are|was|were|has|have)\b/iu;
/**
 * Advice put as what the speaker would do in the listener's place: "I'd put a GPS sensor on your
 * keys!", "If I were you, I'd take the job". Not a wish or a liking ("I'd love to see your
 * paintings", "I'd like your recipe") nor what the speaker has done ("I'd been …").
 */
export const ADVICE_AS_IF_RE = new RegExp(
  `^${LEAD}if\\s+i\\s+were\\s+you\\b|^${LEAD}i(?:['’]d|\\s+would)\\s+(?:(?:definitely|probably|totally|just|also|maybe|honestly|personally|really|so|truly|greatly|much\\s+rather)\\s+)*(?!(?:love|like|be|been|have|never|rather|prefer|say|guess|imagine|think|bet|appreciate|hate|definitely|probably|totally|just|also|maybe|honestly|personally|really|so|truly|greatly|much)\\b)\\p{L}+\\b[^.!?]*\\b(?:you|your|yours|ya)\\b`,
  'iu',
);
/**
 * Faith in the listener said: "I have faith in you!", "I believe in you", "I'm rooting for you".
 * The listener cheered on, not what the speaker does.
 */
export const FAITH_IN_LISTENER_RE =
  /\b(?:i|we)(?:\s+(?:totally|really|truly|always|still|just|all|do))*(?:(?:\s+have\s+(?:(?:full|total|complete|so\s+much|every|great)\s+)?faith\s+in|\s+believe\s+in|['’]m\s+rooting\s+for|\s+am\s+rooting\s+for|['’]re\s+rooting\s+for)\s+(?:you|ya)|(?:['’]ve\s+got|\s+got)\s+your\s+back)\b[\s!.…]*$/iu;
/**
 * What the speaker noticed of the listener: "I noticed a spiderman pin on your purse", "I noticed
 * you've been running a lot". About the listener, as {@link HEARD_OF_LISTENER_RE}; not "I saw your
 * painting at the gallery", where the speaker went.
 */
export const NOTICED_OF_LISTENER_RE = new RegExp(
  `^${LEAD}(?:(?:last\\s+time|when)\\s+[^,]{0,40},\\s+)?(?:i|we)\\s+(?:(?:just|also|couldn['’]t\\s+help\\s+but|have|['’]ve|did)\\s+)*(?:noticed|notice|spotted)\\s+(?:that\\s+)?(?:(?:you|your|ya|u)\\b|[^.!?,;]{0,40}\\b(?:on|in|at|with)\\s+your\\b)`,
  'iu',
);
/**
 * A question or a request to the listener, said as a statement (typed without its "?", or asked
 * politely): "I was wondering if you have any tips for …", "just wondering whether you …", "I'm
 * curious, what does your day look like", "any advice on that", "got any tips for marketing",
 * "let me know if you have any ideas". What it asks for is the listener's to give; not "I wonder if
 * my sister will like it", "I'm curious to see the trail", "any time I go hiking …".
 */
export const ASKS_THE_LISTENER_RE = new RegExp(
  `^${LEAD}(?:` +
    [
      "(?:i\\s+(?:was|am|['’]m)\\s+(?:just\\s+|also\\s+|really\\s+)*wondering|i\\s+wonder(?:ed)?|(?:just\\s+)?wondering)\\s+(?:if|whether)\\s+(?:you|u|ya|anyone|anybody)\\b",
      "(?:i['’]?m\\s+|i\\s+am\\s+|just\\s+)?(?:(?:so|really|just)\\s+)?curious\\s*[,:;–—-]+\\s*(?:what|how|where|when|why|who|which|do|does|did|have|has|are|is|was|were|can|could|would|any)\\b",
      '(?:(?:have\\s+)?(?:you|u|ya)\\s+)?(?:got|have)\\s+any\\s+(?:(?:more|other|good|great)\\s+)?(?:tips|tricks|advice|ideas|suggestions|recommendations|recs|pointers)\\b',
      'any\\s+(?:(?:more|other|good|great)\\s+)?(?:tips|tricks|advice|ideas|suggestions|recommendations|recs|pointers)\\b',
      '(?:please\\s+)?let\\s+me\\s+know\\s+if\\s+(?:you|u|ya)\\s+(?:have|know|hear\\s+of|find|see)\\s+(?:any|a|of)\\b',
    ].join('|') +
    ')',
  'iu',
);
// ── Formation: "they" for what the speaker named in their own turn before (issue 28, precision: fragments) ──

/**
 * A clause whose subject is "they", first in it after any interjection: "They absolutely adore
 * it!", "Yeah, they're all mutts". Not one that only agrees ("They really do, bringing …"). Group
 * 1: the pronoun as said. Case-insensitive.
 */
export const THEY_SUBJECT_RE =
  /^(?:(?:yeah|yes|yep|oh|aw+|haha|well|thanks|ha)[,!.]?\s+)*(they)(?=\s|['’](?:re|ve|ll|d)\b)(?!\s+(?:(?:really|sure|definitely|totally|certainly|truly|so)\s+)?(?:do|did|are|were|have|had|will|can)\b\s*(?:[,.!…]|$))/iu;
/**
 * "She", "he" as the subject first in a clause ("She's vegetarian", "and he got a new job"), and
 * which: what it stands for is the person the statement before it was about. Regex, case-insensitive.
 */
export const HE_OR_SHE_SUBJECT_RE = /^(?:(?:and|but|so|now|also|plus)\s+)?(he|she)(?=\s|['’](?:s|d|ll)\b)/iu;
/** Relations that are "she" or "he" (the rest, and names, may be either). */
export const SHE_RELATIONS = new Set('sister mom wife daughter girlfriend grandma aunt niece fiancée'.split(' '));
export const HE_RELATIONS = new Set('brother dad husband son boyfriend grandpa uncle nephew fiancé'.split(' '));
/** Something in the plural that is someone's: "fur kids", "two boys", "dogs"; not what ends in -ss, -us, -is or -as. */
const PLURAL_OWNED = `(?:(?:own|little|two|three|four|five|fur|furry|new|old|best|sweet|lovely|amazing|wonderful|[\\p{L}-]+y)\\s+)?[\\p{L}-]+(?<![suia'’])s\\b`;
/**
 * Something of the speaker's, in the plural, that a "they" in their next turn may stand for: "my
 * dogs", "my fur kids", "our two boys". Not what ends in -ss, -us, -is or -as ("my class", "my bus", "this", "has"),
 * nor what is no one's company ("my thoughts", "my goals": {@link NOT_A_REFERENT_OF_THEY_RE}).
 * Every match, case-insensitive.
 */
export const OWN_PLURAL_RE = new RegExp(`\\b(?:my|our)\\s+${PLURAL_OWNED}`, 'giu');
/**
 * The listener's own, in the plural, named in the other speaker's turn: "your pets", "your two
 * boys" ({@link OWN_PLURAL_RE}'s words). Said to the speaker, they are the speaker's: "It's great
 * that you care so much about your pets!" → "They are the source of my joy". Group 1: what,
 * without "your". Every match, case-insensitive.
 */
export const LISTENERS_PLURAL_RE = new RegExp(`\\byour\\s+(${PLURAL_OWNED})`, 'giu');
/**
 * A word in the plural: "animals", "flowers", "students", "ideas"; not one that ends in -ss, -us, -is or
 * -as ("class", "bus", "Paris", "Texas"), nor a word in -s that is no plural ("thanks", "always", "lots", "his").
 */
const PLURAL_WORD =
  "\\b(?!(?:thanks|always|sometimes|perhaps|besides|towards|afterwards|nowadays|yes|guys|lots|tons|is|was|has|this|his|its|us)\\b)(?:\\p{L}{2,}(?<![suia'’])s|\\p{L}+eas)\\b";
/** What the speaker has in the plural that a "they" about a memory worth keeping does not stand for: feelings, thoughts, plans, times. */
export const NOT_A_REFERENT_OF_THEY_RE =
  /\b(?:thoughts|feelings|emotions|goals|dreams|plans|hopes|fears|worries|interests|passions|skills|days|weeks|months|years|weekends|nights|mornings|evenings|hands|eyes|fingers|words|things|efforts|thanks|regards|wishes|studies|priorities|values|tips|ideas|questions|photos|pics|pictures|shots|lessons|classes)\s*$/iu;
/**
 * What, said before a "they" in its own turn, may be what it stands for: something of the
 * speaker's ("My family has been there for me"), a word in the plural ("Animals are great!"), or
 * one of a kind that a sentence begins with ("A pet would be great for you! They bring …").
 * Not thanks, "always" or "lots". Case-insensitive.
 */
export const THEY_MAY_STAND_FOR_RE = new RegExp(
  `\\b(?:my|our)\\b|(?:^|[.!?]\\s+)(?:a|an|any|every)\\s+\\p{L}|${PLURAL_WORD}`,
  'iu',
);
/**
 * The word a reply points back with, at its start: its subject ("They really bring me joy", "Yes,
 * they bring me such joy", "It helped me a lot") or the speaker's object a few words on ("I love
 * them", "I took them for a hike"); not a "their" there ("I was impressed with their dedication"
 * says no more than the question it answers), nor a pronoun deep in a clause that names its own
 * ("The book said the trek was tough. But they made it"). Group 1 or 2: the word.
 * Case-insensitive.
 */
export const REPLY_PRONOUN_RE = new RegExp(
  `^(?:(?:yes|yep|yup|oh|aw+|haha|ha|sure|definitely|totally|absolutely|no|nope)[,!.]?\\s+)*${LEAD}` +
    `(?:(it|its|they|their|these|those)\\b|(?:i|we)(?:['’]\\p{L}+)?\\s+(?:[\\p{L}'’-]+\\s+){0,4}?(it|them|these|those)\\b)`,
  'iu',
);
/** Of {@link REPLY_PRONOUN_RE}'s words, those that stand for more than one: "they", "them", "their", "these", "those". */
export const PLURAL_PRONOUN_RE = /^(?:they|them|their|these|those)$/iu;
/**
 * What a remark or question names that a "they" or "them" in the reply quoted with it may stand
 * for: a word in the plural ("Those flowers look great!", "Are the students making progress?"), a
 * pronoun of the plural ("What kind are they?"), a group ("It's wonderful to have such a loving
 * family", "Did something happen with the company?"), or two joined by "and" ("my gf and
 * her sister", "dance and fashion"). Not a verb in -s after its subject ("She seems so happy", "It looks amazing"), nor a
 * remark with none of these ("Somewhere like this", "How long have you been prioritizing your
 * health?"): what the reply's "they" is, it does not say. Case-insensitive.
 */
export const PLURAL_NAMED_RE = new RegExp(
  `\\b(?:they|them|their|these|those|both|people|children|men|women|everyone|everybody|family|fam|team|company|group|band|crew|club|staff|community|couple|class|crowd|audience|organi[sz]ation|squad|pack|support\\s+system)\\b|` +
    `(?<!\\b(?:it|he|she|that|this|which|who|what|one|everyone|everything|something|nothing)\\s+(?:\\p{L}+ly\\s+)?)${PLURAL_WORD}|` +
    `\\p{L}{2,},?\\s+(?:and|&)\\s+(?:(?:a|an|the|my|your|his|her|our|their)\\s+)?\\p{L}{2,}`,
  'iu',
);
/**
 * Where what a picture's caption shows ends, and where it is or what it does begins: "a path | in
 * the woods", "a couple of wooden dolls | sitting on a table", "two dogs | that …". What is before
 * it is what the picture shows ("a path": one; "two dogs": more than one).
 */
export const CAPTION_HEAD_END_RE =
  /\s+(?:in|on|at|with|by|near|under|over|behind|beside|next\s+to|from|inside|outside|against|into|through|that|which|who|where|\p{L}{2,}ing)\b/iu;
/** "They", "them" or "their" anywhere: a turn that goes on talking of what was named before it. Case-insensitive. */
export const THEY_SAID_RE = /\b(?:they|them|their)\b/iu;
/** The listener's own, in words: "your words of encouragement", "your kind words". Every match, case-insensitive. */
export const YOURS_RE = /\byour\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+(?:\s+of\s+[\p{L}-]+)?/giu;

// ── Formation: kinds (issue 28, precision) ──

/** A step of one's life that happened at a time ("graduated", "studied"), as opposed to a state ("I'm married"). */
export const DATED_STEP_RE = /\b(?:i|we)\s+(?:just\s+|finally\s+|recently\s+)?(?:studied|graduated)\b/iu;

/** The speaker's liking of "it" or "them", and nothing more: "I love it!", "I really like them so much". */
export const LIKING_IT_RE =
  /^(?:(?:and|but|so|oh|yeah|honestly)[,\s]+)*i\s+(?:(?:really|just|absolutely|totally|also|do|simply)\s+)*(?:love|like|adore|enjoy)\s+(?:it|them|that|those)(?:\s+(?:so\s+much|a\s+lot|too|as\s+well))?[\s!.…]*$/iu;

/** A question whose verb needs an object it leaves out: "When do you start?", "When did you finish?", "When do you leave?". */
export const QUESTION_OBJECT_LEFT_OUT_RE =
  /\b(?:start|begin|finish|leave|launch|graduate|move|return|open)\s*[?？]+\s*$/iu;
/** A feeling for the listener, which names nothing: "I'm super stoked for you.", "So happy for you!". */
export const FEELING_FOR_LISTENER_RE =
  /^(?:(?:wow|oh|aw+)[,!\s]+)*(?:i['’]m\s+|i\s+am\s+)?(?:(?:so|super|really|very|truly)\s+)*(?:happy|stoked|excited|proud|thrilled|glad|pleased)\s+for\s+you\b/iu;
/** A request to tell more after a question, which asks nothing new: "Tell me all about it!", "Tell me more!", "Spill the beans!", "Let me know.". */
export const ASKING_TO_TELL_RE =
  /^(?:(?:so|and|please|oh|come\s+on)[,!\s]+)*(?:(?:tell|fill)\s+me\b|share\s+(?:it\s+)?with\s+me\b|spill\s+the\s+beans\b|let\s+me\s+know\b|do\s+tell\b)[^?？]*$/iu;
/** A short remark on what a question just asked about: "It looks like loads of fun!", "That sounds amazing!", "They're so cute!". */
export const REMARK_AFTER_QUESTION_RE =
  /^(?:(?:oh|wow|haha|lol)[,!\s]+)*(?:it|that|they|this)(?:['’](?:s|re))?\s+(?:(?:looks?|sounds?|seems?|must\s+be|is|are|was|were)\s+)?(?:(?:like|so|really|super|such)\s+)*(?:an?\s+)?(?:loads\s+of\s+|lots\s+of\s+|a\s+lot\s+of\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?\s*[!.…]*$/iu;

// ── Formation: short statements of the speaker's own (issue 28, coverage 5) ──

/**
 * A liking named as the speaker's own: "Dance is my passion", "Painting has always been my big
 * love", "Cooking is my thing", "Hiking's my jam". A liking, not only what matters to the speaker
 * ("Painting is my escape" stays a fact: {@link MATTERS_TO_SPEAKER_RE}). Not of a pronoun ("It's
 * my passion": what "it" is, is said elsewhere).
 */
export const NAMED_AS_MINE_RE = new RegExp(
  `^${LEAD}${NAMED_SUBJECT_IS}(?:(?:always|really|truly|definitely|still|also|kinda|just|totally|become)\\s+)*my\\s+(?:(?:true|real|biggest|greatest|big|first|one|new|main|favou?rite)\\s+)*(?:passion|love|obsession|jam|thing|hobby|go-to)\\b`,
  'iu',
);
/**
 * Game for something the clause names: "I'm down for a hike with you and your dogs", "I'm always
 * down to give movie recommendations", "I'm game to try surfing". Group 1: what. Not for what was
 * said before ("I'm down for it", "I'm down to try it": {@link WISH_RE}), nor a resolve ("I'm
 * game for the challenge"); "I'm up for trying new recipes" only says the speaker is willing.
 */
export const GAME_FOR_RE = new RegExp(
  `^${LEAD}(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+(?:(?:so|totally|always|definitely|really|all|def|also|still|usually|definitely)\\s+)*(?:game|down)\\s+(?:for|to)\\s+(?!(?:it|that|this|them|those|these|you|your|yours|anything|something|whatever|some|one|more|sure)\\b|(?:the|a|any|every)\\s+(?:\\p{L}+\\s+)?challenge)(\\p{L}.*)$`,
  'iu',
);
/**
 * Occupations, as a person says theirs ("I'm a nurse", "I'm a software engineer now"): what fills
 * the `works as` slot said with "I'm a …" (`SLOTS` in `statements.ts`), a job however briefly said.
 * Regex alternatives; the last word of the job.
 */
export const OCCUPATIONS =
  'teacher|nurse|doctor|physician|surgeon|dentist|pharmacist|therapist|psychologist|psychiatrist|counsel(?:l)?or|social\\s+worker|lawyer|attorney|paralegal|judge|accountant|banker|consultant|analyst|engineer|developer|programmer|designer|architect|scientist|researcher|professor|lecturer|librarian|writer|author|journalist|editor|photographer|painter|musician|singer|actor|actress|dancer|chef|cook|baker|barista|bartender|waiter|waitress|cashier|mechanic|electrician|plumber|carpenter|contractor|farmer|gardener|landscaper|driver|pilot|flight\\s+attendant|firefighter|police\\s+officer|cop|soldier|veterinarian|vet|paramedic|midwife|caregiver|nanny|intern|manager|entrepreneur|freelancer|realtor|receptionist|secretary|technician|coach|personal\\s+trainer|instructor|tutor|translator|interpreter|hairdresser|hairstylist|barber|tailor|clerk|janitor|housekeeper|pastor|priest|rabbi|imam|youtuber|streamer|podcaster|blogger|athlete|optometrist|radiologist|anesthesiologist|zookeeper|chemist|biologist|physicist|economist|mathematician|statistician|surveyor|welder|machinist|electrical\\s+engineer|nutritionist|dietitian|physiotherapist|physical\\s+therapist|speech\\s+therapist|social\\s+media\\s+manager|recruiter|marketer|salesman|saleswoman|salesperson|underwriter|auditor|bookkeeper|programmer|animator|illustrator|composer|producer|filmmaker|director|firefighter|ranger|lifeguard|librarian';
/**
 * Who the speaker is, said in few words ("I'm a nurse", "I'm a stay-at-home dad", "I'm a
 * student"): an occupation ({@link OCCUPATIONS}), a student or a parent.
 */
const A_ROLE = `(?:a|an)\\s+(?:[\\p{L}-]+\\s+){0,2}?(?:${OCCUPATIONS}|student|retiree|mom|mum|dad|mother|father|parent|grandma|grandpa|grandmother|grandfather)(?:\\s+(?:now|too|by\\s+trade|of\\s+(?:two|three|four|five|\\d+)))?`;
/**
 * Family or a pet the speaker has, said in few words: "I have a dog", "I've got two kids and a
 * cat", "We have 3 cats", "I have no siblings", "I don't have any pets" (part of
 * {@link LIFE_STEP_IN_FEW_WORDS_RE}); not "I have a question".
 */
const FAMILY_OR_PET =
  '(?:(?:little|big|older|younger|new|baby|twin)\\s+)?(?:sisters?|brothers?|siblings?|sons?|daughters?|kids?|child|children|bab(?:y|ies)|grandkids|grandchildren|step(?:son|daughter)s?|dogs?|cats?|pupp(?:y|ies)|kittens?|pets?|fish|birds?|parrots?|hamsters?|rabbits?|bunn(?:y|ies)|turtles?|tortoises?|snakes?|lizards?|horses?|guinea\\s+pigs?|husband|wife|partner|boyfriend|girlfriend|fianc[eé]e?)';
const HOW_MANY = '(?:a|an|one|two|three|four|five|six|\\d+)';
export const HAS_FAMILY_OR_PET = `(?:(?:have|own|['’]ve\\s+got|have\\s+got)\\s+(?:${HOW_MANY}|no)|(?:don['’]?t|do\\s+not)\\s+have\\s+any)\\s+${FAMILY_OR_PET}(?:\\s*(?:,|and|or)\\s+(?:${HOW_MANY}\\s+|any\\s+)?${FAMILY_OR_PET})*`;
/**
 * A step of the speaker's life said in few words: "I got married", "We got engaged!", "I got
 * promoted", "I got a puppy", "We had a baby", "I have twins". Not how a day went or a moment ("I
 * had a blast", "I got a minute", "I had a bad day", "I had a meeting", "I got a cold"), nor what was
 * said before ("I got it").
 * Regex, anchored, case-insensitive.
 */
export const LIFE_STEP_IN_FEW_WORDS_RE = new RegExp(
  `^${LEAD}(?:i|we)(?:\\s+|(?=['’](?:ve|m|re)\\s))(?:(?:just|finally|recently|also|officially|actually)\\s+)*(?:(?:got|get|(?:am|are|['’]m|['’]re)\\s+getting)\\s+(?:married|engaged|divorced|promoted|hired|fired|laid\\s+off|pregnant|accepted|published|certified|licensed|baptized|baptised)\\b|got\\s+the\\s+(?:job|position|role|promotion|offer|part|scholarship|internship|apartment|house|grant|contract|lead)\\b|have\\s+(?:twins|triplets)|${HAS_FAMILY_OR_PET}|(?:['’]re|are|['’]m|am)\\s+expecting(?:\\s+(?:a|our|my)\\s+(?:first\\s+|second\\s+|third\\s+)?(?:baby|child|kid|little\\s+one)|\\s+twins)?|(?:['’]m|am)\\s+(?:now\\s+|also\\s+|still\\s+)?${A_ROLE}|(?:have|['’]ve\\s+got)\\s+(?:${LASTING_CONDITIONS})|(?:got|had|adopted|welcomed)\\s+(?:twins|triplets|(?:a|an|our|my)\\s+(?:new\\s+|second\\s+|third\\s+|baby\\s+)?(?!(?:lot|few|bit|blast|great|good|nice|bad|rough|tough|long|busy|hard|fun|lovely|wonderful|terrible|awful|crazy|weird|question|feeling|chance|look|minute|second|moment|sec|break|rest|nap|laugh|ball|day|time|week|idea|dream|thought|point|clue|sense|go|try|shot|talk|chat|call|word|meeting|appointment|exam|test|class|shift|lesson|session|workout|drink|coffee|meal|snack|bite|beer|party|date|game|match|${PASSING_AILMENT})\\b)\\p{L}{3,}))(?=\\s*(?:[.!?…]|$))`,
  'iu',
);
/**
 * What the speaker has been busy with or busy doing, named: "I've been busy with my garden",
 * "I'm super busy with my music stuff", "Been busy renovating the kitchen", "Keeping busy with
 * pottery", "Busy with studies". Group 1: what. Not how busy only ("Been busy with work", "I'm
 * busy with everything", "Busy at work": {@link PASSING_STATE_RE}), nor busy with what was said
 * before ("busy with it").
 */
export const BUSY_DOING_RE = new RegExp(
  `^${LEAD}(?:(?:i['’]ve|i\\s+have|we['’]ve|we\\s+have)\\s+been\\s+|(?:i['’]m|i\\s+am|we['’]re|we\\s+are)\\s+|been\\s+)?(?:(?:keeping|kept)\\s+(?:myself\\s+|ourselves\\s+)?)?(?:(?:so|really|super|pretty|very|quite|crazy|extra|just|also|still|kinda|insanely)\\s+)*busy\\s+` +
    `(?:with\\s+(?!(?:work|life|stuff|things|everything|something|it|that|this|them|those|these|a\\s+lot|lots|you|your|school|my\\s+(?:job|work|life))\\b)|(?!(?:lately|recently|today|during|being|having|doing\\s+(?:stuff|things|nothing|everything|it|that)\\b))(?=\\p{L}{2,}ing\\b))(\\p{L}.*)$`,
  'iu',
);

/**
 * Chat shorthand for one word, and the word it stands for ("u" → "you", "bc" → "because", "w/" →
 * "with"): read as that word wherever it stands alone. Only spellings that are no other word;
 * "ur" is {@link UR_AS_YOU_ARE_BEFORE} or "your", "r" is "are" only beside "you".
 */
export const CHAT_SHORTHAND: Readonly<Record<string, string>> = Object.freeze({
  u: 'you',
  bc: 'because',
  'b/c': 'because',
  'w/': 'with',
  'w/o': 'without',
  b4: 'before',
  thx: 'thanks',
  pls: 'please',
  plz: 'please',
  bday: 'birthday',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  tho: 'though',
  thru: 'through',
  rly: 'really',
  ppl: 'people',
  abt: 'about',
  wknd: 'weekend',
  bf: 'boyfriend',
  gf: 'girlfriend',
  bff: 'best friend',
  sis: 'sister',
  bro: 'brother',
  hubby: 'husband',
  wifey: 'wife',
  idk: "I don't know",
  imo: 'in my opinion',
  rn: 'right now',
  yr: 'year',
  yrs: 'years',
});
/** What "ur" is "you're" before ("ur so kind", "ur the best"); before anything else it is "your" ("ur new haircut"). */
export const UR_AS_YOU_ARE_BEFORE =
  'so|such|the|a|an|welcome|right|not|gonna|going|doing|too|very|really|always|never|amazing|awesome|kidding|joking|lucky|crazy|sweet|kind|funny|lit|killing|still|already|just|gonna|literally|like|in|on|at|from|with';

/**
 * Contractions as they are typed without the apostrophe, and what they stand for; only
 * spellings that are no other English word ("were", "well", "ill", "id", "hell", "wed", "shell",
 * "its" and "lets" are left out; `ITS_AS_IT_IS_BEFORE` reads "its" where it can only be "it's").
 */
export const APOSTROPHE_LESS: Readonly<Record<string, string>> = Object.freeze({
  im: "I'm",
  ive: "I've",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  cant: "can't",
  couldnt: "couldn't",
  wouldnt: "wouldn't",
  shouldnt: "shouldn't",
  wont: "won't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  havent: "haven't",
  hasnt: "hasn't",
  hadnt: "hadn't",
  aint: "ain't",
  mustnt: "mustn't",
  thats: "that's",
  whats: "what's",
  hows: "how's",
  wheres: "where's",
  whos: "who's",
  theres: "there's",
  heres: "here's",
  shes: "she's",
  youre: "you're",
  youve: "you've",
  youll: "you'll",
  youd: "you'd",
  theyre: "they're",
  theyve: "they've",
  theyll: "they'll",
  theyd: "they'd",
  weve: "we've",
  itll: "it'll",
  thatll: "that'll",
  couldve: "could've",
  wouldve: "would've",
  shouldve: "should've",
  hes: "he's",
  howve: "how've",
  whatve: "what've",
  whered: "where'd",
  howd: "how'd",
  whyd: "why'd",
  lifes: "life's",
  everyones: "everyone's",
  somethings: "something's",
  todays: "today's",
  mightve: "might've",
  mustve: "must've",
  yall: "y'all",
  thatd: "that'd",
  itd: "it'd",
});
/**
 * Contractions typed without the apostrophe that are also other words ("lets", "ill", "id"): read
 * as the contraction only before the words listed ("lets go", "ill be there", "id love to"; never
 * "he lets me", "I feel ill"), as regex alternatives.
 */
export const APOSTROPHE_LESS_BEFORE: Readonly<Record<string, readonly [full: string, before: string]>> = Object.freeze({
  lets: [
    "let's",
    'go|do|get|make|see|try|meet|hang|catch|plan|talk|grab|keep|hope|just|not|start|have|play|find|eat|watch|chat|head|be|call|take|say|all',
  ],
  ill: [
    "I'll",
    'be|go|do|get|make|see|try|have|let|send|call|text|bring|take|check|tell|keep|need|probably|definitely|never|always|just|also|still|def|show|give|think|look|ask|stop|come|talk|start|pick|meet|sleep|miss|write|post|share|buy|use|wait|read',
  ],
  id: [
    "I'd",
    'love|like|say|rather|be|have|go|probably|never|definitely|need|want|think|guess|recommend|suggest|really|totally|been|gone|done|imagine|prefer',
  ],
});
/** Words after which "its" can only be "it's" ("its so cool", "its been a while"), never "its own" (regex alternatives). */
export const ITS_AS_IT_IS_BEFORE =
  'so|been|not|just|really|very|too|a|an|the|ok|okay|kinda|sorta|gonna|going|getting|always|never|still|also|actually|all|about|my|your|our|over|raining|snowing|like|such|quite|definitely|totally|almost|gotten';
/** Judgements after which "its" is "it's" when nothing follows in the clause ("its amazing!", not "its amazing world"). */
export const ITS_AS_IT_IS_JUDGED =
  'fine|great|nice|cool|good|bad|fun|funny|amazing|awesome|crazy|weird|true|late|early|hard|easy|beautiful|perfect|ok|okay|sad|scary|wild|insane|huge';

/**
 * Words that open a sentence, as typed with their capital in the middle of an unpunctuated run
 * ("Thanks Mel Your backing means a lot", "Great to hear from you Sounds like fun"): there the
 * capital is the only full stop. Closed-class words, interjections and the verbs chat sentences
 * start with, never names.
 */
export const SENTENCE_OPENERS: ReadonlySet<string> = new Set(
  (
    "it it's its this that that's these those there there's here here's we we're we've we'll we'd my our " +
    "the he he's she she's they they're they've you you're you've your but so and also anyway plus " +
    'yes yeah yep yup no nope oh wow haha lol thanks thank congrats congratulations what what’s ' +
    "what's how how's where where's when why who who's which do does did are is was were have has " +
    "can could would will should any anything hope let's gonna just sounds looks glad sorry good " +
    'great nice cool awesome hey hi hello ok okay well maybe not really definitely sure totally ' +
    "honestly actually btw speaking talk see take keep guess can't don't didn't doesn't isn't " +
    "wasn't aren't haven't won't love hopefully luckily thankfully sadly unfortunately yesterday " +
    'today tonight tomorrow last next lately recently everyone everything everywhere nothing something ' +
    'someone sometimes somehow then now still even only most some both each every many never always ' +
    'usually often mostly mainly especially seriously basically literally wish feel feels seems makes ' +
    'reminds means check here look had got went made took saw tried found loved felt spent bought ' +
    'visited started finished checked reminded phew woah whoa stay'
  ).split(/\s+/u),
);
/**
 * Words after which "I" goes on with the same sentence ("so I went", "the day I", "I think I
 * can", "something I love"): before any other word, an "I" in an unpunctuated run opens a new
 * sentence ("… last Friday I'm so excited").
 */
export const GOES_ON_BEFORE_I: ReadonlySet<string> = new Set(
  (
    'and but or nor so because cause cuz coz since as if when whenever while until till before after once ' +
    'am do does did was were have has had can could would will should shall may might must are is ' +
    'that than though although unless whether what where who whom which why how wherever whatever ' +
    'think thought know knew guess hope wish bet mean say said says feel felt believe realize realized ' +
    'realise realised hear heard suppose swear promise glad sure afraid sorry like then also even now ' +
    'maybe probably actually just really honestly literally basically definitely still yet only both ' +
    'either where seems looks sounds ' +
    'means tell told show showed see saw find found notice noticed wonder wondering ask asked asking curious ' +
    'knowing thinking hoping feeling realizing realising remember remembered forget forgot imagine imagined ' +
    'understand understood figured decided learned learnt plus however'
  ).split(/\s+/u),
);
/**
 * Words a relative clause follows with no "that" ("something I love", "the way I see it", "people
 * I know"): an "I" after one goes on with the sentence; a capitalised opener does not ("I just
 * like helping people Do you …").
 */
export const HEADS_A_RELATIVE: ReadonlySet<string> = new Set(
  'time times way everything something anything nothing all stuff things thing one ones place places person people someone somebody anyone everyone'.split(
    ' ',
  ),
);
/** Determiners: "the book I read" is one sentence (a relative clause), whatever the noun. */
export const DETERMINER_WORDS: ReadonlySet<string> = new Set(
  'the a an this that these those my your his her our their its some any every each another which what whose no'.split(
    ' ',
  ),
);
/**
 * Words that end a time phrase ("yesterday", "last Friday", "the other day", "two weeks ago"):
 * an "I" after one opens a new sentence even after a determiner ("I aced the exam yesterday I'm
 * so happy").
 */
export const TIME_PHRASE_END_RE = new RegExp(
  `^(?:yesterday|today|tonight|tomorrow|ago|lately|recently|earlier|later|${WEEKDAY_NAMES.join('|')}|weekend|morning|afternoon|evening|night|day|week|month|year|${MONTH_NAMES.join('|')})$`,
  'iu',
);
/**
 * The words of a time phrase before the word that ends it ("last week", "the other day", "a few
 * days ago", "two weeks ago"): where the phrase opens its clause ("but last week I had …", "so the
 * other day we went …"), the subject after it goes on; one bare word.
 */
export const TIME_PHRASE_WORD_RE =
  /^(?:last|this|next|past|the|other|a|few|couple|of|one|two|three|four|five|six|several|some|early|earlier|late|later|on|just)$/u;
/** Words after which a time phrase or a clause adverb opens the clause that follows ("but last week I …", "and luckily they …"); one bare word. */
export const JOINS_A_CLAUSE_RE = /^(?:and|but|or|so|then|plus)$/u;
/** Adverbs said of the clause that follows them ("and luckily they were understanding", "but sadly it rained"); one bare word. */
export const CLAUSE_ADVERB_WORD_RE =
  /^(?:luckily|thankfully|fortunately|unfortunately|sadly|hopefully|honestly|finally|eventually|suddenly|surprisingly|apparently|obviously|actually|basically|somehow|now|today|yesterday|recently|lately)$/u;
/**
 * Verbs that take an object, as the last word of a clause with its object left out: a relative
 * clause after a noun, typed with no "that" ("… some new snacks I've been trying", "… the recipe I
 * made"); one bare word.
 */
export const LEAVES_ITS_OBJECT_RE =
  /^(?:trying|tried|try|making|made|make|buying|bought|buy|getting|got|finding|found|using|used|reading|read|watching|watched|eating|ate|cooking|cooked|baking|baked|loving|love|loved|like|liked|recommended|recommend|mentioned|taking|took|seeing|seen|saw|playing|played|wearing|wore|building|built|want|wanted|need|needed|own|owned|picked|chose|planning|planned|collecting|collected|growing|grew|grown|writing|wrote|written|painting|painted|drawing|drew|knitting|knitted|sewing|sewed|learning|learned|learnt|practicing|practising|studying|studied|visiting|visited|visit|watch|eat|cook|bake|wear|build|collect|grow|write|paint|draw|learn|practice|study|doing|did|done|having|have|had|keeping|kept|listening|following|followed)$/u;
/**
 * Subordinators and the words a time phrase starts with: "When I was young I loved drawing",
 * "Last Friday I went to the show" are one sentence each (a clause or phrase before its comma).
 */
export const SUBORDINATOR_RE =
  /^(?:when|whenever|if|since|after|before|while|because|once|as|although|though|until|till|unless|last|this|next|yesterday|today|tonight|tomorrow|on|in|at|during|earlier|recently|lately|every|sometimes|usually|often)$/iu;
/** Laughter that ends what came before it ("that was so fun haha we should go again"). */
export const LAUGHTER_RE = /^(?:(?:ha){2,}h?|he(?:he)+|lol+|lmao+|rofl|xd+)$/iu;

/* Typed chat (`chat-text.ts`): the words that mark where a sentence starts in a run typed without full stops. */
/**
 * "tell you", "promised him", "turns out": what is told or found goes on after them ("Did I tell
 * you I adopted a puppy", "and turns out I'm really good"). Two bare words.
 */
export const TOLD_SOMEONE_RE =
  /^(?:(?:tell|told|telling|show|showed|shown|remind|reminded|promise|promised|warn|warned|bet|assure|assured|mention|mentioned|text|texted) (?:you|u|ya|her|him|them|us|everyone)|(?:turns|turned|found|finding|figured) out)$/u;
/** Interjections that open a sentence in a run typed without full stops ("… oh man, I miss it"); bare words, up to three. */
export const INTERJECTION_OPENS_RE =
  /^(?:oh|wow|yeah|yep|yup|btw|anyway|anyways|congrats|congratulations|omg|ugh|hmm+|aw+|thanks(?! to\b)|thank you|by the way|speaking of (?:which|that))\b/u;
/**
 * What opens a sentence typed with no subject, after a clause in a run with no full stop ("… so
 * much fun can't wait to go back", "… doing great keep it up", "… see you soon take care"); up to
 * three bare words; "enjoy" only as the run's last word ("… I added some sage enjoy").
 */
export const SUBJECTLESS_OPENS_RE =
  /^(?:keep (?:it up|up\b|going|on\b|me (?:posted|updated)|at it|in touch|pushing|shining|rocking)|take (?:care|a look|it easy)|can't wait|cannot wait|have (?:fun|a (?:great|good|nice|blast))|see (?:you|ya) (?:soon|later|then|there)|talk (?:to you )?(?:soon|later)|stay (?:safe|strong|positive|tuned)|enjoy$)/u;
/**
 * Who or what does what follows ("I'll keep you posted", "we can't wait", "will have fun", "let's
 * keep going", "it helps me stay positive"): no subjectless sentence starts after it; one bare word.
 */
export const SUBJECT_BEFORE_RE =
  /^(?:i|i'll|i'd|we|we'll|we'd|they|they'll|you|you'll|you'd|he|she|it|who|that|everyone|everybody|people|will|would|can|could|should|must|might|gonna|wanna|gotta|and|or|to|not|also|just|really|still|always|never|let's|let|lets|me|us|them|him|her|all|both|two|help|helps|make|makes|better)$/u;
/** Words in "-ing" that are no verb's form ("something", "morning", "spring"); bare words. */
export const NOT_A_GERUND: ReadonlySet<string> = new Set(
  (
    'thing something anything nothing everything morning evening spring king ring bring sing wing string ceiling during ' +
    // Said of something ("so rewarding", "amazing"), not done.
    'amazing rewarding interesting exciting inspiring relaxing refreshing challenging fulfilling satisfying thrilling ' +
    'boring charming stunning annoying calming soothing touching heartwarming encouraging motivating overwhelming ' +
    'promising surprising terrifying frustrating exhausting disappointing embarrassing fascinating welcoming ' +
    'uplifting humbling freeing liberating empowering comforting healing feeling'
  ).split(' '),
);
/** Words a verb's "-ing" form goes on after ("I love painting", "been running", "had a blast hiking"); bare words. */
export const TAKES_A_GERUND: ReadonlySet<string> = new Set(
  'am is are was were be been keep keeps kept love loved loves like liked likes enjoy enjoyed enjoys start started stop stopped finish finished miss missed try tried go goes went avoid consider imagine mind quit practice recommend spend spent time fun blast worth busy'.split(
    ' ',
  ),
);
/** What follows a subject that a verb's "-ing" form opens ("painting helps me", "fixing cars is like therapy"); one bare word. */
export const VERB_AFTER_GERUND_RE =
  /^(?:is|was|isn't|wasn't|has|can|could|will|would|makes|made|helps|helped|gives|gave|brings|brought|keeps|takes|took|means|feels|sounds|seems|must|relaxes|calms|reminds|really|always|sure)$/u;
/** A greeting or thanks that a name follows ("Thanks, Evan …", "Hey Sam …"); one bare word. */
export const GREETING_WORD_RE =
  /^(?:hey|hi|hello|thanks|thank|thx|yeah|yes|yep|wow|congrats|congratulations|sorry|cool|awesome|great|nice|oh|aw+|ha+|haha+)$/u;
/** Prepositions (and "visited", "left"): what follows is what they govern ("to Beijing", "on anything"); one bare word. */
export const PREPOSITION_WORD_RE =
  /^(?:to|in|at|from|near|into|of|for|by|via|through|throughout|during|around|on|about|with|without|over|under|across|between|among|towards?|visit|visited|visiting|left)$/u;
/** "a lot", "a bit", "a while": no noun a relative clause follows ("helped a lot I finally …"); one bare word. */
export const AMOUNT_WORD_RE = /^(?:lot|lots|bit|ton|tons|while)$/u;
/**
 * What follows "it" as the subject of a clause of its own, never of a relative clause after a noun
 * ("… by the lake it was so calming", "… my new job it helps me focus"; "the difference it made"
 * goes on); one bare word.
 */
export const IT_OPENS_BEFORE_RE =
  /^(?:was|wasn't|is|isn't|must|means|meant|helps|helped|feels|felt|looks|looked|sounds|sounded|seems|seemed|reminds|reminded|really|definitely|always|sure|totally)$/u;
/**
 * What follows "I" (or "I'm", "I've" …) as the subject of a clause of its own, never of a relative
 * clause after a noun ("… a big difference I agree", "… a new job I'm so happy"; "the book I
 * read" goes on); one bare word.
 */
export const I_OPENS_BEFORE_RE =
  /^(?:so|super|very|pretty|such|too|totally|definitely|absolutely|agree|think|hope|guess|bet|wish|believe|gotta)$/u;
/** What follows "you're" opening a sentence: what is said of the listener ("… nice work you're so talented"); one bare word. */
export const YOU_ARE_OPENS_BEFORE_RE =
  /^(?:so|super|very|pretty|such|too|totally|definitely|absolutely|right|awesome|amazing|incredible|the|a|an|welcome|killing|rocking|crushing)$/u;
/** "be" before a verb in "-ing" ("I'm enjoying", "we were running"); one bare word. */
export const BE_BEFORE_ING_RE = /^(?:am|is|are|was|were|be|been|i'm|we're|they're|you're|he's|she's|it's)$/u;
/** Determiners that open a noun phrase after a preposition ("the view from the top"); one bare word. */
export const OBJECT_OPENS_RE = /^(?:a|an|the|my|our|this|these|some|his|their|your)$/u;
/** Determiners that open a subject of a few words ("my mom", "the kids", "your support"): not "her" (an object too). Bare word. */
export const SUBJECT_DETERMINER_RE = /^(?:my|our|your|the|his|their)$/iu;
/**
 * What follows a subject of a few words ("my mom was", "the kids had", "your support means"), which
 * then opens a sentence in a run typed without full stops; one bare word.
 */
export const VERB_AFTER_NOUN_SUBJECT_RE =
  /^(?:is|was|are|were|isn't|wasn't|aren't|weren't|will|would|can|could|has|had|means|mean|meant|looks|looked|sounds|seems|seemed|makes|made|keeps|helps|helped|loves|loved|took|gave|must|might|should)$/u;
/** Adverbs between a subject and its verb ("my mom really loved it", "the kids just finished"); one bare word. */
export const ADVERB_BEFORE_VERB_RE =
  /^(?:really|totally|definitely|always|just|also|still|never|finally|even|actually)$/u;
/** Words after which a noun phrase goes on with what came before ("all my friends", "even the kids"); bare words. */
export const GOES_ON_BEFORE_NOUN: ReadonlySet<string> = new Set(
  'all both half such quite what just only even not every of'.split(' '),
);
/** Words no short subject holds between its determiner and its verb ("my mom and I", "the view from"); bare words. */
export const NOT_IN_A_NOUN_PHRASE: ReadonlySet<string> = new Set(
  'and or but to in at from of for by with on about into over i you we they he she it me him her us them that which who what how where when why this these those a an the my our your his their any'.split(
    ' ',
  ),
);
/**
 * What also follows "we", "they", "you", "he" or "she" opening a clause ("… for sure they always
 * look happy", "… we even went back"; not after "it": "watch it even more"); one bare word.
 */
export const VERB_AFTER_PERSON_RE =
  /^(?:must|always|even|never|sure|seem|seems|mean|means|remind|reminds|help|helps)$/u;
/** What follows a subject pronoun that opens a clause ("it was", "we had", "they just"); one bare word. */
export const VERB_AFTER_SUBJECT_RE =
  /^(?:was|were|is|are|had|has|have|went|got|made|took|did|love|loved|just|really|all|both|also|finally|can|could|will|would|should)$/u;
