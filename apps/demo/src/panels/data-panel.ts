import type { MaintenanceReport } from '@zerda/core';
import { TENANT, type DemoApp } from '../app.js';
import { download, h, replace } from '../dom.js';
import { helpFor } from '../help.js';
import { createProgressBar } from '../progress.js';
import { memorySnippet } from '../responder.js';

/** Maintenance (forgetting, compression), re-indexing, statistics, backups, export and import. */
export function createDataPanel(app: DemoApp): HTMLElement {
  return h(
    'section',
    { class: 'panel', testid: 'data-panel' },
    h('h3', {}, 'Maintenance ', helpFor('maintenance')),
    maintenance(app),
    h('h3', { text: 'Statistics' }),
    stats(app),
    h('h3', {}, 'Backups, export and import ', helpFor('backup')),
    backups(app),
  );
}

function maintenance(app: DemoApp): HTMLElement {
  const report = h('div', { testid: 'maintenance-report' });
  const run = h('button', { class: 'primary', testid: 'maintenance-run', text: 'Run maintenance' });
  const reindex = h('button', { testid: 'reindex-run', text: 'Re-index vectors' });
  const clear = h('button', { class: 'danger', testid: 'clear-tenant', text: 'Delete all memories' });
  clear.addEventListener('click', async () => {
    if (!confirm('Delete every memory, vector and profile of this demo tenant?')) return;
    // Clearing a tenant is an app-level operation (no user); the demo still asks for the admin role.
    const r = await app.guard(async () => {
      app.require('admin');
      return app.manager.clearTenant(TENANT);
    });
    if (r) replace(report, h('p', { testid: 'clear-result', text: `Deleted ${r.entries} memories.` }));
    app.changed('memories');
  });
  const progress = createProgressBar('reindex-progress', 'Re-indexing');
  run.addEventListener('click', async () => {
    run.disabled = true;
    // App-level operations take no user; the demo still asks for the admin role, fail-closed.
    const r = await app.guard(async () => {
      app.require('admin');
      // What each memory said, to name the forgotten ones (the report has their ids only).
      const before = await app.manager.listMemories(app.user, TENANT, { tiers: ['long_term'], limit: 10_000 });
      return {
        report: await app.manager.runMaintenance(TENANT),
        names: new Map(before.map((e) => [e.id, memorySnippet(e, 60)])),
      };
    });
    run.disabled = false;
    if (!r) return;
    replace(report, describeReport(r.report, r.names));
    app.changed('memories');
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
  return h(
    'div',
    {},
    h('p', {
      class: 'muted',
      text: 'Deletes memories whose effective importance decayed below the threshold (pinned, core and identity never), compresses old ones into summaries when the store is near capacity, and evicts faded short-term turns. Running it twice changes nothing the second time.',
    }),
    h('div', { class: 'row' }, run, reindex, clear),
    progress.element,
    report,
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
    const s = await app.guard(
      async () => {
        app.require('read');
        return app.manager.stats(TENANT);
      },
      { background: true },
    );
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

function backups(app: DemoApp): HTMLElement {
  const list = h('div', { testid: 'backup-list' });
  const create = h('button', { class: 'primary', testid: 'backup-create', text: 'Create backup' });
  const exportJson = h('button', { testid: 'export-json', text: 'Export JSON' });
  const file = h('input', { testid: 'import-file', attrs: { type: 'file', accept: 'application/json,.json' } });
  const progress = createProgressBar('import-progress', 'Import / restore');
  const result = h('p', { class: 'muted', testid: 'import-result' });

  const refresh = async () => {
    const items = await app.guard(
      async () => {
        app.require('admin');
        return app.memory.listBackups();
      },
      { background: true },
    );
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
    if (!confirm('Replace every memory in this browser with this backup? Changes made since it was taken are lost.'))
      return;
    progress.set(null, 'restoring');
    const report = await app.guard(async () => {
      app.require('admin');
      return app.memory.restoreBackup(id, {
        onProgress: (p) => progress.set(p.total ? p.done / p.total : null, `${p.phase}: ${p.done} / ${p.total}`),
      });
    });
    progress.done(report ? `restored ${report.entries} memories` : 'failed');
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
