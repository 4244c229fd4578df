import { analyze } from '../retrieval/text.js';
import { SAFETY_VOCABULARY } from './lexicon.js';

/**
 * The words questions ask formed memories with, and the words memories say the same thing with.
 * A question says "sibling", "partner", "occupation", "pet"; the memory says "my sister", "my
 * wife", "I work as", "our dog". Each entry: the words a question may use (`asks`) and the words
 * that answer for them in a memory (`means`). General English, deliberately small: a word belongs
 * here only when it names a *class* whose members people say instead (relations, pets) or when
 * the words are used interchangeably (job / work / occupation).
 */
export interface TermGroup {
  asks: readonly string[];
  means: readonly string[];
}

/** Common pastimes, as a person says they do them ("I paint", "I've been hiking"; stemmed alike). */
const HOBBIES: readonly string[] = (
  'play paint draw read write cook bake garden hike camp fish run swim cycle bike dance sing yoga ' +
  'photography knit sew pottery climb surf ski skate kayak game travel volunteer meditate guitar piano'
).split(' ');

export const TERM_GROUPS: readonly TermGroup[] = Object.freeze([
  { asks: ['sibling', 'siblings'], means: ['sister', 'brother', 'sisters', 'brothers', 'twin'] },
  {
    asks: ['partner', 'spouse'],
    means: ['wife', 'husband', 'girlfriend', 'boyfriend', 'fiance', 'fiancee', 'partner', 'spouse'],
  },
  { asks: ['wife', 'husband'], means: ['partner', 'spouse'] },
  { asks: ['parent', 'parents'], means: ['mother', 'father', 'mom', 'mum', 'dad'] },
  { asks: ['mother', 'mom', 'mum'], means: ['mother', 'mom', 'mum'] },
  { asks: ['father', 'dad'], means: ['father', 'dad'] },
  { asks: ['child', 'children', 'kid', 'kids'], means: ['son', 'daughter', 'sons', 'daughters', 'kid', 'child'] },
  { asks: ['grandparent', 'grandparents'], means: ['grandmother', 'grandfather', 'grandma', 'grandpa'] },
  {
    asks: ['job', 'work', 'occupation', 'profession', 'career', 'employer'],
    means: ['job', 'work', 'works', 'working', 'occupation', 'profession', 'career'],
  },
  {
    asks: ['pet', 'pets', 'animal', 'animals'],
    means: ['dog', 'cat', 'puppy', 'kitten', 'pet', 'hamster', 'rabbit', 'parrot'],
  },
  // Class words of questions about a person as a whole ("What books has X read?", "Which places
  // has X visited?"), whose answers name the members or what one does with them.
  { asks: ['book', 'books', 'novel', 'novels'], means: ['read', 'reading', 'novel', 'author'] },
  { asks: ['game', 'games'], means: ['play', 'played', 'playing'] },
  {
    asks: ['place', 'places', 'country', 'countries', 'city', 'cities'],
    means: ['visit', 'visited', 'trip', 'travel', 'traveled'],
  },
  {
    asks: ['family'],
    means: ['kids', 'son', 'daughter', 'wife', 'husband', 'mom', 'dad', 'parents', 'brother', 'sister'],
  },
  { asks: ['health'], means: ['doctor', 'diet', 'exercise', 'checkup'] },
  { asks: ['sport', 'sports'], means: ['play', 'played', 'team', 'match', 'game'] },
  {
    asks: ['instrument', 'instruments', 'music'],
    means: ['play', 'played', 'guitar', 'piano', 'violin', 'drums', 'song'],
  },
  { asks: ['food', 'foods', 'dish', 'dishes'], means: ['cook', 'cooked', 'recipe', 'ate', 'eat', 'bake', 'baked'] },
  { asks: ['event', 'events'], means: ['went', 'attended', 'festival', 'concert', 'party', 'conference'] },
  // A relationship status is said by naming the partner or the step ("my husband and I", "since the
  // wedding"), seldom by the words "married" or "relationship".
  {
    asks: ['relationship', 'relationships', 'married', 'marriage', 'dating'],
    means: [
      'husband',
      'wife',
      'girlfriend',
      'boyfriend',
      'partner',
      'fiance',
      'fiancee',
      'married',
      'wedding',
      'divorced',
      'dating',
      'single',
    ],
  },
  // What one does to unwind is said as the doing and how it feels ("yoga calms me", "I read to chill").
  {
    asks: ['relax', 'destress', 'unwind'],
    means: ['calm', 'chill', 'peace', 'peaceful', 'yoga', 'meditate', 'read', 'walk', 'music'],
  },
  // "Martial arts" are named by the art.
  { asks: ['martial'], means: ['karate', 'taekwondo', 'judo', 'kickboxing', 'boxing', 'jiu', 'kung'] },
  // What people answer "What are your hobbies?" with: the pastime itself ("I play guitar", "I went
  // climbing again"), never the word "hobby".
  {
    asks: [
      'hobby',
      'hobbies',
      'pastime',
      'pastimes',
      'activity',
      'activities',
      'leisure',
      'recreation',
      'recreational',
      'interests',
      'fun',
    ],
    means: HOBBIES,
  },
]);

