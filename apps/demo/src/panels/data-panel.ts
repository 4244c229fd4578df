import type { MaintenancePreview, MaintenanceReport, MemoryEntry } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { confirmAction, createUndoBar } from '../dialogs.js';
import { download, fmt, fmtDate, h, replace } from '../dom.js';
import { restoreEntries } from '../restore.js';
import { helpFor } from '../help.js';
import { createHistoryImport } from './history-import.js';
import { createProgressBar } from '../progress.js';
import { memorySnippet } from '../responder.js';

/** Maintenance (forgetting, compression), re-indexing, statistics, backups, export and import. */
export function createDataPanel(app: DemoApp): HTMLElement {
  const upkeep = maintenance(app);
  return h(
    'section',
    { class: 'panel', testid: 'data-panel' },
    h('h3', {}, 'Maintenance ', helpFor('maintenance')),
    upkeep.element,
    h('h3', { text: 'Statistics' }),
    stats(app),
    h('h3', {}, 'Backups, export and import ', helpFor('backup')),
    // A restore or an import replaces what a maintenance report (and its Undo) described.
    backups(app, upkeep.reset),
    createHistoryImport(app, () => upkeep.reset('A chat history was imported since the last maintenance run.')),
  );
}

function maintenance(app: DemoApp): { element: HTMLElement; reset: (why: string) => void } {
  const report = h('div', { testid: 'maintenance-report' });
  const undo = createUndoBar('maintenance-undo');
  const run = h('button', { class: 'primary', testid: 'maintenance-run', text: 'Run maintenance' });
  const reindex = h('button', { testid: 'reindex-run', text: 'Re-index vectors' });
  const clear = h('button', { class: 'danger', testid: 'clear-tenant', text: 'Delete all memories' });
  clear.addEventListener('click', async () => {
    const ok = await confirmAction({
      title: 'Delete all memories?',
      message: 'Every memory, vector and profile of this demo tenant is deleted. Backups are kept.',
      confirmLabel: 'Delete all',
    });
    if (!ok) return;
    // Clearing a tenant is an app-level operation (no user); the demo still asks for the admin role.
    const r = await app.guard(async () => {
      app.require('admin');
      return app.manager.clearTenant(TENANT);
    });
    if (r) replace(report, h('p', { testid: 'clear-result', text: `Deleted ${r.entries} memories.` }));
    app.changed('memories');
  });
  const progress = createProgressBar('reindex-progress', 'Re-indexing');
  // Maintenance deletes: it shows what it will forget (and why) and asks first; afterwards it
  // offers Undo, which puts the forgotten and merged memories back and removes the summaries.
  run.addEventListener('click', async () => {
    run.disabled = true;
    undo.clear();
    try {
      // App-level operations take no user; the demo still asks for the admin role, fail-closed.
      const preview = await app.guard(
        async () => {
          app.require('admin');
          return app.manager.previewMaintenance(TENANT);
        },
        { near: run },
      );
      if (!preview) return;
      const merged = preview.compress?.flatMap((b) => b.entries) ?? [];
      const destructive = preview.forget.length + merged.length + preview.shortTermEvict > 0;
      if (destructive) {
        const sure = await confirmAction({
          title: 'Run maintenance?',
          message: previewSummary(preview),
          details: describePreview(preview),
          confirmLabel: preview.forget.length ? `Forget ${plural(preview.forget.length, 'memory', 'memories')}` : 'Run',
        });
        if (!sure) return;
      }
      const done = await app.guard(async () => {
        app.require('admin');
        return app.manager.runMaintenance(TENANT);
      });
      if (!done) return;
      const before = new Map<string, MemoryEntry>(
        [...preview.forget.map((f) => f.entry), ...merged].map((e) => [e.id, e]),
      );
      replace(report, describeReport(done, new Map([...before].map(([id, e]) => [id, memorySnippet(e, 60)]))));
      app.changed('memories');
      // What the run removed, exactly as it was (the preview read it just before).
      const removed = [...done.deleted, ...(done.compression?.removed ?? [])]
        .map((id) => before.get(id))
        .filter((e): e is MemoryEntry => e !== undefined);
      const summaries = done.compression?.summaries.map((e) => e.id) ?? [];
      if (removed.length)
        undo.offer(
          `Maintenance forgot ${plural(done.deleted.length, 'memory', 'memories')}${summaries.length ? ` and merged ${done.compression!.removed.length} into ${plural(summaries.length, 'summary', 'summaries')}` : ''}.`,
          async () => {
            const restored = await app.guard(async () => {
              app.require('admin');
              const n = await restoreEntries(app, removed);
              for (const id of summaries) await app.manager.deleteMemory(app.user, TENANT, id);
              return n;
            });
            if (restored === undefined) return undefined;
            replace(report, h('p', { class: 'muted', testid: 'maintenance-undone', text: 'Maintenance undone.' }));
            app.changed('memories');
            return `Put back ${plural(restored, 'memory', 'memories')}${summaries.length ? ` and removed ${plural(summaries.length, 'summary', 'summaries')}` : ''}.`;
          },
        );
    } finally {
      run.disabled = false;
    }
  });
  reindex.addEventListener('click', async () => {
    reindex.disabled = true;
    progress.set(0, 'starting');
    const report = await app.guard(async () => {
      app.require('admin');
      return app.manager.reindex(TENANT, {
        force: true,
        onProgress: (done, total) => progress.set(total ? done / total : 1, `${done} / ${total}`),
      });
    });
    progress.done(report ? `${report.embedded} of ${report.total} memories re-embedded` : 'failed');
    reindex.disabled = false;
    app.changed('memories');
  });
  const element = h(
    'div',
    {},
    h('p', {
      class: 'muted',
      text: 'Deletes memories whose effective importance decayed below the threshold (pinned, core and identity never), compresses old ones into summaries when the store is near capacity, and evicts faded short-term turns. It shows what it will delete and asks first; Undo puts it back. Running it twice changes nothing the second time.',
    }),
    h('div', { class: 'row' }, run, reindex, clear),
    progress.element,
    undo.element,
    report,
  );
  const reset = (why: string) => {
    undo.clear();
    replace(report, h('p', { class: 'muted', testid: 'maintenance-stale', text: why }));
  };
  return { element, reset };
}

