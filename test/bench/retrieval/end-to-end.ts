/**
 * End-to-end retrieval evaluation (issue 9): the path an app (and the held-out measurement) uses,
 * with LoCoMo as the development set split into two halves.
 *
 * Path, per conversation: `MemoryManager.create({ owner, clock, embedder })` with the bundled
 * use-lite model and the default configuration except `importanceThreshold: 0`,
 * `enableDecay: false`; every turn `saveInteraction(user, tenant, "<speaker>: <text>", '',
 * { importance: 0.5 })` with the clock at its session's date; hits map back to turns through their
 * entry id or `metadata.sources`. Measured:
 * - ranking: `recall(..., { topK: 25, mode, reinforce: false, ratio: 0, minScore: 0 })` — rank,
 *   cut nothing — recall@5/10/25 per half;
 * - the relevance gate: the same call without `minScore: 0` (the default gate applies), R@10;
 *   and `recall(..., { reinforce: false })` with all defaults: hits per question;
 * - end to end: the default `buildContext(user, tenant, question)`: evidence in prompt (share of
 *   the question's evidence turns present in the prompt's memories or history), memories and
 *   tokens per prompt, zero-relevance share (memories in the prompt that were not recalled for the
 *   query), off-evidence share (memories holding none of the evidence);
 * - per LoCoMo category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop): hybrid R@10 and
 *   evidence in prompt, per half;
 * - off-topic: 120 general-knowledge questions (`off-topic.ts`) against every conversation's store
 *   and a small personal store: share for which default `recall` returns nothing.
 *
 * Run (from the repository root):
 *   npx tsx --conditions=@zerda/source test/bench/retrieval/end-to-end.ts [options]
 * Options:
 *   --data <path>          LoCoMo's locomo10.json (default $LOCOMO_PATH or ../shared/bench/data/locomo10.json)
 *   --half dev|other|all   dev = the first five conversations (defaults are chosen there), other =
 *                          the last five (reported, never tuned on). Default all.
 *   --conversations a-b    0-based range instead of --half (for quick subsets)
 *   --modes a,b            ranking modes. Default hybrid (lexical,vector,hybrid for all three)
 *   --search <json>        extra recall options merged into every recall and buildContext search
 *   --variants <json>      an array of recall option sets: ranks (hybrid R@5/10/25, and R@10 per LoCoMo
 *                          category) with each, on the same stores, and prints one line per variant
 *   --skip e2e,offtopic,gate
 *   --json <file>          also write the figures as JSON, with each question's hybrid R@10 and evidence in
 *                          prompt (to diff two runs)
 *   --misses <categories>  also print, per question of those LoCoMo categories (e.g. `3` or `1,3`)
 *                          whose hybrid R@10 is below 1: its evidence turns (with their rank in
 *                          the top 25, or `-`) and the top-10 hits, to read misses by cause
 *   --qnoise <spec>        ask every question as people type it in a chat app (`../chat-noise.ts`:
 *                          `punct`, `qmark`, `apos`, `lower`, comma-separated, or `all`): "whats
 *                          carolines job" for "What's Caroline's job?". The saved turns stay as
 *                          they are; the off-topic and personal-store questions are asked so too;
 *                          `--json` keeps each question's clean text as its key.
 *   --noise <spec>         save every TURN as people type it in a chat app (the same noises; the
 *                          speaker label and image captions as they are): how formation and
 *                          recall hold up on real chats' typing. Questions stay as they are
 *                          unless `--qnoise` is given too.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chatNoise, parseNoise } from '../chat-noise.js';
import { entryText, MemoryManager, type RecallHit, type SemanticSearchOptions } from '@zerda/core';
import { lendEmbedder } from '@zerda/core/adapter';
import { CUTOFFS, percentile, recallAt, type RecallMode } from './evaluate.js';
import { coverage, PromptTally, rankedTurns, turnsOf } from './end-to-end-metrics.js';
import { loadLocomo, type LocomoConversation } from './locomo.js';
import { createCachedUseLite, REPO_ROOT } from './model.js';
import { OFF_TOPIC_QUESTIONS, PERSONAL_FACTS, PERSONAL_QUESTIONS } from './off-topic.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    half: { type: 'string', default: 'all' },
    conversations: { type: 'string' },
    modes: { type: 'string', default: 'hybrid' },
    search: { type: 'string' },
    variants: { type: 'string' },
    skip: { type: 'string', default: '' },
    json: { type: 'string' },
    misses: { type: 'string' },
    qnoise: { type: 'string' },
    noise: { type: 'string' },
  },
});

const dataPath = resolve(REPO_ROOT, args.data ?? process.env.LOCOMO_PATH ?? '../shared/bench/data/locomo10.json');
if (!existsSync(dataPath)) {
  console.log(`SKIPPED: LoCoMo data not found at ${dataPath}.`);
  process.exit(0);
}
const modes = args.modes.split(',') as RecallMode[];
for (const m of modes) if (!['lexical', 'vector', 'hybrid'].includes(m)) throw new Error(`unknown mode ${m}`);
const skip = new Set(args.skip.split(',').filter(Boolean));
const extra = (args.search ? JSON.parse(args.search) : {}) as SemanticSearchOptions;
const qnoise = parseNoise(args.qnoise);
const noise = parseNoise(args.noise);
/** A question as asked (`--qnoise`); the dummy head keeps `chatNoise` from reading one in it. */
const asked = (question: string) => (qnoise.size === 0 ? question : chatNoise(`q: ${question}`, qnoise).slice(3));
const missCategories = new Set((args.misses ?? '').split(',').filter(Boolean).map(Number));
/** The printed misses (`--misses`), in conversation order. */
const missLines: string[] = [];
/** Each question's hybrid R@10, in conversation order (written with `--json`). */
const perQuestion: {
  conversation: string;
  category: number;
  question: string;
  r10: number;
  /** Share of its evidence in the prompt (without `--skip e2e`). */
  prompt?: number;
}[] = [];
const variants = (args.variants ? JSON.parse(args.variants) : []) as SemanticSearchOptions[];
/** Per variant and conversation: questions and R@5/10/25 sums, and per LoCoMo category questions and R@10. */
const variantSums = variants.map(
  () => new Map<string, { q: number; r: number[]; byCategory: Record<number, { q: number; r10: number }> }>(),
);

