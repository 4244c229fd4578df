import { isInteraction, type MemoryEntry } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { field, fmt, fmtDate, h, replace, select, whenVisible } from '../dom.js';
import { confirmAction, createUndoBar, type UndoBar } from '../dialogs.js';
import { helpFor, withHelp, type HelpTerm } from '../help.js';
import { memorySnippet } from '../responder.js';
import { restoreEntries } from '../restore.js';
import { sampleMemories } from '../samples.js';

/** Long-term memories per page: the list keeps at most this many rows in the DOM, whatever the store holds. */
export const PAGE_SIZE = 20;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * A collapsible section of the Memory tab: its summary names and counts it; its "?" (next to the
 * summary, not inside it: a control inside a summary is a nested control) explains it.
 */
function section(
  testid: string,
  title: string,
  term: HelpTerm,
  open: boolean,
  ...children: HTMLElement[]
): { element: HTMLElement; count: HTMLElement } {
  const counter = h('span', { class: 'section-count', testid: `${testid}-count` });
  const details = h(
    'details',
    { class: 'mem-section', testid, attrs: { open } },
    h('summary', {}, h('span', { class: 'section-title', text: title }), ' ', counter),
    ...children,
  );
  return { element: h('div', { class: 'mem-section-wrap' }, details, helpFor(term, title)), count: counter };
}

/**
 * The Memory tab (memtab): recent turns (short-term window), this turn's prompt memories (working
 * memory), the long-term store — filtered and paginated, so 10,000 memories render as one page of
 * rows — and a form to add one. Each is a collapsible section whose summary shows its count.
 * Deleting asks first and offers Undo.
 */