/** One sentence: what maintenance is about to do, as of the demo clock. */
function previewSummary(p: MaintenancePreview): string {
  const merged = p.compress?.reduce((n, b) => n + b.entries.length, 0) ?? 0;
  const parts = [
    `forget ${plural(p.forget.length, 'memory', 'memories')} of ${p.examined}`,
    ...(merged ? [`merge ${merged} old ones into ${plural(p.compress!.length, 'summary', 'summaries')}`] : []),
    ...(p.shortTermEvict ? [`drop ${plural(p.shortTermEvict, 'faded recent turn')}`] : []),
  ];
  return `As of ${fmtDate(p.at)} (the demo clock), maintenance will ${parts.join(', ')}.`;
}

/** Forgotten memories listed one by one in the preview (the rest are counted). */
const PREVIEW_ROWS = 100;

/** The memories maintenance would forget, each with why, and the batches it would merge. */
function describePreview(p: MaintenancePreview): HTMLElement {
  return h(
    'div',
    // Focusable: a long preview scrolls, and the keyboard must be able to scroll it.
    {
      class: 'maintenance-preview',
      testid: 'maintenance-preview',
      attrs: { tabindex: 0, role: 'region', 'aria-label': 'What maintenance will change' },
    },
    p.forget.length
      ? h(
          'div',
          {},
          h('h3', { text: `Will be forgotten (${p.forget.length})` }),
          h(
            'ul',
            { class: 'forgotten' },
            ...p.forget.slice(0, PREVIEW_ROWS).map((f) =>
              h(
                'li',
                { testid: 'preview-forget', attrs: { 'data-id': f.entry.id } },
                h('span', { text: memorySnippet(f.entry, 80) }),
                h('span', {
                  class: 'muted',
                  testid: 'preview-why',
                  text: ` — ${f.entry.kind}, importance ${fmt(f.entry.importance, 2)} faded to ${fmt(f.effectiveImportance, 3)}, below the deletion line ${fmt(p.deletionThreshold, 2)}`,
                }),
              ),
            ),
          ),
          p.forget.length > PREVIEW_ROWS
            ? h('p', { class: 'muted', text: `… and ${p.forget.length - PREVIEW_ROWS} more.` })
            : null,
        )
      : null,
    p.compress?.length
      ? h(
          'div',
          {},
          h('h3', { text: 'Will be merged into summaries' }),
          h(
            'ul',
            {},
            ...p.compress.map((b) =>
              h('li', {
                testid: 'preview-merge',
                text: `${plural(b.entries.length, `${b.kind} memory`, `${b.kind} memories`)}: ${b.entries.map((e) => memorySnippet(e, 40)).join(' · ')}`,
              }),
            ),
          ),
        )
      : null,
  );
}