const all = loadLocomo(dataPath);
/** The development half (defaults are chosen on it) and the other half (reported only). */
const HALVES: Record<string, string[]> = {
  dev: all.slice(0, 5).map((c) => c.sampleId),
  other: all.slice(5).map((c) => c.sampleId),
};
let conversations: LocomoConversation[];
if (args.conversations) {
  const [a, b = a] = args.conversations.split('-').map(Number);
  conversations = all.slice(a, b! + 1);
} else if (args.half === 'dev' || args.half === 'other') {
  conversations = all.filter((c) => HALVES[args.half!]!.includes(c.sampleId));
} else conversations = all;

const embedder = createCachedUseLite();
const lent = lendEmbedder(embedder);
const USER = 'bench';

/** A manager on the evaluation path holding `turns`; returns it and the turn entry id → turn id map. */
async function ingest(
  tenant: string,
  sessions: readonly { timestamp: number; turns: readonly { id: string; text: string }[] }[],
) {
  let clock = 0;
  const mgr = await MemoryManager.create({
    owner: USER,
    clock: () => clock,
    embedder: lent,
    config: { importanceThreshold: 0, enableDecay: false },
  });
  const turnOf = new Map<string, string>();
  for (const s of sessions) {
    clock = s.timestamp;
    for (const t of s.turns) {
      const { entry } = await mgr.saveInteraction(USER, tenant, chatNoise(t.text, noise), '', { importance: 0.5 });
      turnOf.set(entry.id, t.id);
    }
    await mgr.flush();
  }
  return { mgr, turnOf, setClock: (at: number) => (clock = at) };
}

