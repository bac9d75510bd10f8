import { calibrationBins, clvValues, cumulativeProfit, type CalibrationBin, type TrackRecordBet } from './aggregate';
import { niceTicks, tickLabel, type Ticks } from './ticks';

/**
 * The track record's charts as standalone SVG documents (no script, no external reference):
 * cumulative profit, the CLV distribution and the reliability diagram. Plain strings; every text
 * goes through `escapeXml`.
 */
const W = 640;
const H = 360;
const L = 60;
const R = 20;
const T = 40;
const B = 50;
const PW = W - L - R;
const PH = H - T - B;

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

const num = (x: number) => (Number.isFinite(x) ? String(Math.round(x * 10) / 10) : '0');
const fmt = (x: number, digits = 2) => (Math.round(x * 10 ** digits) / 10 ** digits).toString();

function frame(title: string, subtitle: string, body: string[], xLabel: string, yLabel: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<desc>${escapeXml(subtitle)}</desc>`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="14">${escapeXml(title)}</text>`,
    `<text x="${W / 2}" y="32" text-anchor="middle" fill="#555">${escapeXml(subtitle)}</text>`,
    `<rect x="${L}" y="${T}" width="${PW}" height="${PH}" fill="none" stroke="#999"/>`,
    ...body,
    `<text x="${L + PW / 2}" y="${H - 10}" text-anchor="middle">${escapeXml(xLabel)}</text>`,
    `<text x="14" y="${T + PH / 2}" text-anchor="middle" transform="rotate(-90 14 ${T + PH / 2})">${escapeXml(yLabel)}</text>`,
    '</svg>',
  ].join('\n');
}

const empty = (what: string) => [`<text x="${L + PW / 2}" y="${T + PH / 2}" text-anchor="middle" fill="#777">${escapeXml(`No ${what} yet`)}</text>`];

/** The y axis on round ticks (shared/domain/trackRecord/ticks.ts): a mark and a label at each. */
function yAxis(t: Ticks, y: (v: number) => number): string[] {
  return t.values.flatMap((v) => [
    `<line x1="${L - 4}" y1="${num(y(v))}" x2="${L}" y2="${num(y(v))}" stroke="#999"/>`,
    `<text x="${L - 6}" y="${num(y(v) + 4)}" text-anchor="end">${escapeXml(tickLabel(v, t))}</text>`,
  ]);
}