/**
 * English verbs whose past forms the stemmer cannot join to the verb ("buy" / "bought"): each entry
 * is one verb's forms, any of which answers any other ("Where did she buy it?" ↔ "I bought it in
 * Paris."). Only verbs that say what was done: the light verbs (make, get, take, give, go, come,
 * say, tell, think, know, find, feel, keep, leave, become) say little on their own and, expanded,
 * let any turn that uses them compete with the question's own words.
 */
export const IRREGULAR_VERBS: readonly (readonly string[])[] = Object.freeze(
  (
    'buy bought|meet met|eat ate eaten|write wrote written|run ran|swim swam swum|sing sang sung|draw drew drawn|' +
    'ride rode ridden|drive drove driven|fly flew flown|teach taught|win won|lose lost|build built|bring brought|' +
    'begin began begun|choose chose chosen|break broke broken|fall fell fallen|grow grew grown|sell sold|send sent|' +
    'spend spent|catch caught|fight fought|sleep slept|wear wore worn|throw threw thrown|pay paid|hear heard'
  )
    .split('|')
    .map((v) => v.split(' ')),
);

/** What answers one question term: the words as written (for keyword search) and analysed. */
export interface Expansion {
  words: readonly string[];
  terms: ReadonlySet<string>;
  /**
   * The terms that cover the question term for the relevance gate: the class members, not the
   * other forms of an irregular verb. "Who wrote the Odyssey?" asks about the world; a memory that
   * says "writing" ranks for it, but must not show the store answers it by that word alone.
   */
  covering: ReadonlySet<string>;
}

/** Analysed question term → what answers it (merged over the groups that list it). */
const EXPANSIONS: ReadonlyMap<string, Expansion> = (() => {
  const out = new Map<string, { words: string[]; terms: Set<string>; covering: Set<string> }>();
  const verbs = IRREGULAR_VERBS.map((forms) => ({ asks: forms, means: forms, covers: false }));
  for (const g of [...TERM_GROUPS.map((t) => ({ ...t, covers: true })), ...verbs]) {
    for (const a of g.asks) {
      const asked = analyze(a);
      if (asked.length !== 1) continue;
      const key = asked[0]!;
      const e = out.get(key) ?? { words: [], terms: new Set<string>(), covering: new Set<string>() };
      for (const w of g.means) {
        const t = analyze(w);
        if (t.length !== 1 || t[0] === key) continue;
        if (g.covers) e.covering.add(t[0]!);
        if (e.terms.has(t[0]!)) continue;
        e.terms.add(t[0]!);
        e.words.push(w);
      }
      out.set(key, e);
    }
  }
  return out;
})();

/**
 * For each analysed query term that asks for a class, has interchangeable words or is one form of
 * an irregular verb, what answers it (`"sibl"` → sister, brother, …; `"bui"` → bought). Terms
 * without an entry are absent.
 */
export function expandTerms(terms: Iterable<string>): Map<string, Expansion> {
  const out = new Map<string, Expansion>();
  for (const t of terms) {
    const e = EXPANSIONS.get(t);
    if (e && e.terms.size > 0) out.set(t, e);
  }
  return out;
}

/**
 * Words of a question about what to eat, drink or take, or about one's health: with a first
 * person ("should I", "for us", "my"), such a question must see what the store knows of the
 * asker's allergies, conditions and dietary limits, whatever else it recalls.
 */
export const FOOD_HEALTH_WORDS: readonly string[] = Object.freeze(
  (
    'eat eating ate food foods snack snacks meal meals dinner lunch breakfast brunch supper cook cooking recipe recipes ' +
    'bake baking restaurant restaurants menu dish dishes dessert desserts drink drinks cocktail cocktails grocery groceries ' +
    'ingredient ingredients treat treats candy sweets cake takeout takeaway picnic feast barbecue bbq potluck ' +
    'medicine medicines medication medications pill pills drug drugs symptom symptoms health healthy sick ill illness ' +
    'doctor diet nutrition vitamin vitamins supplement supplements vaccine vaccination allergy allergies'
  ).split(' '),
);

/**
 * Words of the safety table (`SAFETY_*` in `lexicon.ts`): allergies, conditions, dietary limits
 * and the foods they rule out. A first-person food or health question ({@link FOOD_HEALTH_WORDS})
 * searches the store with them, and keeps what `SAFETY_TEXT_RE` reads as a safety fact.
 */
export const SAFETY_WORDS: readonly string[] = Object.freeze([...SAFETY_VOCABULARY]);

export const FOOD_HEALTH_TERMS: ReadonlySet<string> = new Set(FOOD_HEALTH_WORDS.flatMap((w) => analyze(w)));
