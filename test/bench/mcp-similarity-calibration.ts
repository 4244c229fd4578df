/**
 * Calibration of the bundled model's cosine scale against the one the original long-term-memory
 * MCP server's thresholds were written for (all-MiniLM-L6-v2). Prints figures; gates nothing.
 * Run: `node --conditions=@zerda/source --import tsx test/bench/mcp-similarity-calibration.ts`
 *
 * Method: two anchors. MiniLM's published figures on a controlled set of pairs (the largest
 * similarity of an unrelated pair, 0.075, and the smallest of a true paraphrase, 0.564) are matched
 * to the same two statistics of the bundled model measured here on pairs of the same kinds; the
 * line through the two points maps the bundled model's cosine onto the original's scale
 * (`@zerda/mcp`'s `toOriginalSimilarity`). Then it checks what the original's threshold, applied
 * on the mapped scale, keeps for questions about a small personal memory and for unrelated ones.
 */
import { createTransformersEmbedder } from '@zerda/embeddings';
import { cosine } from '../../packages/core/src/retrieval/cosine.js';
import { MINILM_ANCHORS, originalThreshold } from '../../packages/mcp/src/threshold.js';

const PARAPHRASES: [string, string][] = [
  ['My birthday is on July 4th', 'I was born on the fourth of July'],
  ['I prefer tea over coffee', 'I like tea more than coffee'],
  ['We are going truck camping next weekend', 'Next weekend we will go camping with the truck'],
  ['My sister Ana lives in Lisbon', 'Ana, my sister, lives in Lisbon'],
  ['I work as a nurse at the city hospital', 'My job is nursing at the hospital in town'],
  ['The dog is called Pixel', 'Our dog’s name is Pixel'],
  ['I am allergic to peanuts', 'Peanuts give me an allergic reaction'],
  ['My favourite colour is green', 'Green is the colour I like best'],
  ['I drive a blue Volvo', 'My car is a blue Volvo'],
  ['I moved to Berlin in 2019', 'In 2019 I relocated to Berlin'],
  ['The meeting was moved to Friday', 'They rescheduled the meeting for Friday'],
  ['I am learning to play the guitar', 'I have been taking guitar lessons'],
  ['She finished the marathon in four hours', 'Her marathon time was four hours'],
  ['The cat sleeps on the sofa all day', 'All day long the cat naps on the couch'],
  ['I cannot eat gluten', 'Gluten is something I have to avoid eating'],
  ['My daughter starts school in September', 'In September my daughter begins school'],
];

const UNRELATED: [string, string][] = [
  ['My birthday is on July 4th', 'The stock market fell sharply on Monday'],
  ['I prefer tea over coffee', 'The compiler reports a type error on line 12'],
  ['We are going truck camping next weekend', 'Photosynthesis converts light into chemical energy'],
  ['My sister Ana lives in Lisbon', 'Add two cups of flour and stir'],
  ['I work as a nurse at the city hospital', 'The satellite orbits the planet every 90 minutes'],
  ['The dog is called Pixel', 'Interest rates were raised by a quarter point'],
  ['I am allergic to peanuts', 'The sonata is written in D minor'],
  ['My favourite colour is green', 'Install the package with the command line tool'],
  ['I drive a blue Volvo', 'The treaty was signed in 1648'],
  ['I moved to Berlin in 2019', 'Mitochondria are the powerhouse of the cell'],
  ['The meeting was moved to Friday', 'Volcanoes form where tectonic plates meet'],
  ['I am learning to play the guitar', 'The invoice is due in thirty days'],
  ['She finished the marathon in four hours', 'The database index speeds up the query'],
  ['The cat sleeps on the sofa all day', 'The election results will be announced tonight'],
  ['I cannot eat gluten', 'The telescope captured a distant galaxy'],
  ['My daughter starts school in September', 'What is the stock price of Nvidia?'],
];

