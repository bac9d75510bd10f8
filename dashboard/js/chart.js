import { h, svg } from './dom.js';
import { day as dayLabel, endpointLabel, credits as fmt } from './format.js';

/** Distinct on white and for the common colour-vision deficiencies (Okabe-Ito, then Tableau). */
export const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#000000', '#76b7b2', '#9c755f', '#bab0ac', '#ff9da7'];

/** The last `days` UTC days, oldest first, as YYYY-MM-DD (the ledger's days are UTC). */
export function dayRange(days, now = new Date()) {
  const out = [];
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = days - 1; i >= 0; i--) out.push(new Date(end - i * 86400000).toISOString().slice(0, 10));
  return out;
}

/** Endpoints by total of the metric, largest first, each with its colour (stable for a given data set). */
export function seriesOf(rows, metric) {
  const totals = new Map();
  for (const r of rows) totals.set(r.endpoint, (totals.get(r.endpoint) || 0) + r[metric]);
  return [...totals.entries()]
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
    .map(([endpoint, total], i) => ({ endpoint, total, colour: PALETTE[i % PALETTE.length] }));
}

/** The axis top: four gridline steps of 1, 2 or 5 times a power of ten, so every tick is a whole number. */
function niceMax(v) {
  const raw = Math.max(1, v / 4);
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
  return step * 4;
}

/**
 * A stacked bar per day, one segment per endpoint, drawn as inline SVG at the container's width.
 * Each segment has a tooltip (title); the legend and the table below carry the same numbers for
 * whoever cannot see the colours.
 */
export function stackedBars(rows, days, metric, width) {
  const series = seriesOf(rows, metric);
  const colour = new Map(series.map((s) => [s.endpoint, s.colour]));
  const order = new Map(series.map((s, i) => [s.endpoint, i]));
  const range = dayRange(days);
  const byDay = new Map(range.map((d) => [d, []]));
  for (const r of rows) if (byDay.has(r.day) && r[metric] > 0) byDay.get(r.day).push(r);
  const totals = range.map((d) => byDay.get(d).reduce((s, r) => s + r[metric], 0));
  const max = niceMax(Math.max(0, ...totals));

  const W = Math.max(280, Math.floor(width));
  const H = W < 500 ? 200 : 260;
  const m = { top: 12, right: 8, bottom: 26, left: 44 };
  const plotW = W - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const band = plotW / range.length;
  const barW = Math.max(1, Math.min(36, band * 0.72));
  const y = (v) => m.top + plotH - (v / max) * plotH;

  const unit = metric === 'credits' ? 'credits' : 'requests';
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', class: 'chart-svg', 'aria-label': `${unit} per day over the last ${days} days, stacked by endpoint` });

  for (let i = 0; i <= 4; i++) {
    const v = (max / 4) * i;
    root.append(svg('line', { x1: m.left, x2: W - m.right, y1: y(v), y2: y(v), class: i === 0 ? 'axis' : 'grid' }));
    root.append(svg('text', { x: m.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, fmt(v)));
  }

  const every = Math.max(1, Math.ceil(52 / band));
  range.forEach((d, i) => {
    const x = m.left + i * band + (band - barW) / 2;
    let base = 0;
    const segments = byDay.get(d).sort((a, b) => order.get(a.endpoint) - order.get(b.endpoint));
    const g = svg('g', { class: 'bar', 'data-day': d });
    for (const r of segments) {
      const top = y(base + r[metric]);
      const height = Math.max(1, y(base) - top);
      g.append(svg('rect', { x, y: top, width: barW, height, fill: colour.get(r.endpoint) }, svg('title', {}, `${dayLabel(d)} · ${endpointLabel(r.endpoint)}: ${fmt(r[metric])} ${r[metric] === 1 ? unit.replace(/s$/, '') : unit}`)));
      base += r[metric];
    }
    root.append(g);
    if ((range.length - 1 - i) % every === 0) {
      // A label wider than the space left at the right edge is aligned to it rather than clipped.
      const cx = m.left + i * band + band / 2;
      const atEdge = cx + 24 > W;
      root.append(svg('text', { x: atEdge ? W - 1 : cx, y: H - 8, 'text-anchor': atEdge ? 'end' : 'middle', class: 'tick' }, dayLabel(d)));
    }
  });
  return { element: root, series };
}

export function legend(series, metric) {
  return h(
    'ul',
    { class: 'legend', 'aria-label': 'Endpoints' },
    series.map((s) =>
      h(
        'li',
        {},
        svg('svg', { width: 12, height: 12, 'aria-hidden': 'true' }, svg('rect', { width: 12, height: 12, rx: 2, fill: s.colour })),
        h('span', { class: 'legend-name' }, endpointLabel(s.endpoint)),
        h('span', { class: 'legend-total' }, `${fmt(s.total)} ${s.total === 1 ? metric.replace(/s$/, '') : metric}`),
      ),
    ),
  );
}

/** The same numbers as a table, newest day first: the chart's text alternative. */
export function usageTable(rows) {
  const sorted = [...rows].filter((r) => r.requests > 0 || r.credits > 0).sort((a, b) => b.day.localeCompare(a.day) || b.credits - a.credits);
  return h(
    'table',
    { class: 'table usage-table' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, 'Endpoint'), h('th', { scope: 'col', class: 'num' }, 'Requests'), h('th', { scope: 'col', class: 'num' }, 'Credits'))),
    h(
      'tbody',
      {},
      sorted.map((r) => h('tr', {}, h('td', {}, dayLabel(r.day)), h('td', {}, h('code', {}, endpointLabel(r.endpoint))), h('td', { class: 'num' }, fmt(r.requests)), h('td', { class: 'num' }, fmt(r.credits)))),
    ),
  );
}
