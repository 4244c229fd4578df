import { effectiveImportance, floorFor, isProtected, type MemoryConfig, type MemoryEntry } from '@zerda/core';

const DAY = 86_400_000;

/** One curve: effective importance sampled over time. */
export interface Series {
  label: string;
  points: { t: number; value: number }[];
  dashed?: boolean;
}

/** What the chart shows for one entry. */
export interface ImportanceChartData {
  from: number;
  to: number;
  now: number;
  series: Series[];
  floor: number;
  deletionThreshold: number;
  protectedEntry: boolean;
}

/**
 * Sample an entry's effective importance from its last access to `horizonDays` after `now`,
 * plus the curve it would follow if it were recalled (reinforced) now.
 */
export function importanceChartData(
  entry: MemoryEntry,
  reinforced: MemoryEntry,
  config: MemoryConfig,
  now: number,
  horizonDays: number,
  samples = 120,
): ImportanceChartData {
  const from = Math.min(entry.lastAccess, now);
  const to = now + horizonDays * DAY;
  const sample = (e: MemoryEntry, start: number): Series['points'] => {
    const pts: Series['points'] = [];
    for (let i = 0; i <= samples; i++) {
      const t = start + ((to - start) * i) / samples;
      pts.push({ t, value: effectiveImportance(e, t, config) });
    }
    return pts;
  };
  return {
    from,
    to,
    now,
    series: [
      { label: 'effective importance', points: sample(entry, from) },
      { label: 'if recalled now', points: sample(reinforced, now), dashed: true },
    ],
    floor: Math.min(entry.importance, floorFor(entry.kind, config)),
    deletionThreshold: config.deletionThreshold,
    protectedEntry: isProtected(entry, config),
  };
}

const SVG = 'http://www.w3.org/2000/svg';
const W = 560;
const H = 240;
const PAD = { left: 40, right: 12, top: 12, bottom: 28 };

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Render the chart as a small SVG (days on x, relative to now; importance 0..1 on y). */
export function renderImportanceChart(data: ImportanceChartData): SVGSVGElement {
  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'chart',
    role: 'img',
    'aria-label': 'Effective importance over time',
  });
  const x = (t: number) => PAD.left + ((t - data.from) / Math.max(1, data.to - data.from)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);

  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(el('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(el('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, v.toFixed(2)));
  }
  const spanDays = (data.to - data.from) / DAY;
  const step = spanDays > 400 ? 90 : spanDays > 150 ? 30 : spanDays > 40 ? 15 : 5;
  for (let d = Math.ceil((data.from - data.now) / DAY / step) * step; data.now + d * DAY <= data.to; d += step) {
    const tx = x(data.now + d * DAY);
    svg.append(
      el(
        'text',
        { x: tx, y: H - 8, 'text-anchor': 'middle', class: 'axis' },
        d === 0 ? 'now' : `${d > 0 ? '+' : ''}${d}d`,
      ),
    );
  }
  svg.append(el('line', { x1: x(data.now), x2: x(data.now), y1: PAD.top, y2: H - PAD.bottom, class: 'now' }));
  svg.append(
    el('line', {
      x1: PAD.left,
      x2: W - PAD.right,
      y1: y(data.floor),
      y2: y(data.floor),
      class: 'floor',
      'data-testid': 'chart-floor',
    }),
  );
  svg.append(
    el(
      'text',
      { x: W - PAD.right, y: y(data.floor) - 4, 'text-anchor': 'end', class: 'axis' },
      `floor ${data.floor.toFixed(2)}`,
    ),
  );
  svg.append(
    el('line', {
      x1: PAD.left,
      x2: W - PAD.right,
      y1: y(data.deletionThreshold),
      y2: y(data.deletionThreshold),
      class: 'threshold',
    }),
  );
  svg.append(
    el(
      'text',
      { x: PAD.left + 4, y: y(data.deletionThreshold) - 4, class: 'axis danger' },
      `forgotten below ${data.deletionThreshold.toFixed(2)}`,
    ),
  );
  data.series.forEach((s, i) => {
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
    svg.append(
      el('path', { d, class: `series s${i}${s.dashed ? ' dashed' : ''}`, 'data-testid': `chart-series-${i}` }),
    );
  });
  return svg;
}
