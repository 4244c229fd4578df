import type { DemoApp, Turn } from './app.js';
import { h } from './dom.js';

const DISMISSED_KEY = 'zerda-demo:guide-dismissed';
const DONE_KEY = 'zerda-demo:guide-done';

/** The fact the guide tells the chat, and the question it asks about it. */
export const GUIDE_FACT = 'My sister Ana lives in Lisbon.';
export const GUIDE_QUESTION = 'Where does my sister live?';

/** What the guided start needs from the page: real actions, nothing simulated. */
export interface GuideHooks {
  /** Send a chat message through the chat panel's own send path. */
  say(text: string): Promise<Turn | undefined>;
  /** Show a tab of the inspector. */
  showTab(id: 'memory' | 'recall' | 'importance' | 'profile' | 'privacy' | 'data'): void;
  /** Press the header clock's "+1 year". */
  jumpYear(): void;
}

type StepId = 'tell' | 'ask' | 'clock' | 'encrypt';
/** What a step did: the sentence that says where to look, and whether the step is now done (default true). */
interface Outcome {
  look: string;
  done?: boolean;
}

/** The guided start: the card (in the page flow, not a dialog) and the header button that reopens it. */
export interface Guide {
  card: HTMLElement;
  /** The header's "Guide" toggle. */
  button: HTMLButtonElement;
}

/**
 * A first-visit card with four "try this" actions that run against the real library, each pointing
 * at where its effect shows: it switches to that tab, scrolls to the element, outlines it, and says
 * in one sentence what to look at. Shown on the first visit only; "Hide" is remembered, and the
 * header's "Guide" button brings it back.
 */
export function createGuide(app: DemoApp, hooks: GuideHooks): Guide {
  const done = new Set<StepId>(readDone());
  const title = h('h2', { text: 'New here? Try this', attrs: { id: 'guide-title', tabindex: -1 } });
  const list = h('ol', { class: 'guide-steps' });
  const steps = new Map<StepId, { li: HTMLLIElement; look: HTMLElement; run: HTMLButtonElement }>();

  /** `perform` resolves to where to look, and whether that finished the step (null: it failed). */
  const step = (id: StepId, what: string, action: string, perform: () => Promise<Outcome | null>) => {
    const look = h('p', { class: 'guide-look', testid: `guide-look-${id}`, attrs: { 'aria-live': 'polite' } });
    const run = h('button', { class: 'primary', testid: `guide-step-${id}`, text: action, attrs: { type: 'button' } });
    const state = h('span', {
      class: 'guide-done',
      testid: `guide-done-${id}`,
      text: '✓ done',
      attrs: { hidden: true },
    });
    const li = h(
      'li',
      { class: 'guide-step', testid: `guide-${id}` },
      h('span', { class: 'guide-what', text: what }),
      run,
      state,
      look,
    );
    run.addEventListener('click', async () => {
      run.disabled = true;
      clearHighlight();
      look.textContent = 'Working…';
      try {
        const outcome = await perform();
        look.textContent = outcome?.look ?? 'That did not work: the message at the top of the page says why.';
        if (outcome && outcome.done !== false) markDone(id);
      } finally {
        run.disabled = false;
      }
    });
    steps.set(id, { li, look, run });
    list.append(li);
    render();
  };

  const markDone = (id: StepId) => {
    done.add(id);
    localStorage.setItem(DONE_KEY, JSON.stringify([...done]));
    render();
  };
  function render() {
    for (const [id, { li, run }] of steps) {
      const isDone = done.has(id);
      li.dataset.done = String(isDone);
      li.querySelector<HTMLElement>('.guide-done')!.hidden = !isDone;
      run.classList.toggle('again', isDone);
    }
  }

  step('tell', '1. Tell it a fact.', `Say “${GUIDE_FACT}”`, async () => {
    const turn = await hooks.say(GUIDE_FACT);
    if (!turn) return null;
    hooks.showTab('memory');
    // The memory formed from the turn (the fact), else the stored turn itself.
    const ids = [...turn.formed.map((e) => e.id), ...(turn.saved ? [turn.saved.id] : [])];
    const row = await waitFor(() => ids.map(rowSelector).find((sel) => openAround(sel)) ?? null);
    if (row) point(row);
    return {
      look:
        turn.saved?.tier === 'long_term' || turn.formed.length
          ? 'Look at Memory → Long-term memory: the outlined entry is what it kept from your sentence, with its kind (fact) and its importance.'
          : 'This turn was kept with the recent turns only (Memory → Short-term window): it did not carry anything worth keeping long-term.',
    };
  });

  step('ask', '2. Ask about it.', `Ask “${GUIDE_QUESTION}”`, async () => {
    const turn = await hooks.say(GUIDE_QUESTION);
    if (!turn) return null;
    hooks.showTab('recall');
    if (await waitFor(() => (document.querySelector(RECALL_ROW) ? RECALL_ROW : null))) point(RECALL_ROW);
    return turn.context.recalled.length
      ? {
          look: 'The reply came from memory: Recall shows the memory it found for your question (outlined), with its keyword match, meaning match and combined score.',
        }
      : { look: 'Nothing was recalled: tell it the fact first (step 1), then ask again.', done: false };
  });

  step('clock', '3. Jump the clock a year.', 'Move the clock +1 year', async () => {
    // The fact from step 1, if there is one, is the memory the chart follows.
    const fact = app.turns.flatMap((t) => t.formed).find((e) => e.kind === 'fact');
    if (fact) app.chartEntryId = fact.id;
    hooks.jumpYear();
    hooks.showTab('importance');
    point('[data-testid="importance-chart"]', '[data-testid="clock-bar"]');
    return {
      look: 'The demo clock in the header now reads a year later. The chart shows the memory’s importance fading over time (“importance now” dropped); Maintenance would delete what fell below the deletion line. “Reset to now” in the header brings the clock back.',
    };
  });

  step('encrypt', '4. Turn on encryption.', 'Show me how', async () => {
    hooks.showTab('privacy');
    const input = document.querySelector<HTMLInputElement>('[data-testid="passphrase-input"]');
    if (!input) return null;
    point('[data-testid="passphrase-input"]');
    input.focus();
    if (app.memory.encrypted) {
      point(BADGE);
      return {
        look: 'Encryption is already on: the header says “encrypted”. Everything this demo writes to your browser’s storage is unreadable without the passphrase.',
      };
    }
    // Done when the visitor really encrypts (the `encryption` topic below), not now.
    return {
      look: 'Type a passphrase you will remember into the outlined field and press “Encrypt with this passphrase”. The header then says “encrypted”, and a reload asks for the passphrase. (Forget it and the memories are gone for good.)',
      done: false,
    };
  });

  // Step 4 is done when the visitor really encrypts, not when the guide shows the field.
  app.on('encryption', () => {
    if (!app.memory.encrypted) return;
    markDone('encrypt');
    const look = steps.get('encrypt')!.look;
    look.textContent =
      'Encrypted. The header badge now says “encrypted”: every byte written to IndexedDB is AES-GCM encrypted.';
    point(BADGE);
  });

  const hide = h('button', {
    class: 'guide-hide',
    testid: 'guide-dismiss',
    text: 'Hide guide',
    attrs: { type: 'button' },
  });
  const card = h(
    'section',
    { class: 'guide', testid: 'guide-card', attrs: { id: 'guide-card', 'aria-labelledby': 'guide-title' } },
    h('div', { class: 'guide-head' }, title, hide),
    h('p', {
      class: 'muted',
      text: 'Four things to try. Each runs for real in your browser and shows you where to look. The “?” buttons explain every score and term.',
    }),
    list,
  );
  const button = h('button', {
    class: 'guide-open',
    testid: 'guide-open',
    text: 'Guide',
    title: 'Show the guided start',
    attrs: { type: 'button', 'aria-controls': 'guide-card' },
  });
  const setOpen = (open: boolean) => {
    card.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
  };
  hide.addEventListener('click', () => {
    localStorage.setItem(DISMISSED_KEY, '1');
    clearHighlight();
    setOpen(false);
    button.focus();
  });
  button.addEventListener('click', () => {
    const open = card.hidden;
    setOpen(open);
    if (open) {
      card.scrollIntoView({ block: 'nearest' });
      title.focus();
    } else localStorage.setItem(DISMISSED_KEY, '1');
  });
  setOpen(localStorage.getItem(DISMISSED_KEY) !== '1');
  return { card, button };
}

