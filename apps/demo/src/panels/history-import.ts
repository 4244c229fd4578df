import type { HistoryTurn } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { h } from '../dom.js';
import { createProgressBar } from '../progress.js';

/**
 * Chat-history import: a JSON file of turns (`[{ "input": …, "output": …, "at": "2024-05-01T10:00:00Z" }]`,
 * `at` optional: an ISO date or epoch ms) saved for the current user with `importHistory`, each
 * turn keeping its date, with the library's progress (turns stored, memories embedded) on a bar.
 */
export function createHistoryImport(app: DemoApp, imported: () => void): HTMLElement {
  const file = h('input', { testid: 'history-file', attrs: { type: 'file', accept: 'application/json,.json' } });
  const progress = createProgressBar('history-progress', 'Chat history');
  const result = h('p', { class: 'muted', testid: 'history-result' });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    progress.set(0, 'reading file');
    result.textContent = '';
    const t0 = performance.now();
    const report = await app.guard(async () => {
      app.require('write');
      let turns: HistoryTurn[];
      try {
        turns = toTurns(JSON.parse(await chosen.text()));
      } catch (e) {
        throw new Error(`${chosen.name}: ${(e as Error).message}`);
      }
      return app.manager.importHistory(app.user, TENANT, turns, {
        onProgress: (p) =>
          progress.set(
            (p.saved + p.embedded) / (p.total + Math.max(p.queued, 1)),
            `${p.saved} / ${p.total} turns stored, ${p.embedded} / ${p.queued} memories embedded`,
          ),
      });
    });
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    progress.done(report ? `${report.turns} turns in ${s} s` : 'failed');
    result.textContent = report
      ? `Imported ${report.turns} turns in ${s} s: ${report.longTerm} kept, ${report.memories} memories formed, ${report.embedded} embedded.`
      : `Nothing was imported from ${chosen.name} — see the error above.`;
    file.value = '';
    if (report) imported();
    app.changed('memories');
  });
  return h(
    'div',
    {},
    h('div', { class: 'row' }, h('label', { class: 'file' }, 'Import chat history (JSON turns) ', file)),
    progress.element,
    result,
  );
}

/** The file's turns; `at` as an ISO date becomes epoch ms (the library checks the rest). */
function toTurns(data: unknown): HistoryTurn[] {
  if (!Array.isArray(data)) throw new Error('expected a JSON array of { input, output, at } turns');
  return data.map((t: Record<string, unknown>) =>
    typeof t?.at === 'string'
      ? ({ ...t, at: Date.parse(t.at) } as unknown as HistoryTurn)
      : (t as unknown as HistoryTurn),
  );
}