/** Per-half sums. */
interface Sums {
  questions: number;
  rank: Record<string, Record<number, number>>;
  gatedR10: number;
  gatedHits: number;
  defaultHits: number;
  prompt: PromptTally;
  offTopic: number;
  offTopicEmpty: number;
  latencies: number[];
  /** Per LoCoMo category: questions, hybrid R@10, evidence in prompt (sums). */
  byCategory: Record<number, { q: number; r10: number; prompt: number }>;
}
const sums = (): Sums => ({
  questions: 0,
  rank: Object.fromEntries(modes.map((m) => [m, Object.fromEntries(CUTOFFS.map((k) => [k, 0]))])),
  gatedR10: 0,
  gatedHits: 0,
  defaultHits: 0,
  prompt: new PromptTally(),
  offTopic: 0,
  offTopicEmpty: 0,
  latencies: [],
  byCategory: {},
});
const categoryOf = (s: Sums, c: number) => (s.byCategory[c] ??= { q: 0, r10: 0, prompt: 0 });
const perConv = new Map<string, Sums>();

const t0 = performance.now();
console.log(
  `LoCoMo end to end: ${conversations.length} conversations, ${conversations.reduce((n, c) => n + c.questions.length, 0)} questions${qnoise.size > 0 ? ` asked with noise ${[...qnoise].join(',')}` : ''}${noise.size > 0 ? `, turns saved with noise ${[...noise].join(',')}` : ''}; model ${embedder.modelId}; extra recall options ${JSON.stringify(extra)}`,
);
for (const conv of conversations) {
  const c0 = performance.now();
  const s = sums();
  perConv.set(conv.sampleId, s);
  const { mgr, turnOf, setClock } = await ingest(
    conv.sampleId,
    conv.sessions.map((x) => ({ timestamp: x.timestamp, turns: x.turns.map((t) => ({ id: t.diaId, text: t.text })) })),
  );
  const now = conv.sessions.at(-1)!.timestamp + 86_400_000;
  setClock(now);
  const turns = (hits: RecallHit[], k?: number) =>
    rankedTurns(
      hits.map((h) => h.entry),
      turnOf,
      k,
    );
  try {
    const firstQuestion = perQuestion.length;
    for (const q of conv.questions) {
      const question = asked(q.question);
      s.questions++;
      categoryOf(s, q.category).q++;
      for (const mode of modes) {
        const a = performance.now();
        const hits = await mgr.recall(USER, conv.sampleId, question, {
          topK: 25,
          mode,
          reinforce: false,
          ratio: 0,
          minScore: 0,
          ...extra,
        });
        if (mode === 'hybrid') s.latencies.push(performance.now() - a);
        for (const k of CUTOFFS) s.rank[mode]![k]! += recallAt(turns(hits, k), q.evidence, Infinity);
        if (mode === 'hybrid') {
          const r10 = recallAt(turns(hits, 10), q.evidence, Infinity);
          categoryOf(s, q.category).r10 += r10;
          perQuestion.push({ conversation: conv.sampleId, category: q.category, question: q.question, r10 });
        }
        if (mode === 'hybrid' && missCategories.has(q.category))
          missed(conv, q, question, hits, (m) => rankedTurns(m, turnOf));
      }
      for (const [vi, v] of variants.entries()) {
        const hits = await mgr.recall(USER, conv.sampleId, question, {
          topK: 25,
          mode: 'hybrid',
          reinforce: false,
          ratio: 0,
          minScore: 0,
          ...v,
        });
        const t = variantSums[vi]!.get(conv.sampleId) ?? { q: 0, r: [0, 0, 0], byCategory: {} };
        t.q++;
        CUTOFFS.forEach((k, j) => (t.r[j]! += recallAt(turns(hits, k), q.evidence, Infinity)));
        const c = (t.byCategory[q.category] ??= { q: 0, r10: 0 });
        c.q++;
        c.r10 += recallAt(turns(hits, 10), q.evidence, Infinity);
        variantSums[vi]!.set(conv.sampleId, t);
      }
      if (!skip.has('gate')) {
        const gated = await mgr.recall(USER, conv.sampleId, question, {
          topK: 25,
          reinforce: false,
          ratio: 0,
          ...extra,
        });
        s.gatedR10 += coverage(turns(gated, 10), q.evidence);
        s.gatedHits += gated.length;
        const plain = await mgr.recall(USER, conv.sampleId, question, { reinforce: false, ...extra });
        s.defaultHits += plain.length;
      }
    }
    if (!skip.has('offtopic')) {
      for (const q of OFF_TOPIC_QUESTIONS) {
        const hits = await mgr.recall(USER, conv.sampleId, asked(q), { reinforce: false, ...extra });
        s.offTopic++;
        if (hits.length === 0) s.offTopicEmpty++;
      }
    }
    if (!skip.has('e2e')) {
      // Last: buildContext reinforces what it uses, as it does in an app.
      for (const [i, q] of conv.questions.entries()) {
        const ctx = await mgr.buildContext(
          USER,
          conv.sampleId,
          asked(q.question),
          Object.keys(extra).length ? { search: extra } : {},
        );
        const relevance = new Map(ctx.working.map((w) => [w.entry.id, w.relevance]));
        const byId = new Map(ctx.working.map((w) => [w.entry.id, w.entry]));
        const memIds = ctx.sections.filter((x) => x.kind === 'memories').flatMap((x) => x.itemIds);
        const histIds = ctx.sections.filter((x) => x.kind === 'history').flatMap((x) => x.itemIds);
        const memories = memIds.map((id) => ({
          turns: byId.has(id) ? turnsOf(byId.get(id)!, turnOf) : [],
          relevance: relevance.get(id) ?? 0,
        }));
        const promptTurns = [
          ...memories.flatMap((m) => m.turns),
          ...histIds.map((id) => turnOf.get(id)).filter((t): t is string => t !== undefined),
        ];
        s.prompt.add({ memories, turns: promptTurns, tokens: ctx.tokenCount }, q.evidence);
        const prompt = coverage(promptTurns, q.evidence);
        categoryOf(s, q.category).prompt += prompt;
        const row = perQuestion[firstQuestion + i];
        if (row?.question === q.question) row.prompt = prompt;
      }
    }
  } finally {
    await mgr.close();
  }
  console.log(
    `  ${conv.sampleId}: ${conv.questions.length} q, hybrid R@10 ${((100 * (s.rank.hybrid?.[10] ?? 0)) / s.questions).toFixed(1)}, ${((performance.now() - c0) / 1000).toFixed(1)} s`,
  );
}

