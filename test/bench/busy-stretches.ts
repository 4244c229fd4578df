/**
 * Which code runs in a page's long main-thread tasks: a V8 CPU profile (Chromium's DevTools
 * protocol, `Profiler.*`) cut into busy stretches (samples between two idle ones), and for each
 * stretch over a threshold its functions by self time and by inclusive time. Used by
 * `import-history-browser.ts --attribute`; bench-only (never a test or CI gate).
 */
import type { Page } from 'playwright-core';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
/** The protocol's `Profiler.Profile`. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One busy stretch: its length and where its time went. */
export interface BusyStretch {
  ms: number;
  /** Functions by self time (ms), most first. */
  self: [string, number][];
  /** Functions by inclusive time (ms), most first (the profile's own entries left out). */
  inclusive: [string, number][];
}

/** Start V8's sampling profiler on `tab`'s main thread; the returned function stops it and gives the profile. */
export async function profileMainThread(tab: Page, intervalUs = 500): Promise<() => Promise<CpuProfile>> {
  const cdp = await tab.context().newCDPSession(tab);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    await cdp.detach();
    return profile;
  };
}

const label = (f: CallFrame): string => {
  const file = f.url.replace(/^.*\/(?=[^/]+$)/, '').replace(/\?.*$/, '');
  return `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}` : ''}`;
};
const top = (m: Map<string, number>, n: number): [string, number][] =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, Math.round(v * 10) / 10]);

/** Milliseconds the profiled thread was not idle, and the profile's length. */
export function busyTotal(profile: CpuProfile): { busyMs: number; spanMs: number } {
  const idle = new Set(profile.nodes.filter((x) => x.callFrame.functionName === '(idle)').map((x) => x.id));
  let busy = 0;
  let span = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    span += ms;
    if (!idle.has(profile.samples[i]!)) busy += ms;
  }
  return { busyMs: Math.round(busy), spanMs: Math.round(span) };
}

/** The profile's busy stretches longer than `minMs`, longest first, with their top `n` functions. */
export function busyStretches(profile: CpuProfile, minMs = 50, n = 8): BusyStretch[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const idle = new Set(profile.nodes.filter((x) => x.callFrame.functionName === '(idle)').map((x) => x.id));
  const out: BusyStretch[] = [];
  let run: { id: number; ms: number }[] = [];
  const flush = () => {
    const ms = run.reduce((a, s) => a + s.ms, 0);
    if (ms >= minMs) {
      const self = new Map<string, number>();
      const incl = new Map<string, number>();
      for (const s of run) {
        const leaf = byId.get(s.id)!;
        self.set(label(leaf.callFrame), (self.get(label(leaf.callFrame)) ?? 0) + s.ms);
        const seen = new Set<string>();
        for (let id: number | undefined = s.id; id !== undefined; id = parent.get(id)) {
          const f = byId.get(id)!.callFrame;
          if (f.functionName.startsWith('(') || seen.has(label(f))) continue;
          seen.add(label(f));
          incl.set(label(f), (incl.get(label(f)) ?? 0) + s.ms);
        }
      }
      out.push({ ms: Math.round(ms), self: top(self, n), inclusive: top(incl, n) });
    }
    run = [];
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    // A sample's time is the gap to the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (idle.has(id)) flush();
    else run.push({ id, ms });
  }
  flush();
  return out.sort((a, b) => b.ms - a.ms);
}
