// Deterministic, varied memory-like sentences for the embedding page and benchmark.
const subjects = ['I', 'My sister', 'Our team', 'The landlord', 'My doctor', 'Alex', 'The new manager', 'Grandma'];
const verbs = ['moved', 'scheduled', 'cancelled', 'loved', 'forgot', 'planned', 'booked', 'finished'];
const objects = [
  'the dentist appointment',
  'a trip to Lisbon',
  'the quarterly report',
  'a vegetarian lasagna recipe',
  'the marathon training plan',
  'piano lessons',
  'the kitchen renovation',
  'a birthday party for Sam',
];
const tails = [
  'for next Tuesday',
  'because of the rain',
  'after a long discussion',
  'without telling anyone',
  'two weeks earlier than expected',
  'on a budget of 300 dollars',
  'with help from a friend',
  'at 7 pm sharp',
];

/** `n` distinct sentences, the same on every run. */
export function memorySentences(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      `${subjects[i % 8]} ${verbs[Math.floor(i / 8) % 8]} ${objects[Math.floor(i / 64) % 8]} ${tails[(i * 5) % 8]} (note ${i}).`,
    );
  }
  return out;
}