export function createInspectorPanel(app: DemoApp): HTMLElement {
  const shortTerm = h('ol', { class: 'entries', testid: 'short-term-list' });
  const working = h('div', { testid: 'working-list' });
  const longTerm = h('div', { class: 'entries', testid: 'long-term-list' });
  const ltmCount = h('span', { class: 'muted', testid: 'long-term-count' });
  const undo = createUndoBar('ltm-undo');

  const kind = select('filter-kind', [['', 'All kinds']]);
  const tag = h('input', { testid: 'filter-tag', attrs: { placeholder: 'tag' } });
  const from = h('input', { testid: 'filter-from', attrs: { type: 'date' } });
  const to = h('input', { testid: 'filter-to', attrs: { type: 'date' } });
  const text = h('input', { testid: 'filter-text', attrs: { placeholder: 'contains…' } });
  for (const el of [kind, tag, from, to, text]) el.addEventListener('change', () => void refreshLongTerm(true));
  // Text filters apply while typing, not only on Enter or blur.
  let typing: ReturnType<typeof setTimeout> | undefined;
  for (const el of [tag, text]) {
    el.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => void refreshLongTerm(true), 250);
    });
  }

  // Paging: `page` is 0-based; a changed filter goes back to the first page.
  let page = 0;
  let total = 0;
  const lastPage = () => Math.max(0, Math.ceil(total / PAGE_SIZE) - 1);
  const pageLabel = h('span', { class: 'pager-label', testid: 'ltm-page-label', attrs: { 'aria-live': 'polite' } });
  const goto = (p: number) => {
    page = Math.min(Math.max(0, p), lastPage());
    void refreshLongTerm(true, true);
  };
  const pagerButton = (testid: string, text: string, label: string, to: () => number) =>
    h('button', {
      testid,
      text,
      title: label,
      attrs: { type: 'button', 'aria-label': label },
      on: { click: () => goto(to()) },
    });
  const first = pagerButton('ltm-page-first', '«', 'First page', () => 0);
  const prev = pagerButton('ltm-page-prev', '‹ Previous', 'Previous page', () => page - 1);
  const next = pagerButton('ltm-page-next', 'Next ›', 'Next page', () => page + 1);
  const last = pagerButton('ltm-page-last', '»', 'Last page', lastPage);
  const pager = h(
    'nav',
    { class: 'pager', testid: 'ltm-pager', attrs: { 'aria-label': 'Long-term memory pages' } },
    first,
    prev,
    pageLabel,
    next,
    last,
  );
  const renderPager = () => {
    const start = total ? page * PAGE_SIZE + 1 : 0;
    const end = Math.min(total, (page + 1) * PAGE_SIZE);
    pageLabel.textContent = total ? `${count(start)}–${count(end)} of ${count(total)}` : '0 of 0';
    pageLabel.dataset.page = String(page);
    first.disabled = prev.disabled = page === 0;
    next.disabled = last.disabled = page >= lastPage();
    pager.hidden = total <= PAGE_SIZE && page === 0;
  };

  const refreshShortTerm = () => {
    // Asking for the window of a user without a role would create one for them.
    if (!app.manager.can(app.user, TENANT, 'read')) {
      replace(shortTerm, h('li', { class: 'muted empty', text: 'Not allowed to read as this user.' }));
      recent.count.textContent = '';
      return;
    }
    const entries = app.manager.shortTerm(TENANT, app.user).getAll();
    recent.count.textContent = `(${entries.length} of ${app.manager.config.windowSize})`;
    replace(
      shortTerm,
      ...(entries.length
        ? entries.map((e) => h('li', { testid: 'short-term-item' }, tierBadge(e), memorySnippet(e)))
        : [h('li', { class: 'muted empty', text: 'Empty: chat to fill the sliding window.' })]),
    );
  };

  const refreshWorking = () => {
    const scored = app.lastTurn?.context.working ?? [];
    prompt.count.textContent = `(${scored.length})`;
    if (!scored.length) {
      replace(
        working,
        h('p', {
          class: 'muted',
          text: 'Rebuilt on every turn: the long-term memories picked for the last reply (recent turns go in as history instead).',
        }),
      );
      return;
    }
    replace(
      working,
      table(
        [
          'memory',
          withHelp('match', 'match'),
          withHelp('recency', 'recency'),
          withHelp('importance', 'importance'),
          withHelp('score', 'score'),
        ],
        scored.map((w) =>
          memoryRow('working-row', w.entry, 90, num(w.relevance), num(w.recency), num(w.importance), num(w.score)),
        ),
      ),
      h('p', {
        class: 'muted',
        text: `${app.manager.workingMemory(TENANT, app.user).tokenCount} tokens in working memory`,
      }),
    );
  };

  // `force`: the visitor changed a filter or the page. Otherwise (a change elsewhere, another tab,
  // background indexing) an open editor is left alone: re-rendering would throw away what is
  // being typed. Closing the editor announces a change, which catches the list up.
  let generation = 0;
  let renderedFilter = '';
  const editorOpen = () => longTerm.querySelector('[data-testid="ltm-editor"]') !== null;
  const refreshLongTerm = async (force = false, paging = false) => {
    const filter = {
      ...(kind.value ? { kinds: [kind.value] } : {}),
      ...(tag.value.trim() ? { tags: [tag.value.trim()] } : {}),
      ...(from.value ? { createdFrom: new Date(`${from.value}T00:00:00`).getTime() } : {}),
      ...(to.value ? { createdTo: new Date(`${to.value}T23:59:59.999`).getTime() } : {}),
      ...(text.value.trim() ? { text: text.value.trim() } : {}),
    };
    // Only a filter (or page) that really changed may replace an open editor (a late, debounced
    // filter event with the filter already shown must not).
    const filterJson = JSON.stringify(filter);
    if (force && !paging && filterJson !== renderedFilter.split('#')[0]) page = 0;
    const filterKey = `${filterJson}#${page}`;
    const mayReplaceEditor = force && filterKey !== renderedFilter;
    if (editorOpen() && !mayReplaceEditor) return;
    const mine = ++generation;
    const result = await app.guard(
      async () => {
        const total = await app.manager.countMemories(app.user, TENANT, { tiers: ['long_term'], ...filter });
        // A page past the end (the last memory of the last page was deleted) shows the last page.
        const at = Math.min(page, Math.max(0, Math.ceil(total / PAGE_SIZE) - 1));
        const entries = await app.manager.listMemories(app.user, TENANT, {
          ...filter,
          tiers: ['long_term'],
          limit: PAGE_SIZE,
          offset: at * PAGE_SIZE,
        });
        // The turns formed memories came from (`metadata.sources`), to show each memory's source.
        const sourceIds = [...new Set(entries.flatMap(sourcesOf))];
        const sources = new Map(
          (sourceIds.length ? await app.manager.listMemories(app.user, TENANT, { ids: sourceIds }) : []).map(
            (e) => [e.id, e] as const,
          ),
        );
        const stats = await app.manager.stats(TENANT);
        return { entries, sources, total, at, kinds: Object.keys(stats.storage.byKind).sort() };
      },
      { background: true, needs: 'read' },
    );
    if (!result) {
      replace(longTerm, h('p', { class: 'muted', text: 'Not allowed to read as this user.' }));
      ltmCount.textContent = '';
      total = 0;
      renderPager();
      return;
    }
    const current = kind.value;
    replace(
      kind,
      h('option', { attrs: { value: '' }, text: 'All kinds' }),
      ...result.kinds.map((k) => h('option', { attrs: { value: k }, text: k })),
    );
    kind.value = result.kinds.includes(current) ? current : '';
    // A newer refresh renders instead; an editor opened while this one was reading is left alone.
    if (mine !== generation) return;
    if (editorOpen() && !mayReplaceEditor) return;
    total = result.total;
    page = result.at;
    ltmCount.textContent = `(${count(result.total)}${Object.keys(filter).length ? ' match' : ''})`;
    ltmCount.dataset.total = String(result.total);
    renderPager();
    renderedFilter = `${filterJson}#${page}`;
    replace(
      longTerm,
      ...(result.entries.length
        ? result.entries.map((e) => row(app, e, result.sources, undo))
        : [h('p', { class: 'muted', text: 'No long-term memories match.' })]),
    );
  };

  const recent = section(
    'sec-short-term',
    'Recent turns',
    'short-term',
    false,
    h('p', { class: 'muted', text: `The last ${app.manager.config.windowSize} turns of this session, oldest first.` }),
    shortTerm,
  );
  const prompt = section('sec-working', 'In the last prompt', 'working', true, working);
  const stored = section(
    'sec-long-term',
    'Long-term memories',
    'long-term',
    true,
    h(
      'div',
      { class: 'filters' },
      field('kind', kind),
      field('tag', tag),
      field('from', from),
      field('to', to),
      field('contains', text),
    ),
    undo.element,
    longTerm,
    pager,
  );
  // The count next to the title is the filtered total.
  stored.count.replaceWith(ltmCount);
  const panel = h(
    'section',
    { class: 'panel', testid: 'inspector-panel' },
    recent.element,
    prompt.element,
    addForm(app),
    stored.element,
  );
  const refresh = whenVisible(panel, () => {
    refreshShortTerm();
    refreshWorking();
    void refreshLongTerm();
  });
  app.on('memories', refresh);
  app.on('user', () => {
    // Another user's store is another list: start at its first page, and an undo offer of the
    // previous user's delete no longer applies.
    page = 0;
    undo.clear();
    refresh();
  });
  app.on('turn', refresh);
  refresh();
  return panel;
}

