// Benchmark page for test/bench/import-history-browser.ts: a chat history imported end to end as an
// app does it (openBrowserMemory: sql.js + IndexedDB, the bundled model in a Worker), with the
// page's main thread watched (long tasks, timer gaps) meanwhile.
import { openBrowserMemory } from '@zerda/browser/vite';
import type { HistoryTurn, ImportProgress, ImportReport } from '@zerda/core';

export interface ImportPageConfig {
  turns: HistoryTurn[];
  /** Texts for the worker's own throughput (embedded once, before the import). */
  embedTexts: string[];
}

export interface MainThreadWatch {
  longestTask: number;
  longTasks: number;
  maxTimerGapMs: number;
}

export interface ImportPageResult {
  isolated: boolean;
  openMs: number;
  embed: { n: number; ms: number; sentencesPerSec: number } & MainThreadWatch;
  importMs: number;
  turnsPerSec: number;
  report: ImportReport;
  progressCalls: number;
  lastProgress: ImportProgress | undefined;
  recallAfterMs: number;
  /** Milliseconds of each stage of that recall (`onStage`; the embedding and the lexical stage overlap). */
  recallAfterStages: Record<string, number>;
  watch: MainThreadWatch;
}

/** Run `task` while watching the main thread: long tasks (>50 ms) and the largest gap of a 10 ms timer. */
async function watched<T>(task: () => Promise<T>): Promise<{ value: T; ms: number } & MainThreadWatch> {
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(Math.round(e.duration));
  });
  observer.observe({ type: 'longtask', buffered: false });
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 10);
  const t0 = performance.now();
  const value = await task();
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 100));
  clearInterval(timer);
  observer.disconnect();
  return {
    value,
    ms,
    longestTask: Math.max(0, ...longTasks),
    longTasks: longTasks.length,
    maxTimerGapMs: Math.round(maxGap),
  };
}

(globalThis as unknown as { importBench: (c: ImportPageConfig) => Promise<ImportPageResult> }).importBench = async (
  c,
) => {
  const t0 = performance.now();
  const memory = await openBrowserMemory({
    name: `import-bench-${Date.now()}`,
    owner: 'me',
    // As the demo: backups by time only, not one per 100 new memories during the import.
    sqlite: { backups: { everyNewEntries: 1_000_000, keep: 1 } },
  });
  const openMs = performance.now() - t0;
  try {
    await memory.embedder!.embed(c.embedTexts.slice(0, 64)); // warm-up
    const embed = await watched(() => memory.embedder!.embed(c.embedTexts));
    let progressCalls = 0;
    let lastProgress: ImportProgress | undefined;
    const run = await watched(() =>
      memory.manager.importHistory('me', 'bench', c.turns, {
        onProgress: (p) => {
          progressCalls++;
          lastProgress = p;
        },
      }),
    );
    const r0 = performance.now();
    const stages: Record<string, number> = {};
    const starts: Record<string, number> = {};
    await memory.manager.recall('me', 'bench', 'What did we talk about last time?', {
      reinforce: false,
      onStage: (s, phase) => {
        if (phase === 'start') starts[s] = performance.now();
        else stages[s] = Math.round(performance.now() - starts[s]!);
      },
    });
    const recallAfterMs = performance.now() - r0;
    const { value: report, ms: importMs, ...watch } = run;
    return {
      isolated: globalThis.crossOriginIsolated,
      openMs,
      embed: {
        n: c.embedTexts.length,
        ms: Math.round(embed.ms),
        sentencesPerSec: Math.round((c.embedTexts.length / embed.ms) * 1000),
        longestTask: embed.longestTask,
        longTasks: embed.longTasks,
        maxTimerGapMs: embed.maxTimerGapMs,
      },
      importMs: Math.round(importMs),
      turnsPerSec: Math.round((c.turns.length / importMs) * 1000),
      report,
      progressCalls,
      lastProgress,
      recallAfterMs: Math.round(recallAfterMs),
      recallAfterStages: stages,
      watch,
    };
  } finally {
    await memory.close();
  }
};
document.getElementById('out')!.textContent = 'ready';
