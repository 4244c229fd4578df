import { tokenize } from '../retrieval/text.js';

/**
 * Person names across spelling variants. A question often spells a person differently from the
 * memories about them: a transliteration ("Mohammed" for a speaker labelled "Muhammad"), a dropped
 * or doubled letter ("Katarina" / "Katrina", "Ana" / "Anna"), a one-letter typo ("Carolien"), a
 * nickname ("Bob" for "Robert"). {@link sameName} decides whether two spellings are one name;
 * {@link resolveName} picks, from the names a store knows, those a query's name stands for.
 *
 * False merges cost more than misses (a memory about Mark answering a question about Mary), so
 * every rule is narrow: variants are only looked for when the store does not know the name as
 * written, the first letter must agree (after c/k and ph/f), short names only match exactly,
 * by a doubled letter or by a nickname, and when several known names qualify only the closest is
 * taken (none when they tie at different spellings).
 */

/**
 * Nickname groups: each line is one name and its common short forms. English usage; a name may sit
 * in two groups ("sam": Samuel, Samantha) without those two becoming one.
 */
const NICKNAME_GROUPS: readonly (readonly string[])[] = [
  'robert rob robbie bob bobby bert',
  'william will willy bill billy liam',
  'elizabeth liz lizzie beth betty eliza elise',
  'katherine catherine kathryn katharine kate katie kat cathy kathy',
  'michael mike mikey mick',
  'james jim jimmy jamie',
  'john johnny jack',
  'jonathan jon jonny',
  'alexander alex xander',
  'alexandra alex lexi sandra',
  'daniel dan danny',
  'david dave davey',
  'joseph joe joey',
  'thomas tom tommy',
  'richard rick ricky rich richie dick',
  'margaret maggie meg peggy',
  'deborah debora debbie deb debra',
  'samuel sam sammy',
  'samantha sam sammy',
  'christopher chris topher',
  'christine christina chris tina',
  'nicholas nick nicky',
  'anthony tony',
  'andrew andy drew',
  'benjamin ben benny',
  'matthew matt',
  'edward ed eddie ted ned',
  'charles charlie chuck',
  'jennifer jen jenny',
  'jessica jess jessie',
  'patricia pat patty trish',
  'susan sue suzy',
  'rebecca becky becca',
  'steven stephen steve',
  'timothy tim timmy',
  'gregory greg',
  'peter pete',
  'nathan nathaniel nate',
  'joshua josh',
  'victoria vicky tori',
  'abigail abby',
  'gabriel gabe',
  'zachary zach zack',
  'melanie mel',
  'caroline carol carrie',
  'joanna joanne jo',
  'frederick fred freddie',
  'lawrence larry',
  'leonard leo len lenny',
  'kenneth ken kenny',
  'ronald ron ronnie',
  'donald don donnie',
  'raymond ray',
  'francis frank frankie',
  'harold harry hal',
  'henry harry hank',
  'theodore theo ted teddy',
  'eleanor ellie nora',
  'dorothy dot dottie',
  'josephine josie',
  'barbara barb babs',
  'pamela pam',
  'kimberly kim',
  'stephanie steph',
  'natalie nat',
  'madeline maddie',
  'valentina vale',
  'aleksandr sasha',
  'ekaterina katya',
  'mikhail misha',
  'dmitri dima',
  'yevgeny zhenya',
  'ivan vanya',
].map((line) => Object.freeze(line.split(' ')));

const GROUPS_OF = new Map<string, number[]>();
NICKNAME_GROUPS.forEach((group, i) => {
  for (const n of group) GROUPS_OF.set(n, [...(GROUPS_OF.get(n) ?? []), i]);
});

/** A name as compared: lowercased, diacritics folded, one word (`"Zoë"` → `"zoe"`). */
export function foldName(name: string): string {
  return tokenize(name).join('');
}

/** `s` with runs of one letter collapsed ("anna" → "ana", "mohammed" → "mohamed"). */
function undouble(s: string): string {
  return s.replace(/(.)\1+/g, '$1');
}

