import type { CalibrationBin } from '../domain/ai/metrics';

/**
 * The backtest's SVG: cumulative flat-stake profit and Kelly bankroll on the left, the
 * reliability diagram (model and Pinnacle closing) on the right. Plain strings, no library.
 */
export interface ChartInput {
  title: string;
  flatProfit: readonly number[];
  kellyBankroll: readonly number[];
  calibrationModel: readonly CalibrationBin[];
  calibrationClose: readonly CalibrationBin[];
}

const W = 960;
const H = 420;
const PAD = 50;
const PANEL = (W - 3 * PAD) / 2;

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function polyline(points: [number, number][], color: string, dash = ''): string {
  if (points.length === 0) return '';
  const d = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  return `<polyline fill="none" stroke="${color}" stroke-width="1.6"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${d}"/>`;
}

export function backtestSvg(input: ChartInput): string {
  const top = PAD + 10;
  const height = H - top - PAD;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(`<text x="${W / 2}" y="22" text-anchor="middle" font-size="14">${esc(input.title)}</text>`);

  // Left: cumulative profit in units (flat) and Kelly bankroll minus one, on a shared axis.
  const x0 = PAD;
  const kellyUnits = input.kellyBankroll.map((b) => (b - 1) * 100);
  const all = [0, ...input.flatProfit, ...kellyUnits];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const span = hi - lo || 1;
  const n = Math.max(1, input.flatProfit.length - 1);
  const sx = (i: number) => x0 + (i / n) * PANEL;
  const sy = (v: number) => top + height - ((v - lo) / span) * height;
  parts.push(`<rect x="${x0}" y="${top}" width="${PANEL}" height="${height}" fill="none" stroke="#999"/>`);
  parts.push(`<line x1="${x0}" x2="${x0 + PANEL}" y1="${sy(0)}" y2="${sy(0)}" stroke="#ccc"/>`);
  parts.push(
    polyline(
      input.flatProfit.map((v, i) => [sx(i), sy(v)]),
      '#1f77b4',
    ),
  );
  parts.push(
    polyline(
      kellyUnits.map((v, i) => [sx(i), sy(v)]),
      '#d62728',
    ),
  );
  parts.push(`<text x="${x0}" y="${top - 6}">Cumulative profit: flat 1-unit stakes (blue, units); Kelly bankroll (red, % of start)</text>`);
  parts.push(`<text x="${x0 - 4}" y="${sy(hi) + 4}" text-anchor="end">${hi.toFixed(0)}</text>`);
  parts.push(`<text x="${x0 - 4}" y="${sy(lo)}" text-anchor="end">${lo.toFixed(0)}</text>`);
  parts.push(`<text x="${x0 + PANEL / 2}" y="${top + height + 16}" text-anchor="middle">bets in kickoff order (${input.flatProfit.length})</text>`);

  // Right: reliability diagram on [0, 0.8].
  const x1 = 2 * PAD + PANEL;
  const size = Math.min(PANEL, height);
  const max = 0.8;
  const rx = (p: number) => x1 + (p / max) * size;
  const ry = (p: number) => top + size - (p / max) * size;
  parts.push(`<rect x="${x1}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#999"/>`);
  parts.push(`<line x1="${rx(0)}" y1="${ry(0)}" x2="${rx(max)}" y2="${ry(max)}" stroke="#ccc"/>`);
  for (const [bins, color] of [
    [input.calibrationClose, '#2ca02c'],
    [input.calibrationModel, '#1f77b4'],
  ] as const) {
    parts.push(
      polyline(
        bins.map((b) => [rx(b.predicted), ry(b.observed)]),
        color,
        color === '#2ca02c' ? '4 3' : '',
      ),
    );
    for (const b of bins) parts.push(`<circle cx="${rx(b.predicted).toFixed(1)}" cy="${ry(b.observed).toFixed(1)}" r="3" fill="${color}"/>`);
  }
  for (const t of [0, 0.2, 0.4, 0.6, 0.8]) {
    parts.push(`<text x="${rx(t)}" y="${top + size + 14}" text-anchor="middle">${t}</text>`);
    parts.push(`<text x="${x1 - 4}" y="${ry(t) + 4}" text-anchor="end">${t}</text>`);
  }
  parts.push(`<text x="${x1}" y="${top - 6}">Reliability (deciles): model (blue), Pinnacle closing (green, dashed)</text>`);
  parts.push(`<text x="${x1 + size / 2}" y="${top + size + 28}" text-anchor="middle">predicted probability; y: observed frequency</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}