/** Record a question of a `--misses` category whose evidence is not all in the top 10. */
function missed(
  conv: LocomoConversation,
  q: LocomoConversation['questions'][number],
  question: string,
  hits: readonly RecallHit[],
  turns: (memories: RecallHit['entry'][]) => string[],
) {
  const top10 = turns(hits.slice(0, 10).map((h) => h.entry));
  const ranked = turns(hits.map((h) => h.entry));
  if (q.evidence.every((e) => top10.includes(e))) return;
  const text = new Map(conv.sessions.flatMap((x) => x.turns.map((t) => [t.diaId, t.text] as const)));
  const cut = (t: string) => (t.length > 160 ? `${t.slice(0, 157)}…` : t);
  missLines.push(`\n[${conv.sampleId} c${q.category}] ${question}`);
  for (const e of q.evidence) {
    const rank = ranked.indexOf(e);
    missLines.push(`  evidence ${e} (${rank < 0 ? '-' : `turn rank ${rank + 1}`}): ${cut(text.get(e) ?? '?')}`);
  }
  for (const [i, h] of hits.slice(0, 10).entries()) {
    const kind = h.entry.kind === 'conversation' ? '' : ` ${h.entry.kind}`;
    const about = typeof h.entry.metadata?.about === 'string' ? ` (${h.entry.metadata.about})` : '';
    const from = turns([h.entry]).join(',');
    missLines.push(`  ${i + 1}. ${from}${kind}${about} ${h.score.toFixed(2)} ${cut(entryText(h.entry))}`);
  }
}

