/**
 * Compiling the turn reader's patterns ahead of a bulk import, a few at a time.
 *
 * The reader runs a few hundred regular expressions, most of them case-insensitive Unicode ones
 * with letter classes (`\p{L}`), which V8 compiles on first use — twice (bytecode, then machine
 * code on the next call) and once more for strings with non-Latin-1 characters. That costs
 * 0.5–20 ms a pattern and several hundred ms in all, paid by the first turns read: a single turn
 * then takes 100–250 ms, one task of the page's main thread that nothing can slice. Warming the
 * patterns one by one first, as steps the caller spreads over its time slices, leaves each turn
 * at its steady cost (about a millisecond).
 *
 * Found: every `RegExp` the language modules export (directly, or in an exported array or
 * object, as `SLOTS`), then a few sample turns, read in steps, which compile what is left (the
 * patterns written inside functions). Only speed depends on it: a pattern not found is compiled
 * when first used, as before.
 */
import * as importance from './importance.js';
import * as kindRules from './kind-rules.js';
import * as lexicon from './lexicon.js';
import * as names from './names.js';
import * as relations from './relations.js';
import * as statements from './statements.js';
import * as timeExpressions from './time-expressions.js';
import * as topics from './topics.js';
import { readTurn } from './turn-reading.js';

const MODULES: readonly object[] = [
  lexicon,
  statements,
  kindRules,
  timeExpressions,
  topics,
  names,
  relations,
  importance,
];

/**
 * Subjects each pattern runs on: V8 keeps separate code for Latin-1 and two-byte strings (a turn
 * with a ’ or an emoji is the latter), and compiles machine code on a pattern's second run.
 */
const SUBJECTS = ['I am a b', 'I am a b', 'I’m a b', 'I’m a b'];

/** Sample turns read last, one a step, from the simplest: each compiles what the one before did not reach. */
const SAMPLE_TURNS = [
  'Ana: Hey! Thanks, good to see you! How are you?',
  'Ana: I went to a support group yesterday and it was so powerful.',
  "Ana: My sister moved to Lisbon last week – she's a nurse and loves it, so we're visiting her next month!",
  'Ana: Since I was 17 or so. I find it so empowering, my kids love the painting I made 😊 [image: a painting]',
];

let warmed = false;

/** Every RegExp in `value`, an exported value (nested arrays and plain objects, two levels deep). */
function collect(value: unknown, into: Set<RegExp>, depth: number): void {
  if (value instanceof RegExp) into.add(value);
  else if (depth > 0 && Array.isArray(value)) for (const v of value) collect(v, into, depth - 1);
  else if (
    depth > 0 &&
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  )
    for (const v of Object.values(value)) collect(v, into, depth - 1);
}

/**
 * The warm-up, as steps of a few milliseconds each: the caller runs one step at a time and yields
 * to the event loop between them as its time budget says. Runs once per process; later calls
 * have no steps. Reads no stored data and changes nothing a reading returns.
 */
export function* warmUpReading(): Generator<void, void, undefined> {
  if (warmed) return;
  warmed = true;
  const patterns = new Set<RegExp>();
  for (const m of MODULES) for (const v of Object.values(m)) collect(v, patterns, 2);
  for (const re of patterns) {
    // A global or sticky pattern's position is state its users may rely on: left as found.
    const at = re.lastIndex;
    for (const s of SUBJECTS) {
      re.lastIndex = 0;
      re.test(s);
    }
    re.lastIndex = at;
    yield;
  }
  let previous: string | undefined;
  for (const input of SAMPLE_TURNS) {
    readTurn(
      { input, output: '', userId: 'warm-up', createdAt: 0 },
      previous === undefined ? {} : { previous: { input: previous, output: '' } },
    );
    previous = input;
    yield;
  }
}