function readDone(): StepId[] {
  try {
    const v = JSON.parse(localStorage.getItem(DONE_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? (v.filter((x) => typeof x === 'string') as StepId[]) : [];
  } catch {
    return [];
  }
}

// The best hit (rows are best first).
const RECALL_ROW = '[data-testid="recall-row"]:first-child';
const BADGE = '[data-testid="storage-status"]';

/** The selector of a memory's row in the Memory tab. */
function rowSelector(id: string): string {
  return `[data-testid="ltm-row"][data-id="${CSS.escape(id)}"]`;
}

/** Whether `selector` is on the page; opens collapsed sections around it so it can be seen. */
function openAround(selector: string): boolean {
  const el = document.querySelector(selector);
  for (let d = el?.closest('details'); d; d = d.parentElement?.closest('details')) d.open = true;
  return el !== null;
}

/**
 * Outline what `selectors` match, and scroll the first into view, until the next step (or hiding
 * the guide). Panels re-render their lists when anything changes (indexing, other tabs), so the
 * outline follows the selector onto the new elements instead of being lost with the old ones.
 */
let outlined: string[] = [];
const keeper = new MutationObserver(() => mark());
function mark(): void {
  for (const sel of outlined)
    for (const el of document.querySelectorAll(sel))
      if (!el.classList.contains('guide-highlight')) el.classList.add('guide-highlight');
}
function point(...selectors: string[]): void {
  clearHighlight();
  outlined = selectors;
  mark();
  document.querySelector(selectors[0]!)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  keeper.observe(document.body, { childList: true, subtree: true });
}

function clearHighlight(): void {
  outlined = [];
  keeper.disconnect();
  for (const el of document.querySelectorAll('.guide-highlight')) el.classList.remove('guide-highlight');
}

/** Poll for something the panels render asynchronously (after their refresh), up to 5 s. */
async function waitFor<T>(find: () => T | null): Promise<T | null> {
  for (let i = 0; i < 50; i++) {
    const found = find();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}