function addForm(app: DemoApp): HTMLElement {
  const title = h('input', { testid: 'add-title', attrs: { placeholder: 'Title', 'aria-label': 'Title' } });
  const body = h('input', {
    testid: 'add-text',
    attrs: { placeholder: 'What to remember', 'aria-label': 'What to remember' },
  });
  const kind = select(
    'add-kind',
    ['fact', 'preference', 'event', 'task', 'ephemeral'].map((k) => [k, k]),
  );
  kind.setAttribute('aria-label', 'Kind');
  const tags = h('input', {
    testid: 'add-tags',
    attrs: { placeholder: 'tags, comma separated', 'aria-label': 'Tags, comma separated' },
  });
  const add = h('button', { testid: 'add-submit', text: 'Remember' });
  const samples = h('button', { testid: 'add-samples', text: 'Add sample memories' });
  add.addEventListener('click', async () => {
    const ok = await app.guard(() =>
      app.manager.remember(app.user, TENANT, {
        title: title.value,
        text: body.value,
        kind: kind.value,
        tags: splitTags(tags.value),
      }),
    );
    if (ok) {
      title.value = body.value = tags.value = '';
      app.changed('memories');
    }
  });
  samples.addEventListener('click', async () => {
    await app.guard(async () => {
      for (const s of sampleMemories()) await app.manager.remember(app.user, TENANT, s);
    });
    app.changed('memories');
  });
  return h(
    'details',
    { class: 'add mem-section', testid: 'sec-add' },
    h('summary', { testid: 'add-toggle' }, h('span', { class: 'section-title', text: 'Add a memory' })),
    title,
    body,
    kind,
    tags,
    add,
    samples,
  );
}