/** The first letter as sounded: c/k/q one, ph/f one. */
function initial(s: string): string {
  if (s.startsWith('ph')) return 'f';
  const c = s[0] ?? '';
  return c === 'c' || c === 'q' ? 'k' : c;
}

/**
 * The consonant skeleton that transliterations of one name share: doubled letters collapsed,
 * c/q as k, ph as f, a final h dropped, vowels (and y) out after the first letter
 * ("muhammad", "mohammed", "mohamed" → "mhmd"; "katarina", "catarina", "katrina" → "ktrn").
 */
function skeleton(s: string): string {
  const t = undouble(s.replace(/ph/g, 'f').replace(/[cq]/g, 'k').replace(/h$/, ''));
  return initial(t) + t.slice(1).replace(/[aeiouy]/g, '');
}

/** Optimal-string-alignment distance (Damerau: an adjacent swap is one edit), bounded by `max`. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const m = a.length;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[n]!;
}

/**
 * How far apart two spellings of a name are, or `undefined` when they are not one name: 0 for the
 * same folded name; 1 for a doubled letter or a nickname; otherwise, for a transliteration (same
 * consonant skeleton of at least three consonants), its edit distance once doubled letters are
 * collapsed, at most 2; for a one-edit typo of a name of at least six letters (five for an
 * adjacent swap or a dropped letter), 1. The first sounded letter must agree except between a
 * nickname and its name.
 */
export function nameDistance(a: string, b: string): number | undefined {
  return foldedDistance(foldName(a), foldName(b));
}

/** {@link nameDistance} of two names already folded. */
function foldedDistance(x: string, y: string): number | undefined {
  if (x.length === 0 || y.length === 0) return undefined;
  if (x === y) return 0;
  const groups = GROUPS_OF.get(x);
  if (groups && GROUPS_OF.get(y)?.some((g) => groups.includes(g))) return 1;
  if (x.length < 3 || y.length < 3 || initial(x) !== initial(y)) return undefined;
  const ux = undouble(x);
  const uy = undouble(y);
  if (ux === uy) return 1;
  const sk = skeleton(x);
  if (sk.length >= 3 && sk === skeleton(y) && Math.min(x.length, y.length) >= 4) {
    const du = editDistance(ux, uy, 2);
    if (du <= 2) return du;
  }
  const d = editDistance(x, y, 1);
  if (d === 1) {
    const shortest = Math.min(x.length, y.length);
    if (shortest >= 6 || (shortest >= 5 && x.length !== y.length) || (shortest >= 5 && isSwap(x, y))) return d;
  }
  return undefined;
}

function isSwap(x: string, y: string): boolean {
  if (x.length !== y.length) return false;
  const diff: number[] = [];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) diff.push(i);
  return diff.length === 2 && diff[1] === diff[0]! + 1 && x[diff[0]!] === y[diff[1]!] && x[diff[1]!] === y[diff[0]!];
}

/** Whether two spellings are one person's name (see {@link nameDistance}). */
export function sameName(a: string, b: string): boolean {
  return nameDistance(a, b) !== undefined;
}

/**
 * The known names that `name` (a query's spelling, folded or not) stands for: itself when
 * `known` has it (an exact name never reaches for variants), else the closest variants among
 * `known` (all at the smallest distance), else nothing. `known` holds folded names.
 */
export function resolveName(name: string, known: ReadonlySet<string> | ReadonlyMap<string, unknown>): string[] {
  const folded = foldName(name);
  if (known.has(folded)) return [folded];
  let best = Number.POSITIVE_INFINITY;
  let out: string[] = [];
  for (const k of known.keys()) {
    if (Math.abs(k.length - folded.length) > 3 && !GROUPS_OF.has(folded)) continue;
    const d = nameDistance(folded, k);
    if (d === undefined || d > best) continue;
    if (d < best) {
      best = d;
      out = [k];
    } else out.push(k);
  }
  return out;
}

