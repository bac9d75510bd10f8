import { getUsage } from '../api.js';
import { alertBox, h } from '../dom.js';
import { credits } from '../format.js';
import { legend, stackedBars, usageTable } from '../chart.js';

const RANGES = [7, 30, 90];

export async function renderUsage(ctx) {
  const state = { days: ctx.usageDays || 30, metric: 'requests', rows: [] };
  const body = h('div', { class: 'usage-body' });
  const chartBox = h('div', { class: 'chart', id: 'usage-chart' });

  const rangeSel = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Period' });
  const metricSel = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Measure' });
  const toggle = (group, value, attr) => {
    for (const b of group.children) b.setAttribute('aria-pressed', String(b.dataset[attr] === String(value)));
  };
  for (const d of RANGES) rangeSel.append(h('button', { type: 'button', class: 'tab', dataset: { days: String(d) }, onclick: () => load(d) }, `${d} days`));
  for (const [m, label] of [
    ['requests', 'Requests'],
    ['credits', 'Credits'],
  ])
    metricSel.append(h('button', { type: 'button', class: 'tab', dataset: { metric: m }, onclick: () => ((state.metric = m), draw()) }, label));

  function draw() {
    toggle(rangeSel, state.days, 'days');
    toggle(metricSel, state.metric, 'metric');
    const totalRequests = state.rows.reduce((s, r) => s + r.requests, 0);
    const totalCredits = state.rows.reduce((s, r) => s + r.credits, 0);
    if (totalRequests === 0 && totalCredits === 0) {
      body.replaceChildren(
        h(
          'div',
          { class: 'empty', id: 'usage-empty' },
          h('p', { class: 'empty-title' }, `No API calls in the last ${state.days} days`),
          h('p', {}, 'Calls made with your keys show up here by day and endpoint. ', h('a', { href: '#/overview' }, 'Try the quick-start snippet'), '.'),
        ),
      );
      return;
    }
    body.replaceChildren(
      h(
        'div',
        { class: 'totals' },
        h('div', {}, h('span', { class: 'stat-label' }, 'Requests'), h('strong', { id: 'usage-requests' }, credits(totalRequests))),
        h('div', {}, h('span', { class: 'stat-label' }, 'Credits used'), h('strong', { id: 'usage-credits' }, credits(totalCredits))),
      ),
      chartBox,
      h('div', { class: 'legend-slot' }),
      h('details', { class: 'table-view' }, h('summary', {}, 'Show as a table'), usageTable(state.rows)),
    );
    // Drawn once in the page, so the SVG takes the box's real width.
    const { element, series } = stackedBars(state.rows, state.days, state.metric, chartBox.clientWidth || 640);
    chartBox.replaceChildren(element);
    body.querySelector('.legend-slot').replaceChildren(legend(series, state.metric));
  }

  async function load(days) {
    state.days = days;
    ctx.usageDays = days;
    toggle(rangeSel, days, 'days');
    body.replaceChildren(h('p', { class: 'loading' }, 'Loading usage…'));
    try {
      state.rows = await getUsage(days);
      draw();
    } catch (err) {
      if (err.status === 401) return ctx.expired();
      body.replaceChildren(alertBox('error', `Could not load usage: ${err.message}`));
    }
  }

  let lastWidth = 0;
  const resize = new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (Math.abs(w - lastWidth) > 8 && state.rows.length) draw();
    lastWidth = w;
  });
  const section = h(
    'section',
    {},
    h('h1', {}, 'Usage'),
    h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', {}, 'Requests by day and endpoint'), h('div', { class: 'controls' }, metricSel, rangeSel)), body),
    h('p', { class: 'hint' }, 'From the credit ledger, by UTC day. Refunded requests (errors) are not counted; test-key calls cost no credits.'),
  );
  ctx.onLeave(() => resize.disconnect());
  ctx.afterMount(() => {
    resize.observe(body);
    return load(state.days);
  });
  return section;
}