/** The turn entry ids a formed memory came from. */
function sourcesOf(entry: MemoryEntry): string[] {
  const s = entry.metadata.sources;
  return Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [];
}

/** Where a formed memory came from: whom it is about and the turn(s) that said it. */
function formedFrom(entry: MemoryEntry, sources: ReadonlyMap<string, MemoryEntry>): HTMLElement | null {
  const ids = sourcesOf(entry);
  if (!ids.length) return null;
  const said = ids
    .map((id) => sources.get(id))
    .map((t) => (t && isInteraction(t.content) ? `“${oneLine(t.content.input, 120)}”` : 'a turn no longer stored'));
  const about = typeof entry.metadata.about === 'string' ? `about ${entry.metadata.about} · ` : '';
  return h('div', {
    class: 'entry-reply muted',
    testid: 'ltm-source',
    text: `${about}formed from ${said.length === 1 ? 'turn' : `${said.length} turns`} ${said.join(', ')}`,
  });
}

function row(app: DemoApp, entry: MemoryEntry, sources: ReadonlyMap<string, MemoryEntry>, undo: UndoBar): HTMLElement {
  const pinned = entry.tags.includes('pinned');
  const eff = app.manager.effectiveImportance(entry);
  const view = h(
    'div',
    { class: 'entry-body' },
    h('div', { class: 'entry-text', testid: 'ltm-text', text: memorySnippet(entry, 240) }),
    // A turn is shown by the user's words; its reply is part of the memory too (text filters match it).
    isInteraction(entry.content)
      ? h('div', { class: 'entry-reply muted', testid: 'ltm-reply', text: `↳ ${oneLine(entry.content.output, 160)}` })
      : formedFrom(entry, sources),
    h(
      'div',
      { class: 'entry-meta' },
      h('span', { class: 'badge', testid: 'ltm-kind', text: entry.kind }),
      ...entry.tags.map((t) =>
        h('span', { class: `badge tag${t === 'pinned' ? ' pin' : ''}`, testid: 'ltm-tag', text: t }),
      ),
      h('span', {
        class: 'muted',
        text: ` ${fmtDate(entry.createdAt)} · importance ${fmt(entry.importance, 2)} → ${fmt(eff, 2)} · recalled ${entry.accessCount}×`,
      }),
    ),
  );
  const el = h(
    'div',
    { class: `entry${pinned ? ' pinned' : ''}`, testid: 'ltm-row', attrs: { 'data-id': entry.id } },
    view,
  );
  const actions = h(
    'div',
    { class: 'entry-actions' },
    h('button', {
      testid: 'ltm-pin',
      text: pinned ? 'Unpin' : 'Pin',
      on: { click: () => void pin(app, entry, !pinned) },
    }),
    h('button', {
      testid: 'ltm-edit',
      text: 'Edit',
      on: {
        click: () =>
          el.replaceChildren(
            editor(app, entry, () => {
              el.replaceChildren(view, actions);
              app.changed('memories');
            }),
          ),
      },
    }),
    h('button', {
      testid: 'ltm-chart',
      text: 'Chart',
      on: {
        click: () => {
          app.chartEntryId = entry.id;
          app.changed('clock');
          document.querySelector<HTMLElement>('[data-tab="importance"]')?.click();
        },
      },
    }),
    h('button', {
      class: 'danger',
      testid: 'ltm-delete',
      text: 'Delete',
      on: { click: (e) => void remove(app, entry, undo, e.currentTarget as HTMLElement) },
    }),
  );
  el.append(actions);
  return el;
}

