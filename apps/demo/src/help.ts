/**
 * Plain-language help: one glossary of one-line explanations for every score and term the demo
 * shows, and a small accessible "?" toggle that shows a term's explanation inline.
 *
 * Panels label things in plain words ("match", "keyword match") and keep the technical term
 * (relevance, BM25) in the explanation. Use:
 *
 * - `explain('keyword')` — the one-liner, as text (for a `title`, a summary line, a test);
 * - `helpFor('keyword')` — a "?" button (keyboard and touch: it toggles the explanation inline,
 *   with `aria-expanded`/`aria-controls`; the button is also described by it and has it as a tooltip);
 * - `withHelp('keyword match', 'keyword')` — a label followed by its "?" (for headers and labels).
 */
import {
  DEFAULT_FUSION_EXPONENT,
  DEFAULT_FUSION_METHOD,
  DEFAULT_FUSION_WEIGHTS,
  DEFAULT_THRESHOLD_RATIO,
} from '@zerda/core';
import { h } from './dom.js';

/** One glossary entry: the plain label shown in the UI and its one-line explanation. */
export interface HelpEntry {
  /** The plain label (what the UI says). */
  label: string;
  /** One plain sentence; the technical name, when there is one, comes last in parentheses. */
  text: string;
}

/** How the library combines the keyword and meaning lists by default, read from the library. */
export function fusionDescription(): string {
  const { lexical, vector } = DEFAULT_FUSION_WEIGHTS;
  return DEFAULT_FUSION_METHOD === 'score'
    ? `each list's scores are divided by that list's best score, raised to the power ${DEFAULT_FUSION_EXPONENT} and averaged with weights keyword ${lexical} : meaning ${vector} (weighted score fusion)`
    : `each memory scores by its rank in each list, weighted keyword ${lexical} : meaning ${vector} (weighted reciprocal-rank fusion)`;
}

const GLOSSARY = {
  // ── Scores
  match: {
    label: 'match',
    text: 'How well a memory fits what was asked, from 0 (not at all) to 1 (best) (technical: relevance / similarity).',
  },
  keyword: {
    label: 'keyword match',
    text: 'Shares your words with the memory; rare words count more than common ones (technical: BM25 score).',
  },
  meaning: {
    label: 'meaning match',
    text: 'Close in meaning even with different words, judged by a small language model running in this page (technical: cosine similarity of embeddings).',
  },
  combined: {
    label: 'combined score',
    text: `Keyword and meaning matches merged into one score from 0 to 1, 1 = best in both: ${fusionDescription()}.`,
  },
  ranks: {
    label: 'ranks',
    text: 'The memory’s place in the keyword list / the meaning list (1 = first; — = not in that list).',
  },
  score: {
    label: 'score',
    text: 'Why this memory made it into the prompt: a mix of match, recency and importance (the selector’s weighted score).',
  },
  recency: {
    label: 'recency',
    text: 'How recently the memory was used, 1 = just now, halving every couple of weeks (recency half-life).',
  },
  importance: {
    label: 'importance',
    text: 'How much a memory matters, from 0 to 1; it fades over time unless the memory is recalled (base importance → effective importance now).',
  },
  effective: {
    label: 'importance now',
    text: 'The importance after fading since the memory was last used; this is what Maintenance compares with the deletion line (effective importance).',
  },
  decay: {
    label: 'fading',
    text: 'Importance halves after a fixed time for each kind (a fact after a year, a task after two weeks), but never below its floor (exponential decay, half-life).',
  },
  floor: {
    label: 'floor',
    text: 'The lowest a memory’s importance can fade to; facts and preferences keep 0.2 (decay floor).',
  },
  threshold: {
    label: 'deletion line',
    text: 'Maintenance deletes memories whose importance has faded below this line (deletion threshold).',
  },
  reinforcement: {
    label: 'recall boost',
    text: 'Each time a memory is recalled its importance goes up a little and fading starts over (reinforcement).',
  },
  protected: {
    label: 'protected',
    text: 'Pinned, core and identity memories never fade and are never deleted by Maintenance (protected tags).',
  },
  reason: {
    label: 'reason',
    text: 'Why the library kept, skipped or changed something, in its own words (the operation’s reason).',
  },
  gate: {
    label: 'relevance gate',
    text: `Recall keeps only hits that are similar enough to the question and reach ${Math.round(DEFAULT_THRESHOLD_RATIO * 100)}% of the best hit’s score, so unrelated memories stay out of the prompt (recall gate, threshold ratio).`,
  },
  // ── What a memory is
  kind: {
    label: 'kind',
    text: 'What sort of memory it is — fact, preference, event, task, conversation, summary — which sets how fast it fades.',
  },
  fact: {
    label: 'fact',
    text: 'Something true about you or the world (“my sister lives in Lisbon”); fades slowly (half-life 1 year).',
  },
  preference: { label: 'preference', text: 'Something you like or dislike; fades slowly (half-life 6 months).' },
  event: {
    label: 'event',
    text: 'Something that happened or will happen at a time; fades in months (half-life 90 days).',
  },
  task: { label: 'task', text: 'Something to do; fades quickly once it is old (half-life 14 days).' },
  conversation: { label: 'conversation', text: 'One chat turn (what you said and the reply); fades in about a month.' },
  summary: {
    label: 'summary',
    text: 'Several old memories merged into one by Maintenance to save space (compression).',
  },
  about: { label: 'about', text: 'Whom the memory is about (you, or someone you mentioned).' },
  source: {
    label: 'source turn',
    text: 'The chat turn a memory was formed from, so you can see where it came from (metadata.sources).',
  },
  pinned: { label: 'pinned', text: 'You marked this memory to keep: it never fades and is never forgotten.' },
  // ── Where memories live
  'short-term': {
    label: 'recent turns',
    text: 'The last few chat turns, kept as they are and dropped oldest-first (short-term sliding window).',
  },
  working: {
    label: 'in this prompt',
    text: 'The memories picked for the last reply, within the token budget; rebuilt on every turn (working memory).',
  },
  'long-term': {
    label: 'long-term',
    text: 'Memories kept across sessions in this browser (IndexedDB), until they fade and Maintenance deletes them (long-term memory).',
  },
  semantic: {
    label: 'search index',
    text: 'The keyword and meaning indexes that recall searches (semantic memory: BM25 + vector index).',
  },
  tokens: {
    label: 'tokens',
    text: 'Pieces of words; a model reads a limited number, so the prompt is cut to fit (token count).',
  },
  budget: {
    label: 'budget',
    text: 'The most tokens of memories and history the prompt may hold (token budget).',
  },
  // ── Privacy and data
  pii: {
    label: 'personal data',
    text: 'E-mail and street addresses, phone numbers, card numbers, passwords and keys are replaced by placeholders before anything is stored (PII masking).',
  },
  encryption: {
    label: 'encryption',
    text: 'Everything written to this browser’s storage is scrambled with a key made from your passphrase; without it the data is unreadable (AES-GCM encryption at rest, PBKDF2).',
  },
  roles: {
    label: 'roles',
    text: 'Who may do what: a reader may only read, a writer may also add, an admin may also delete and run maintenance (role-based access).',
  },
  maintenance: {
    label: 'maintenance',
    text: 'Cleans up: deletes faded memories, merges old ones when space runs low, drops faded recent turns — as of the demo clock’s date.',
  },
  backup: {
    label: 'backup',
    text: 'A copy of all memories kept in this browser, dated by the demo clock, that you can restore or download.',
  },
  profile: {
    label: 'profile',
    text: 'What the library learned about a user from their chats: how often they chat and what about.',
  },
  topics: {
    label: 'topics',
    text: 'The main words a user talks about, counted once per turn (common filler words are left out).',
  },
  boost: {
    label: 'retention boost',
    text: 'Frequent users’ new memories start a little more important, so they are kept longer (memory retention boost).',
  },
  interactions: { label: 'interactions', text: 'How many chat turns this user has saved.' },
  clock: {
    label: 'demo clock',
    text: 'A pretend date you can move forward to watch memories fade; Maintenance, backups and the importance chart all use it.',
  },
} as const satisfies Record<string, HelpEntry>;