const LABEL_RE = /^(\p{Lu}[\p{L}\p{M}'’-]*):\s/u;

/** The speaker label of a stored text ("Caroline: …" → `"caroline"`), folded; `undefined` when it has none. */
export function speakerName(text: string): string | undefined {
  const label = LABEL_RE.exec(text);
  return label ? foldName(label[1]!.replace(/['’][sS]?$/u, '')) : undefined;
}
const CAPITALISED_RE = /(^|[.?!:;]\s+|\s)(\p{Lu}[\p{L}\p{M}]+)/gu;

/**
 * The names a stored text mentions, folded: a speaker label ("Caroline: …") and capitalised
 * words that do not start a sentence (the vocabulary {@link resolveName} looks variants up in).
 */
export function namesInText(text: string): string[] {
  const out = new Set<string>();
  const label = speakerName(text);
  if (label !== undefined) out.add(label);
  for (const m of text.matchAll(CAPITALISED_RE)) {
    if (m[1] === '' || /[.?!:;]/.test(m[1]!)) continue;
    const n = foldName(m[2]!);
    if (n.length >= 3) out.add(n);
  }
  return [...out];
}

/**
 * The names a store knows, folded, as they grow: every name its memories mention ({@link names},
 * the vocabulary {@link resolveName} looks variants up in), and the {@link people} among them:
 * whom memories are of (speakers, whom a memory was formed about) and the names mentioned that
 * are one of theirs by spelling or nickname ("mel" for a speaker "Melanie", {@link sameName}).
 * A question typed in lower case still names the people (`readQuery`); any other name it
 * mentions only counts when capitalised ("where is the beach" names no Beach).
 */
export class KnownNames {
  /** Every name mentioned, folded. */
  readonly names = new Set<string>();
  /** The people and the spellings of theirs among {@link names}, folded. */
  readonly people = new Set<string>();
  /** The people as added ({@link addPerson}), without the spellings found for them. */
  readonly #persons = new Set<string>();
  /** Names and people by the key a spelling of theirs may share (see {@link spellingKeys}). */
  readonly #names = new Map<string, string[]>();
  readonly #people = new Map<string, string[]>();

  /** A name a memory mentions. */
  addName(name: string): void {
    if (this.names.has(name)) return;
    this.names.add(name);
    for (const k of spellingKeys(name)) listed(this.#names, k).push(name);
    if (!this.people.has(name) && this.#spellingOf(name, this.#people)) this.people.add(name);
  }

  /** Someone a memory is of (its speaker, or whom it was formed about); a name too. */
  addPerson(name: string): void {
    this.addName(name);
    if (this.#persons.has(name)) return;
    this.#persons.add(name);
    this.people.add(name);
    for (const k of spellingKeys(name)) {
      listed(this.#people, k).push(name);
      for (const n of this.#names.get(k) ?? []) if (!this.people.has(n) && spellings(n, name)) this.people.add(n);
    }
  }

  /** Whether `name` is a spelling of one of `index`'s names. */
  #spellingOf(name: string, index: ReadonlyMap<string, readonly string[]>): boolean {
    return spellingKeys(name).some((k) => (index.get(k) ?? []).some((p) => spellings(name, p)));
  }
}

/** The list under `key`, made when absent. */
function listed(index: Map<string, string[]>, key: string): string[] {
  let list = index.get(key);
  if (!list) index.set(key, (list = []));
  return list;
}

/** Whether two folded names are one person's ({@link sameName}), with the length test first. */
function spellings(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 3 && !GROUPS_OF.has(a)) return false;
  return foldedDistance(a, b) !== undefined;
}

/**
 * Keys two spellings of one name share (a prefilter for {@link sameName}): the first sounded
 * letter, and each nickname group the name is in.
 */
function spellingKeys(name: string): string[] {
  return [initial(name), ...(GROUPS_OF.get(name) ?? []).map((g) => `#${g}`)];
}
