import { entryText, reinforceEntry, type MemoryEntry } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { fmt, h, replace, select, whenVisible } from '../dom.js';
import { helpFor, withHelp } from '../help.js';
import { importanceChartData, renderImportanceChart } from '../importance-chart.js';
import { memorySnippet } from '../responder.js';

/**
 * Importance over time for one memory: lazy exponential decay from its last access, the floor of
 * its kind, the deletion threshold, and what a recall (reinforcement) would do. "Now" is the demo
 * clock in the header (`app.manager.now()`); moving it redraws the chart (topic `clock`).
 */
export function createImportancePanel(app: DemoApp): HTMLElement {
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
  // Built once, outside the redrawn chart: an open "?" stays open while the clock moves.
  const key = legend();
  let entries: MemoryEntry[] = [];

  const draw = () => {
    const entry = entries.find((e) => e.id === picker.value);
    if (!entry) {
      replace(chart, h('p', { class: 'muted', text: 'Add or chat some memories first, then pick one here.' }));
      key.hidden = true;
      facts.textContent = '';
      return;
    }
    const now = app.manager.now();
    const reinforced = reinforceEntry(entry, now, app.manager.config);
    const data = importanceChartData(entry, reinforced, app.manager.config, now, Number(horizon.value));
    replace(chart, renderImportanceChart(data));
    key.hidden = false;
    const eff = app.manager.effectiveImportance(entry);
    facts.textContent =
      `${entry.kind} · importance ${fmt(entry.importance, 2)} when last used → ${fmt(eff, 3)} now · ` +
      (data.protectedEntry ? 'protected (pinned/core/identity): never fades · ' : `floor ${fmt(data.floor, 2)} · `) +
      `recalled ${entry.accessCount}× · each recall adds ${app.manager.config.reinforcementStep} and restarts the fading`;
    facts.dataset.effective = String(eff);
  };

  const load = async () => {
    const list = await app.guard(
      () => app.manager.listMemories(app.user, TENANT, { tiers: ['long_term'], limit: 200 }),
      { background: true, needs: 'read' },
    );
    entries = list ?? [];
    const wanted = app.chartEntryId ?? picker.value;
    replace(
      picker,
      ...entries.map((e) => h('option', { attrs: { value: e.id }, text: `[${e.kind}] ${memorySnippet(e, 60)}` })),
    );
    if (entries.some((e) => e.id === wanted)) picker.value = wanted;
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
    h('h3', {}, 'Importance over time ', helpFor('decay')),
    h('div', { class: 'row' }, picker, horizon),
    chart,
    key,
    facts,
    h(
      'div',
      { class: 'row' },
      h('button', { testid: 'chart-recall', text: 'Recall it now (boost)', on: { click: () => void recallNow() } }),
      helpFor('reinforcement'),
    ),
    h('p', {
      class: 'muted',
      text: 'To watch it fade, move the demo clock in the header forward (+1 month, +1 year); “Reset to now” brings it back.',
    }),
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
    h('span', { class: 'key s0' }, withHelp('importance now', 'effective')),
    h('span', { class: 'key s1' }, withHelp('if recalled now', 'reinforcement')),
    h('span', { class: 'key floor' }, withHelp('floor', 'floor')),
    h('span', { class: 'key threshold' }, withHelp('deletion line', 'threshold')),
  );
}