const FACTS = [
  'Birthday: My birthday is July 4th',
  'Drinks: I prefer tea over coffee',
  'Camping: Truck camping at the lake next weekend',
  'Sister: My sister Ana lives in Lisbon',
  'Job: I work as a nurse at the city hospital',
  'Dog: Our dog is a border collie named Pixel',
  'Allergy: I am severely allergic to peanuts',
  'Car: I drive a blue 2015 Volvo',
  'Move: I moved to Berlin in 2019',
  'Guitar: I am learning to play the guitar',
  'Diet: I cannot eat gluten',
];

const QUESTIONS: [string, number][] = [
  ['When is my birthday?', 0],
  ['What do I like to drink?', 1],
  ['What are my plans for the weekend?', 2],
  ['Where does my sister live?', 3],
  ['What is my job?', 4],
  ['What is the name of my dog?', 5],
  ['Do I have any food allergies?', 6],
  ['What car do I have?', 7],
  ['When did I move to Berlin?', 8],
  ['Which instrument am I learning?', 9],
];

const OFF_TOPIC = [
  'What is the stock price of Nvidia?',
  'How do I compile a Rust program?',
  'What is the capital of Australia?',
  'Explain quantum entanglement',
  'Who won the football world cup in 2014?',
];

const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const embedder = createTransformersEmbedder({ device: 'cpu' });
  await embedder.ready();
  const pairSims = async (pairs: [string, string][]) => {
    const vecs = await embedder.embed(pairs.flat());
    return pairs.map((_, i) => cosine(vecs[2 * i]!, vecs[2 * i + 1]!));
  };
  const para = await pairSims(PARAPHRASES);
  const unrel = await pairSims(UNRELATED);
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return { min: r3(s[0]!), median: r3(s[Math.floor(s.length / 2)]!), max: r3(s.at(-1)!) };
  };
  console.log(`model ${embedder.modelId}`);
  console.log('paraphrase pairs', stats(para));
  console.log('unrelated pairs ', stats(unrel));
  const lo = Math.max(...unrel);
  const hi = Math.min(...para);
  const slope = (MINILM_ANCHORS.paraphraseMin - MINILM_ANCHORS.unrelatedMax) / (hi - lo);
  const map = (u: number) => MINILM_ANCHORS.unrelatedMax + (u - lo) * slope;
  console.log(
    `anchors: unrelated max ${r3(lo)} -> ${MINILM_ANCHORS.unrelatedMax}, paraphrase min ${r3(hi)} -> ${MINILM_ANCHORS.paraphraseMin}`,
  );
  console.log(
    `mapping: original = ${(MINILM_ANCHORS.unrelatedMax - lo * slope).toFixed(4)} + ${slope.toFixed(4)} × cosine (unrelated max ${lo.toFixed(4)}, paraphrase min ${hi.toFixed(4)})`,
  );

  const facts = await embedder.embed(FACTS);
  const report = async (query: string) => {
    const [q] = await embedder.embed([query]);
    const ranked = facts.map((f, i) => ({ i, sim: map(cosine(q!, f)) })).sort((a, b) => b.sim - a.sim);
    const { threshold, kept, fallback } = originalThreshold(ranked.map((r) => r.sim));
    return { ranked, threshold, kept: kept.length, fallback };
  };
  let hits = 0;
  for (const [q, target] of QUESTIONS) {
    const { ranked, threshold, kept } = await report(q);
    const ok = ranked.slice(0, kept).some((r) => r.i === target);
    if (ok) hits++;
    console.log(
      `${ok ? 'hit ' : 'MISS'} ${q.padEnd(38)} top ${r3(ranked[0]!.sim)} threshold ${r3(threshold)} kept ${kept}`,
    );
  }
  let quiet = 0;
  for (const q of OFF_TOPIC) {
    const { ranked, threshold, kept, fallback } = await report(q);
    if (kept === 0 || fallback) quiet++;
    console.log(
      `off  ${q.padEnd(38)} top ${r3(ranked[0]!.sim)} threshold ${r3(threshold)} kept ${kept}${fallback ? ' (fallback)' : ''}`,
    );
  }
  console.log(
    `personal questions answered: ${hits}/${QUESTIONS.length}; off-topic questions with at most the fallback: ${quiet}/${OFF_TOPIC.length}`,
  );
  await embedder.close();
}

await main();