function describeReport(r: MaintenanceReport, names: Map<string, string>): HTMLElement {
  const forgotten = r.deleted.map((id) => names.get(id) ?? id);
  return h(
    'dl',
    { class: 'facts', attrs: { 'data-noop': r.noop } },
    h('dt', { text: 'Examined' }),
    h('dd', { testid: 'report-examined', text: String(r.examined) }),
    h('dt', { text: 'Forgotten' }),
    h(
      'dd',
      { testid: 'report-deleted', attrs: { 'data-count': r.deleted.length } },
      String(r.deleted.length),
      forgotten.length ? h('ul', { class: 'forgotten' }, ...forgotten.map((t) => h('li', { text: t }))) : null,
    ),
    h('dt', { text: 'Compressed' }),
    h('dd', {
      text: r.compression
        ? `${r.compression.removed.length} → ${r.compression.summaries.length} summaries${r.compression.usedLlm ? ' (LLM)' : ' (extractive)'}`
        : 'not needed',
    }),
    h('dt', { text: 'Short-term evicted' }),
    h('dd', { text: String(r.shortTermEvicted) }),
    h('dt', { text: 'Result' }),
    h('dd', { testid: 'report-result', text: r.noop ? 'nothing to do' : 'changed' }),
    h('dt', { text: 'Took' }),
    h('dd', { text: `${r.durationMs} ms` }),
  );
}

