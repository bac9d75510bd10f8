import { getTrackRecord } from '../api.js';
import { alertBox, h } from '../dom.js';
import { credits, when } from '../format.js';

const RANGES = [
  [30, '30 days'],
  [365, '1 year'],
  ['all', 'All time'],
];
const COUNTING = [
  ['recommendation', 'Every recommendation'],
  ['outcome', 'First per outcome'],
];
const CHARTS = [
  ['cumulative', 'Cumulative profit in units, flat 1-unit stakes, oldest bet first'],
  ['clv', 'Closing line value: taken odds against the de-vigged closing price'],
  ['calibration', 'Calibration: predicted win probability against the observed rate'],
];

const pct = (x, digits = 1) => (x === null || x === undefined ? '–' : `${(x * 100).toFixed(digits)} %`);
const withSe = (x, se) => (x === null || x === undefined ? '–' : `${pct(x)} ± ${se === null || se === undefined ? '–' : pct(se)}`);

/** An SVG document the API drew, as an image's source (the page's CSP allows data: images, never inline script). */
const svgSource = (svg) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * The model's settled record and its charts (server-rendered SVG, the same as the metered
 * /v2/ai/track-record/chart.svg), with the commitments chain head a customer can verify. Figures
 * and charts come in one answer, drawn from one read of the bets: read apart, a settlement
 * written between the two would make them disagree.
 */
export async function renderTrackRecord(ctx) {
  const state = { days: ctx.trackRecordDays || 'all', per: ctx.trackRecordPer || 'recommendation' };
  const body = h('div', { class: 'track-body' });
  const rangeSel = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Period' });
  const perSel = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Counting' });
  const toggle = (group, value, attr) => {
    for (const b of group.children) b.setAttribute('aria-pressed', String(b.dataset[attr] === String(value)));
  };
  for (const [d, label] of RANGES) rangeSel.append(h('button', { type: 'button', class: 'tab', dataset: { days: String(d) }, onclick: () => load({ days: d }) }, label));
  for (const [p, label] of COUNTING) perSel.append(h('button', { type: 'button', class: 'tab', dataset: { per: p }, onclick: () => load({ per: p }) }, label));

  function draw(r) {
    if (r.bets === 0) {
      body.replaceChildren(h('div', { class: 'empty', id: 'track-empty' }, h('p', { class: 'empty-title' }, 'No settled recommendation in this period'), h('p', {}, 'Recommendations count here once their event is settled.')));
      return;
    }
    const stat = (label, id, value, note) => h('div', {}, h('span', { class: 'stat-label' }, label), h('strong', { id }, value), note ? h('span', { class: 'stat-note' }, note) : null);
    body.replaceChildren(
      h(
        'div',
        { class: 'totals' },
        stat('Bets', 'track-bets', credits(r.bets), `${credits(r.wins)} won, ${credits(r.losses)} lost, ${credits(r.pushes)} push`),
        stat('ROI', 'track-roi', withSe(r.roi, r.roiStandardError), `${r.profit >= 0 ? '+' : ''}${r.profit.toFixed(2)} units`),
        stat('Mean CLV', 'track-clv', withSe(r.clv.mean, r.clv.standardError), `${credits(r.clv.bets)} bets with a closing line`),
        stat('Beat the close', 'track-beat', pct(r.clv.beatCloseShare)),
      ),
      h('p', { class: 'hint' }, '± is one standard error, clustered by event. A figure within about two of them of zero is not told apart from luck.'),
      ...CHARTS.map(([kind, alt]) => h('figure', { class: 'chart' }, h('img', { class: 'chart-img', src: svgSource(r.charts[kind]), alt, width: 640, height: 360, dataset: { kind } }))),
      h(
        'p',
        { class: 'hint', id: 'track-head' },
        'Every recommendation is committed to a hash chain before kickoff. Head ',
        h('code', {}, r.head.hash),
        ` (${credits(r.head.length)} links, last ${when(r.head.time)}). Check it with `,
        h('code', {}, 'npm run cli -- verify-record'),
        ' or ',
        h('a', { href: '/v2/docs/' }, '/v2/ai/track-record/chain'),
        '.',
      ),
    );
  }

  async function load(change = {}) {
    Object.assign(state, change);
    ctx.trackRecordDays = state.days;
    ctx.trackRecordPer = state.per;
    toggle(rangeSel, state.days, 'days');
    toggle(perSel, state.per, 'per');
    body.replaceChildren(h('p', { class: 'loading' }, 'Loading the track record…'));
    try {
      draw(await getTrackRecord(state.days, state.per));
    } catch (err) {
      if (err.status === 401) return ctx.expired();
      body.replaceChildren(alertBox('error', `Could not load the track record: ${err.message}`));
    }
  }

  ctx.afterMount(() => load());
  return h(
    'section',
    {},
    h('h1', {}, 'Track record'),
    h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', {}, 'Settled recommendations'), h('div', { class: 'controls' }, perSel, rangeSel)), body),
    h('p', { class: 'hint' }, 'A recommendation re-issued at new odds counts again under “Every recommendation”; “First per outcome” counts the first one only, as a customer who followed it would have bet.'),
  );
}