// A small non-LoCoMo personal store for the off-topic rate.
const personal = { asked: 0, empty: 0, onTopic: 0, found: 0 };
if (!skip.has('offtopic')) {
  const { mgr, turnOf } = await ingest('personal', [
    { timestamp: Date.UTC(2026, 0, 1), turns: PERSONAL_FACTS.map((text, i) => ({ id: `p${i}`, text })) },
  ]);
  for (const q of OFF_TOPIC_QUESTIONS) {
    const hits = await mgr.recall(USER, 'personal', asked(q), { reinforce: false, ...extra });
    personal.asked++;
    if (hits.length === 0) personal.empty++;
  }
  // The other side: questions this store answers, with all defaults; found = the answer among the hits.
  for (const [q, i] of PERSONAL_QUESTIONS) {
    const hits = await mgr.recall(USER, 'personal', asked(q), { reinforce: false, ...extra });
    personal.onTopic++;
    if (
      rankedTurns(
        hits.map((h) => h.entry),
        turnOf,
      ).includes(`p${i}`)
    )
      personal.found++;
  }
  await mgr.close();
}
embedder.save();
await embedder.close();

function merged(ids: readonly string[]): Sums {
  const m = sums();
  for (const id of ids) {
    const s = perConv.get(id);
    if (!s) continue;
    m.questions += s.questions;
    for (const mode of modes) for (const k of CUTOFFS) m.rank[mode]![k]! += s.rank[mode]![k]!;
    m.gatedR10 += s.gatedR10;
    m.gatedHits += s.gatedHits;
    m.defaultHits += s.defaultHits;
    m.prompt.merge(s.prompt);
    m.offTopic += s.offTopic;
    m.offTopicEmpty += s.offTopicEmpty;
    m.latencies.push(...s.latencies);
    for (const [c, t] of Object.entries(s.byCategory)) {
      const x = categoryOf(m, Number(c));
      x.q += t.q;
      x.r10 += t.r10;
      x.prompt += t.prompt;
    }
  }
  return m;
}

