import { entryText, reinforceEntry, type MemoryEntry } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { fmt, h, replace, select, whenVisible } from '../dom.js';
import { importanceChartData, renderImportanceChart } from '../importance-chart.js';
import { memorySnippet } from '../responder.js';

/**
 * Importance over time for one memory: lazy exponential decay from its last access, the floor of
 * its kind, the deletion threshold, and what a recall (reinforcement) would do.
 */
export function createImportancePanel(
  app: DemoApp,
  clock: { offsetDays(): number; advance(days: number): void; reset(): void },
): HTMLElement {
  const picker = select('chart-entry', []);
  picker.setAttribute('aria-label', 'Memory to chart');
  const horizon = select(
    'chart-horizon',
    [
      ['30', '30 days'],
      ['90', '90 days'],
      ['365', '1 year'],
    ],
    '90',
  );
  horizon.setAttribute('aria-label', 'Chart horizon');
  const chart = h('div', { class: 'chart-box', testid: 'importance-chart' });
  const facts = h('p', { class: 'muted', testid: 'chart-facts' });
  const clockLabel = h('span', { testid: 'clock-offset' });
  let entries: MemoryEntry[] = [];

  const draw = () => {
    const entry = entries.find((e) => e.id === picker.value);
    if (!entry) {
      replace(chart, h('p', { class: 'muted', text: 'Add or chat some memories first, then pick one here.' }));
      facts.textContent = '';
      return;
    }
    const now = app.manager.now();
    const reinforced = reinforceEntry(entry, now, app.manager.config);
    const data = importanceChartData(entry, reinforced, app.manager.config, now, Number(horizon.value));
    replace(chart, renderImportanceChart(data), legend());
    const eff = app.manager.effectiveImportance(entry);
    facts.textContent =
      `${entry.kind} · base ${fmt(entry.importance, 2)} · effective now ${fmt(eff, 3)} · ` +
      (data.protectedEntry ? 'protected (pinned/core/identity): never decays · ' : `floor ${fmt(data.floor, 2)} · `) +
      `recalled ${entry.accessCount}× · a recall adds ${app.manager.config.reinforcementStep} and restarts decay`;
    facts.dataset.effective = String(eff);
  };

  const load = async () => {
    const list = await app.guard(
      () => app.manager.listMemories(app.user, TENANT, { tiers: ['long_term'], limit: 200 }),
      { background: true },
    );
    entries = list ?? [];
    const wanted = app.chartEntryId ?? picker.value;
    replace(
      picker,
      ...entries.map((e) => h('option', { attrs: { value: e.id }, text: `[${e.kind}] ${memorySnippet(e, 60)}` })),
    );
    if (entries.some((e) => e.id === wanted)) picker.value = wanted;
    clockLabel.textContent = clock.offsetDays() ? `demo clock: +${clock.offsetDays()} days` : 'demo clock: real time';
    draw();
  };

  const recallNow = async () => {
    const entry = entries.find((e) => e.id === picker.value);
    if (!entry) return;
    app.chartEntryId = entry.id;
    await app.guard(() => app.manager.recall(app.user, TENANT, entryText(entry).slice(0, 200), { topK: 3 }));
    app.changed('memories');
  };

  picker.addEventListener('change', () => {
    app.chartEntryId = picker.value;
    draw();
  });
  horizon.addEventListener('change', draw);
  const section = h(
    'section',
    { class: 'panel', testid: 'importance-panel' },
    h('h3', { text: 'Importance over time' }),
    h('div', { class: 'row' }, picker, horizon),
    chart,
    facts,
    h(
      'div',
      { class: 'row' },
      h('button', { testid: 'chart-recall', text: 'Recall it now (reinforce)', on: { click: () => void recallNow() } }),
      h('button', {
        testid: 'clock-advance',
        text: 'Advance demo clock +30 days',
        on: {
          click: () => {
            clock.advance(30);
            app.changed('clock');
            app.changed('memories');
          },
        },
      }),
      h('button', {
        testid: 'clock-reset',
        text: 'Reset clock',
        on: {
          click: () => {
            clock.reset();
            app.changed('clock');
            app.changed('memories');
          },
        },
      }),
      clockLabel,
    ),
  );
  const refresh = whenVisible(section, () => void load());
  app.on('memories', refresh);
  app.on('user', refresh);
  app.on('clock', refresh);
  refresh();
  return section;
}

function legend(): HTMLElement {
  return h(
    'div',
    { class: 'legend' },
    h('span', { class: 'key s0', text: 'effective importance' }),
    h('span', { class: 'key s1', text: 'if recalled now' }),
    h('span', { class: 'key floor', text: 'decay floor' }),
    h('span', { class: 'key threshold', text: 'deletion threshold' }),
  );
}