function stats(app: DemoApp): HTMLElement {
  const view = h('dl', { class: 'facts', testid: 'stats-view' });
  const refresh = async () => {
    const s = await app.guard(() => app.manager.stats(TENANT), { background: true, needs: 'read' });
    if (!s) {
      replace(view, h('dd', { class: 'muted', text: 'Not allowed to read as this user.' }));
      return;
    }
    const kinds =
      Object.entries(s.storage.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '—';
    const tiers =
      Object.entries(s.storage.byTier)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '—';
    replace(
      view,
      h('dt', { text: 'Long-term memories' }),
      h('dd', { testid: 'stats-entries', text: String(s.storage.entries) }),
      h('dt', { text: 'By tier' }),
      h('dd', { text: tiers }),
      h('dt', { text: 'By kind' }),
      h('dd', { text: kinds }),
      h('dt', { text: 'Vectors' }),
      h('dd', { testid: 'stats-vectors', text: String(s.storage.vectors) }),
      h('dt', { text: 'Short-term' }),
      h('dd', { text: `${plural(s.shortTerm.entries, 'turn')} (${plural(s.shortTerm.users, 'user')})` }),
      h('dt', { text: 'Working' }),
      h('dd', { text: `${plural(s.working.entries, 'memory', 'memories')}, ${plural(s.working.tokens, 'token')}` }),
      h('dt', { text: 'Profiles' }),
      h('dd', { text: String(s.profiles) }),
      h('dt', { text: 'Embedder' }),
      h('dd', {
        testid: 'stats-embedder',
        text: s.embedder ? `${s.embedder.modelId} (${s.embedder.dim}-d)` : 'none (lexical only)',
      }),
      h('dt', { text: 'Storage' }),
      h('dd', {
        testid: 'stats-storage',
        text: `${app.manager.storageName}${s.storage.bytes ? ` · ${(s.storage.bytes / 1024).toFixed(1)} KiB` : ''}${app.memory.encrypted ? ' · encrypted' : ''}`,
      }),
      h('dt', { text: 'Pending indexing' }),
      h('dd', { text: String(s.pendingIndexing) }),
    );
  };
  app.on('memories', () => void refresh());
  app.on('user', () => void refresh());
  void refresh();
  return view;
}

function backups(app: DemoApp, replaced: (why: string) => void): HTMLElement {
  const list = h('div', { testid: 'backup-list' });
  const create = h('button', { class: 'primary', testid: 'backup-create', text: 'Create backup' });
  const exportJson = h('button', { testid: 'export-json', text: 'Export JSON' });
  const file = h('input', { testid: 'import-file', attrs: { type: 'file', accept: 'application/json,.json' } });
  const progress = createProgressBar('import-progress', 'Import / restore');
  const result = h('p', { class: 'muted', testid: 'import-result' });

  const refresh = async () => {
    const items = await app.guard(() => app.memory.listBackups(), { background: true, needs: 'admin' });
    if (!items) {
      replace(list, h('p', { class: 'muted', text: 'Backups need the admin role.' }));
      return;
    }
    replace(
      list,
      ...(items.length
        ? items
            .slice()
            .reverse()
            .map((b) =>
              h(
                'div',
                { class: 'backup', testid: 'backup-row', attrs: { 'data-id': b.id } },
                // Seconds shown: two backups a minute apart must not look the same.
                h('span', {
                  text: `${new Date(b.createdAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' })} · ${(b.size / 1024).toFixed(1)} KiB`,
                }),
                h('button', { testid: 'backup-restore', text: 'Restore', on: { click: () => void restore(b.id) } }),
                h('button', { testid: 'backup-download', text: 'Download', on: { click: () => void save(b.id) } }),
                h('button', {
                  class: 'danger',
                  testid: 'backup-delete',
                  text: 'Delete',
                  on: { click: () => void remove(b.id) },
                }),
              ),
            )
        : [h('p', { class: 'muted', text: 'No backups yet.' })]),
    );
  };
  const restore = async (id: string) => {
    const ok = await confirmAction({
      title: 'Restore this backup?',
      message: 'Every memory in this browser is replaced by the backup. Changes made since it was taken are lost.',
      confirmLabel: 'Restore',
    });
    if (!ok) return;
    progress.set(null, 'restoring');
    const report = await app.guard(async () => {
      app.require('admin');
      return app.memory.restoreBackup(id, {
        onProgress: (p) => progress.set(p.total ? p.done / p.total : null, `${p.phase}: ${p.done} / ${p.total}`),
      });
    });
    progress.done(report ? `restored ${report.entries} memories` : 'failed');
    if (report) replaced('The memories were restored from a backup since the last maintenance run.');
    app.changed('memories');
  };
  const save = async (id: string) => {
    const bytes = await app.guard(async () => {
      app.require('admin');
      return app.memory.readBackup(id);
    });
    if (bytes)
      download(
        `zerda-backup-${id}.bin`,
        new Blob([bytes.slice().buffer as ArrayBuffer], { type: 'application/octet-stream' }),
      );
  };
  const remove = async (id: string) => {
    await app.guard(async () => {
      app.require('admin');
      return app.memory.deleteBackup(id);
    });
    void refresh();
  };
  create.addEventListener('click', async () => {
    await app.guard(async () => {
      app.require('admin');
      return app.memory.createBackup();
    });
    void refresh();
  });
  exportJson.addEventListener('click', async () => {
    const data = await app.guard(async () => {
      app.require('admin');
      return app.memory.exportJson();
    });
    if (data) download(`zerda-export-${new Date().toISOString().slice(0, 10)}.json`, JSON.stringify(data));
  });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    progress.set(0, 'reading file');
    result.textContent = '';
    const report = await app.guard(async () => {
      app.require('admin');
      let data: unknown;
      try {
        data = JSON.parse(await chosen.text());
      } catch {
        throw new Error(`${chosen.name} is not JSON: choose a file made with Export JSON.`);
      }
      return app.memory.importJson(data, {
        onProgress: (p) => progress.set(p.total ? p.done / p.total : null, `${p.phase}: ${p.done} / ${p.total}`),
      });
    });
    progress.done(report ? `imported ${report.entries}` : 'failed');
    if (report) {
      result.textContent = `Imported ${plural(report.entries, 'memory', 'memories')} and ${plural(report.profiles, 'profile')}; ${report.embedded} needed new vectors.`;
      result.dataset.entries = String(report.entries);
      replaced('Memories were imported since the last maintenance run.');
    } else {
      result.textContent = `Nothing was imported from ${chosen.name} — see the error above.`;
      delete result.dataset.entries;
    }
    file.value = '';
    app.changed('memories');
  });
  app.on('encryption', () => void refresh());
  app.on('user', () => void refresh());
  void refresh();
  return h(
    'div',
    {},
    h('div', { class: 'row' }, create, exportJson, h('label', { class: 'file' }, 'Import JSON ', file)),
    progress.element,
    result,
    list,
  );
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