/** Running profit in units after each settled bet (flat 1-unit stakes). */
export function cumulativeProfitSvg(series: readonly number[], subtitle: string): string {
  const title = 'Cumulative profit (units, flat 1-unit stakes)';
  if (series.length === 0) return frame(title, subtitle, empty('settled bets'), 'settled bets, oldest first', 'profit (units)');
  const t = niceTicks(Math.min(0, ...series), Math.max(0, ...series));
  const x = (i: number) => L + (series.length === 1 ? PW / 2 : (PW * i) / (series.length - 1));
  const y = (v: number) => T + PH - ((v - t.min) / (t.max - t.min)) * PH;
  const points = series.map((v, i) => `${num(x(i))},${num(y(v))}`).join(' ');
  const body = [
    ...yAxis(t, y),
    `<line x1="${L}" y1="${num(y(0))}" x2="${L + PW}" y2="${num(y(0))}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    `<polyline fill="none" stroke="#1f77b4" stroke-width="1.6" points="${points}"/>`,
    `<text x="${L + PW}" y="${T - 4}" text-anchor="end">${escapeXml(`${series.length} bets, ${fmt(series[series.length - 1])} units`)}</text>`,
  ];
  return frame(title, subtitle, body, 'settled bets, oldest first', 'profit (units)');
}

/** Histogram of closing line value (fractions shown as percent), 1-point-wide bins clipped to ±20 %. */
export function clvHistogramSvg(values: readonly number[], subtitle: string): string {
  const title = 'Closing line value of settled bets';
  if (values.length === 0) return frame(title, subtitle, empty('bets with a closing line'), 'CLV (%)', 'bets');
  const LO = -20;
  const HI = 20;
  const counts = new Array<number>(HI - LO).fill(0);
  for (const v of values) counts[Math.min(HI - LO - 1, Math.max(0, Math.floor(v * 100) - LO))]++;
  // Counts of bets: whole ticks from 0.
  const t = niceTicks(0, Math.max(...counts), { whole: true });
  const bw = PW / counts.length;
  const y = (c: number) => T + PH - (c / t.max) * PH;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const xOf = (pct: number) => L + ((Math.min(HI, Math.max(LO, pct)) - LO) / (HI - LO)) * PW;
  const body = [
    ...yAxis(t, y),
    ...counts.map((c, i) =>
      c
        ? `<rect x="${num(L + i * bw + 0.5)}" y="${num(y(c))}" width="${num(bw - 1)}" height="${num(T + PH - y(c))}" fill="${i + LO >= 0 ? '#2ca02c' : '#d62728'}"><title>${escapeXml(`${i + LO}% to ${i + LO + 1}%: ${c}`)}</title></rect>`
        : '',
    ),
    ...[-20, -10, 0, 10, 20].map((p) => `<text x="${num(xOf(p))}" y="${T + PH + 14}" text-anchor="middle">${p}</text>`),
    `<line x1="${num(xOf(mean * 100))}" y1="${T}" x2="${num(xOf(mean * 100))}" y2="${T + PH}" stroke="#000" stroke-dasharray="4 3"/>`,
    `<text x="${L + PW}" y="${T - 4}" text-anchor="end">${escapeXml(`${values.length} bets, mean ${fmt(mean * 100)} %`)}</text>`,
  ];
  return frame(title, subtitle, body, 'CLV (%)', 'bets');
}

/** Reliability diagram: observed win rate against predicted probability per bin, ±2 s.e. */
export function reliabilitySvg(bins: readonly CalibrationBin[], subtitle: string): string {
  const title = 'Calibration: predicted against observed win rate';
  if (bins.length === 0) return frame(title, subtitle, empty('graded bets'), 'predicted probability', 'observed win rate');
  const x = (p: number) => L + p * PW;
  const y = (p: number) => T + PH - p * PH;
  const t = niceTicks(0, 1);
  const body = [
    ...yAxis(t, y),
    ...t.values.map((p) => `<text x="${num(x(p))}" y="${T + PH + 14}" text-anchor="middle">${tickLabel(p, t)}</text>`),
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    ...bins.flatMap((b) => {
      const lo = Math.max(0, b.observed - 2 * b.standardError);
      const hi = Math.min(1, b.observed + 2 * b.standardError);
      return [
        `<line x1="${num(x(b.predicted))}" y1="${num(y(lo))}" x2="${num(x(b.predicted))}" y2="${num(y(hi))}" stroke="#1f77b4"/>`,
        `<circle cx="${num(x(b.predicted))}" cy="${num(y(b.observed))}" r="${num(Math.min(9, 2.5 + Math.sqrt(b.bets) / 3))}" fill="#1f77b4"><title>${escapeXml(
          `predicted ${fmt(b.predicted, 3)}, observed ${fmt(b.observed, 3)}, ${b.bets} bets`,
        )}</title></circle>`,
      ];
    }),
  ];
  return frame(title, subtitle, body, 'predicted probability', 'observed win rate');
}

export const CHART_KINDS = ['cumulative', 'clv', 'calibration'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/** The chart of a kind over the bets: what the metered chart.svg and the dashboard's signed-in view serve. */
export function trackRecordChartSvg(kind: ChartKind, bets: readonly TrackRecordBet[], subtitle: string): string {
  if (kind === 'cumulative') return cumulativeProfitSvg(cumulativeProfit(bets), subtitle);
  if (kind === 'clv') return clvHistogramSvg(clvValues(bets), subtitle);
  return reliabilitySvg(calibrationBins(bets), subtitle);
}