/** A term of the glossary. */
export type HelpTerm = keyof typeof GLOSSARY;

/** Every term with its entry (for a glossary list or a test). */
export function glossary(): Readonly<Record<HelpTerm, HelpEntry>> {
  return GLOSSARY;
}

/** The one-line explanation of `term`. */
export function explain(term: HelpTerm): string {
  return GLOSSARY[term].text;
}

/** The plain label of `term`. */
export function plain(term: HelpTerm): string {
  return GLOSSARY[term].label;
}

let nextId = 0;

/**
 * A "?" button that toggles `term`'s explanation inline (click, Enter, Space or touch; Escape
 * closes it). The explanation is also the button's accessible description and its tooltip.
 * Returns a wrapper `<span class="help">` holding the button and the explanation.
 */
export function helpFor(term: HelpTerm, label: string = GLOSSARY[term].label): HTMLElement {
  const id = `help-${term}-${++nextId}`;
  const tip = h('span', {
    class: 'help-tip',
    testid: 'help-tip',
    text: explain(term),
    attrs: { id, role: 'note', hidden: true },
  });
  const button = h('button', {
    class: 'help-toggle',
    testid: `help-${term}`,
    title: explain(term),
    text: '?',
    attrs: {
      type: 'button',
      'aria-label': `What is “${label}”?`,
      'aria-expanded': 'false',
      'aria-controls': id,
      'aria-describedby': id,
      'data-term': term,
    },
  });
  const toggle = (open: boolean) => {
    tip.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', (e) => {
    // A "?" inside a <summary> or a table header must not also toggle or sort its parent.
    e.preventDefault();
    e.stopPropagation();
    toggle(tip.hidden);
  });
  button.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !tip.hidden) {
      e.stopPropagation();
      toggle(false);
    }
  });
  return h('span', { class: 'help' }, button, tip);
}

/** `label` followed by the "?" of `term` (for table headers, field labels, headings). */
export function withHelp(label: string, term: HelpTerm): HTMLElement {
  return h('span', { class: 'with-help' }, label, ' ', helpFor(term, label));
}