function editor(app: DemoApp, entry: MemoryEntry, close: () => void): HTMLElement {
  const c = entry.content;
  const first = h('input', { testid: 'edit-title', attrs: { value: isInteraction(c) ? c.input : c.title } });
  const second = h('textarea', { testid: 'edit-text', attrs: { rows: 3 } });
  second.value = isInteraction(c) ? c.output : c.text;
  const importance = h('input', {
    testid: 'edit-importance',
    attrs: { type: 'number', min: 0, max: 1, step: 0.05, value: entry.importance },
  });
  const tags = h('input', { testid: 'edit-tags', attrs: { value: entry.tags.join(', ') } });
  const save = h('button', { class: 'primary', testid: 'edit-save', text: 'Save' });
  save.addEventListener('click', async () => {
    const content = isInteraction(c)
      ? { input: first.value, output: second.value }
      : { title: first.value, text: second.value };
    const ok = await app.guard(() =>
      app.manager.updateMemory(app.user, TENANT, entry.id, {
        content,
        importance: Number(importance.value),
        tags: splitTags(tags.value),
      }),
    );
    if (ok) close();
  });
  return h(
    'div',
    { class: 'editor', testid: 'ltm-editor' },
    field(isInteraction(c) ? 'User said' : 'Title', first),
    field(isInteraction(c) ? 'Reply' : 'Text', second),
    field('Importance', importance),
    field('Tags', tags),
    h('div', {}, save, h('button', { testid: 'edit-cancel', text: 'Cancel', on: { click: close } })),
  );
}

async function pin(app: DemoApp, entry: MemoryEntry, on: boolean): Promise<void> {
  const tags = on ? [...entry.tags, 'pinned'] : entry.tags.filter((t) => t !== 'pinned');
  const ok = await app.guard(() => app.manager.updateMemory(app.user, TENANT, entry.id, { tags }));
  if (ok) app.changed('memories');
}

/**
 * Delete after asking (in the page, not `window.confirm`), then offer Undo: the exact entry — id,
 * content, kind, importance, tags, metadata, times — goes back through the library's import. A
 * user without the delete permission is not asked: the library's own refusal shows instead.
 */
async function remove(app: DemoApp, entry: MemoryEntry, undo: UndoBar, near: HTMLElement): Promise<void> {
  const what = memorySnippet(entry, 80);
  if (app.manager.can(app.user, TENANT, 'delete')) {
    const sure = await confirmAction({
      title: 'Delete this memory?',
      message: `“${what}” will be removed from long-term memory (you can undo this right after).`,
      confirmLabel: 'Delete',
    });
    if (!sure) return;
  }
  const ok = await app.guard(() => app.manager.deleteMemory(app.user, TENANT, entry.id), { near });
  if (ok === undefined) return;
  app.changed('memories');
  undo.offer(`Deleted “${what}”.`, async () => {
    const restored = await app.guard(async () => {
      app.require('delete');
      return restoreEntries(app, [entry]);
    });
    if (restored === undefined) return undefined;
    app.changed('memories');
    return `Restored “${what}”.`;
  });
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function splitTags(value: string): string[] {
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

function tierBadge(entry: MemoryEntry): HTMLElement {
  return h('span', { class: 'badge', text: entry.tier === 'long_term' ? 'also long-term' : 'short-term only' });
}

/** A small table. */
export function table(headers: (string | HTMLElement)[], rows: HTMLElement[]): HTMLTableElement {
  return h('table', {}, h('thead', {}, h('tr', {}, ...headers.map((t) => h('th', {}, t)))), h('tbody', {}, ...rows));
}

/** A row of a table of memories: the memory (its snippet, at most `max` characters), then `cells`. */
export function memoryRow(
  testid: string,
  entry: MemoryEntry,
  max: number,
  ...cells: HTMLElement[]
): HTMLTableRowElement {
  return h('tr', { testid }, h('td', { text: memorySnippet(entry, max) }), ...cells);
}

/** A numeric cell. */
export function num(n: number | undefined, digits = 3): HTMLTableCellElement {
  return h('td', { class: 'num', text: fmt(n, digits) });
}