const f = (x: number) => x.toFixed(1);
const groups: Record<string, string[]> = {};
for (const [name, ids] of Object.entries(HALVES)) if (ids.some((id) => perConv.has(id))) groups[name] = ids;
groups.all = [...perConv.keys()];
const report: Record<string, unknown> = {};
console.log(
  '\n| half | q | ' +
    modes.map((m) => `${m} R@5 / R@10 / R@25`).join(' | ') +
    ' | gated R@10 | gated hits | default hits | p50 / p95 ms |',
);
console.log('|---|---|' + modes.map(() => '---|').join('') + '---|---|---|---|');
for (const [name, ids] of Object.entries(groups)) {
  const m = merged(ids);
  const q = m.questions || 1;
  const rank = Object.fromEntries(modes.map((mode) => [mode, CUTOFFS.map((k) => (100 * m.rank[mode]![k]!) / q)]));
  report[name] = {
    questions: m.questions,
    rank,
    gatedR10: (100 * m.gatedR10) / q,
    gatedHits: m.gatedHits / q,
    defaultHits: m.defaultHits / q,
    prompt: m.prompt.summary(),
    offTopicEmptyPct: (100 * m.offTopicEmpty) / (m.offTopic || 1),
    latencyMs: { p50: percentile(m.latencies, 50), p95: percentile(m.latencies, 95) },
  };
  console.log(
    `| ${name} | ${m.questions} | ${modes.map((mode) => rank[mode]!.map(f).join(' / ')).join(' | ')} | ${skip.has('gate') ? '–' : f((100 * m.gatedR10) / q)} | ${f(m.gatedHits / q)} | ${f(m.defaultHits / q)} | ${percentile(m.latencies, 50).toFixed(2)} / ${percentile(m.latencies, 95).toFixed(2)} |`,
  );
}
for (const [vi, v] of variants.entries()) {
  const cells = Object.entries(groups).map(([name, ids]) => {
    let q = 0;
    const r = [0, 0, 0];
    const cats: Record<number, { q: number; r10: number }> = {};
    for (const id of ids) {
      const t = variantSums[vi]!.get(id);
      if (!t) continue;
      q += t.q;
      t.r.forEach((x, j) => (r[j]! += x));
      for (const [c, x] of Object.entries(t.byCategory)) {
        const m = (cats[Number(c)] ??= { q: 0, r10: 0 });
        m.q += x.q;
        m.r10 += x.r10;
      }
    }
    const perCategory = Object.entries(cats)
      .sort()
      .map(([c, x]) => `c${c} ${f((100 * x.r10) / (x.q || 1))}`)
      .join(' ');
    return `${name} ${r.map((x) => f((100 * x) / (q || 1))).join(' / ')} (R@10 ${perCategory})`;
  });
  console.log(`variant ${JSON.stringify(v)}: ${cells.join(' | ')}`);
}
if (!skip.has('e2e')) {
  console.log(
    '\n| half | evidence in prompt % | memories / prompt | tokens / prompt (p95) | zero-relevance % | memories without evidence % |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [name, ids] of Object.entries(groups)) {
    const m = merged(ids);
    const p = m.prompt.summary();
    console.log(
      `| ${name} | ${f(p.evidencePct)} | ${f(p.memoriesPerPrompt)} | ${f(p.tokensPerPrompt)} (${percentile(m.prompt.tokenCounts, 95)}) | ${f(p.zeroRelevancePct)} | ${f(p.offEvidencePct)} |`,
    );
  }
}
console.log('\n| half | category | q | hybrid R@10 | evidence in prompt % |');
console.log('|---|---|---|---|---|');
for (const [name, ids] of Object.entries(groups)) {
  const m = merged(ids);
  const cats: Record<string, unknown> = {};
  for (const [c, t] of Object.entries(m.byCategory).sort()) {
    const r10 = (100 * t.r10) / (t.q || 1);
    const prompt = (100 * t.prompt) / (t.q || 1);
    cats[c] = { questions: t.q, hybridR10: r10, evidencePct: prompt };
    console.log(
      `| ${name} | ${c} | ${t.q} | ${modes.includes('hybrid') ? f(r10) : '–'} | ${skip.has('e2e') ? '–' : f(prompt)} |`,
    );
  }
  (report[name] as Record<string, unknown>).byCategory = cats;
}
if (!skip.has('offtopic')) {
  const m = merged(groups.all!);
  console.log(
    `\nOff-topic (${OFF_TOPIC_QUESTIONS.length} questions): recall nothing on ${f((100 * m.offTopicEmpty) / (m.offTopic || 1))} % of ${m.offTopic} asks against the LoCoMo stores; ${f((100 * personal.empty) / (personal.asked || 1))} % against the ${PERSONAL_FACTS.length}-turn personal store, which recalls the answer of ${personal.found} of its ${personal.onTopic} own questions (all defaults).`,
  );
  report.personalOffTopicEmptyPct = (100 * personal.empty) / (personal.asked || 1);
}
if (missLines.length > 0)
  console.log(`\nMisses (categories ${[...missCategories].join(', ')}):${missLines.join('\n')}`);
console.log(
  `Total ${((performance.now() - t0) / 1000).toFixed(1)} s (model cache: ${embedder.misses} embedded, ${embedder.hits} cached).`,
);
if (args.json) {
  const out = resolve(args.json);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ extra, report, perQuestion }, null, 2));
}
