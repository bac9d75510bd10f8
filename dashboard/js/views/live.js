import { getAccount } from '../api.js';
import { alertBox, h } from '../dom.js';

/**
 * The Live page: the change feed as it is stored (odds moving, scores, status, new
 * recommendations, settlements), read with the browser's EventSource from
 * /v2/account/stream. The browser sends the session cookie and reconnects by itself with
 * Last-Event-ID; the page never holds a key. What a test key gets from GET /v2/stream.
 */

const STREAM = '/v2/account/stream';
const CHANNELS = [
  ['odds', 'Odds'],
  ['scores', 'Scores'],
  ['status', 'Status'],
  ['recommendations', 'Recommendations'],
  ['settlements', 'Settlements'],
];
/** Rows kept per channel: the newest first, the oldest dropped (the page never grows without bound). */
const ROWS_PER_CHANNEL = 20;
/** Last prices remembered to show old → new (the oldest forgotten first). */
const PRICES_KEPT = 2000;
/** Items shown of one price message. */
const ITEMS_SHOWN = 4;

/**
 * Kept for the tab's life, so leaving the page and coming back resumes after the last message
 * received (within the stream's resume window) and shows the rows already seen.
 */
const state = {
  lastId: null,
  channels: new Set(CHANNELS.map(([c]) => c)),
  rows: Object.fromEntries(CHANNELS.map(([c]) => [c, []])),
  prices: new Map(),
};

const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' });
const clock = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(+d) ? '' : time.format(d);
};
const odds = (x) => (typeof x === 'number' ? x.toFixed(2) : '–');
const num = (...xs) => xs.find((x) => typeof x === 'number');

/**
 * A bet item as the stream names it ("Total Goals Over/Under 1.5 · Over 1.5", from the market
 * catalog); an item the catalog does not know keeps its id, made readable
 * ("2401-SOME_MARKET@2.5-1" of event 2401 as "some market 2.5 · 1").
 */
function itemLabel(eventId, it) {
  if (it.marketCaption && it.caption) return `${it.marketCaption} · ${it.caption}`;
  let rest = String(it.id);
  if (rest.startsWith(`${eventId}-`)) rest = rest.slice(String(eventId).length + 1);
  const cut = rest.lastIndexOf('-');
  const [market, code] = cut > 0 ? [rest.slice(0, cut), rest.slice(cut + 1)] : [rest, ''];
  const [sysname, line] = market.split('@');
  return `${sysname.toLowerCase().replace(/_/g, ' ')}${line ? ` ${line}` : ''}${code ? ` · ${code}` : ''}`;
}

/** The match a message is about: its teams when the stream names them (a stored event), else its id. */
const eventLabel = (m) => (m.event && m.event.homeTeam && m.event.awayTeam ? `${m.event.homeTeam} v ${m.event.awayTeam}` : `Event ${m.eventId}`);

/** The readable part of one message: what moved, as text nodes. */
function describe(m) {
  const d = m.data || {};
  switch (m.kind) {
    case 'price': {
      const items = Array.isArray(d.items) ? d.items : [];
      const parts = items.slice(0, ITEMS_SHOWN).map((it) => {
        const before = state.prices.get(it.id);
        state.prices.delete(it.id);
        state.prices.set(it.id, it.price);
        if (state.prices.size > PRICES_KEPT) state.prices.delete(state.prices.keys().next().value);
        const dir = typeof before === 'number' && before !== it.price ? (it.price > before ? 'up' : 'down') : 'same';
        // The name may wrap; the prices stay together on one line, so none is ever cut.
        return h(
          'span',
          { class: `move move-${dir}`, dataset: { item: it.id } },
          h('span', { class: 'move-item' }, itemLabel(m.eventId, it)),
          ' ',
          h(
            'span',
            { class: 'move-prices' },
            typeof before === 'number' ? h('span', { class: 'move-old' }, odds(before)) : null,
            typeof before === 'number' ? ' → ' : null,
            h('strong', { class: 'move-new' }, odds(it.price)),
            it.isAvailable === false ? h('span', { class: 'move-off' }, ' suspended') : null,
          ),
        );
      });
      if (items.length > ITEMS_SHOWN) parts.push(h('span', { class: 'hint' }, `+${items.length - ITEMS_SHOWN} more`));
      return parts;
    }
    case 'closing':
      return ['Closing line captured'];
    case 'score': {
      const home = num(d.homeGoals, d.home, d.homePoints);
      const away = num(d.awayGoals, d.away, d.awayPoints);
      const minute = typeof d.elapsedSeconds === 'number' ? ` · ${Math.floor(d.elapsedSeconds / 60)}′` : '';
      const phase = d.phase ? ` · ${String(d.phase).toLowerCase().replace(/_/g, ' ')}` : '';
      return [h('strong', { class: 'score' }, `${home ?? '–'} – ${away ?? '–'}`), `${phase}${minute}`];
    }
    case 'lineups':
      return ['Lineups announced'];
    case 'status':
      return [d.previous ? `${d.previous} → ` : '', h('strong', {}, String(d.status ?? 'changed')), d.voided ? ' (voided)' : ''];
    case 'recommendation': {
      const edge = typeof d.edgePercentage === 'number' ? ` · edge ${d.edgePercentage.toFixed(1)} %` : '';
      const what = d.marketCaption && d.caption ? `${d.marketCaption} · ${d.caption}` : d.outcome || [d.betTypeSysname, d.code].filter(Boolean).join(' ');
      return [h('strong', {}, String(what || 'New recommendation')), ` @ ${odds(d.odds)}`, d.bookmaker ? ` (${d.bookmaker})` : '', edge];
    }
    case 'settled': {
      const r = d.recommendations || {};
      const graded = (r.settled ?? 0) + (r.corrected ?? 0);
      return [h('strong', {}, 'Settled'), `: ${graded} recommendation${graded === 1 ? '' : 's'} graded`, d.resultVersion > 1 ? ` (result v${d.resultVersion})` : ''];
    }
    case 'result': {
      const home = num(d.homeGoals, d.home);
      const away = num(d.awayGoals, d.away);
      return [h('strong', {}, d.resultVersion > 1 ? 'Result corrected' : 'Result'), home !== undefined ? `: ${home} – ${away ?? '–'}` : '', d.voided ? ' (voided)' : ''];
    }
    default:
      return [m.kind];
  }
}

function rowOf(m) {
  return h(
    'li',
    { class: 'live-row', dataset: { kind: m.kind, eventId: m.eventId, id: m.id || '' } },
    h('time', { class: 'live-time', datetime: m.at, title: `${m.at} (world clock, UTC)` }, clock(m.at)),
    h('span', { class: 'live-event', title: `Event ${m.eventId}` }, eventLabel(m)),
    h('span', { class: 'live-what' }, describe(m)),
    m.conflated ? h('span', { class: 'badge badge-off', title: `${m.merged ?? 'Several'} updates merged: the reader stayed behind` }, 'merged') : null,
    m.delayed ? h('span', { class: 'badge badge-off', title: 'The test feed: delivered a delay after it was stored' }, 'delayed') : null,
  );
}

const gapRow = (reason) => h('li', { class: 'live-gap', dataset: { reason } }, `Changes missed here (${reason.replace(/_/g, ' ')})`);

export async function renderLive(ctx) {
  const status = h('span', { class: 'live-status', id: 'live-status', role: 'status', dataset: { state: 'connecting' } }, 'Connecting…');
  const notice = h('div', { id: 'live-notice' });
  const toggles = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Channels' });
  const lists = {};
  const cards = {};
  let source = null;
  let closedByUs = false;

  const setStatus = (kind, text) => {
    status.dataset.state = kind;
    status.textContent = text;
  };

  function add(channel, row) {
    const list = lists[channel];
    const kept = state.rows[channel];
    kept.unshift(row);
    list.prepend(row);
    while (kept.length > ROWS_PER_CHANNEL) kept.pop();
    while (list.children.length > ROWS_PER_CHANNEL) list.lastElementChild.remove();
    cards[channel].querySelector('.empty-row')?.remove();
  }

  function onMessage(channel, event) {
    let m;
    try {
      m = JSON.parse(event.data);
    } catch {
      return;
    }
    if (event.lastEventId) state.lastId = event.lastEventId;
    setStatus('connected', 'Connected');
    add(channel, rowOf({ ...m, id: event.lastEventId }));
  }

  function onSnapshot(event) {
    let reason = 'unknown';
    try {
      reason = JSON.parse(event.data).reason || reason;
    } catch {
      // keep 'unknown'
    }
    // What the page knew before may be stale: forget the remembered prices (no wrong "old → new"),
    // mark the gap in every list, and read on from now.
    state.prices.clear();
    for (const c of state.channels) add(c, gapRow(reason));
    setStatus('snapshot', 'Snapshot required: resynced');
    notice.replaceChildren(
      alertBox(
        'info',
        reason === 'slow_consumer'
          ? 'This page read too slowly and the server dropped the stream; it reconnects and resumes after the last change shown.'
          : `Some changes could not be replayed (${reason.replace(/_/g, ' ')}): the page started again from now and forgot the prices it held, so each next move shows its new price.`,
      ),
    );
  }

  async function onEnded(body) {
    // The server's own end (an error message), or a connection it refused (401, 429).
    closedByUs = true;
    source?.close();
    if (body?.code === 'not_signed_in') return ctx.expired();
    try {
      await getAccount();
    } catch (err) {
      if (err.status === 401) return ctx.expired();
    }
    setStatus('closed', 'Disconnected');
    const retry = h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: () => connect() }, 'Reconnect');
    const why = body?.message || 'The server refused the stream: an account may keep two Live pages open at once. Close another one, then reconnect.';
    notice.replaceChildren(h('div', { class: 'alert alert-error', role: 'alert' }, why, ' ', retry));
  }

  function connect() {
    source?.close();
    closedByUs = false;
    notice.replaceChildren();
    setStatus('connecting', 'Connecting…');
    const q = new URLSearchParams();
    if (state.channels.size < CHANNELS.length) q.set('channels', [...state.channels].join(','));
    if (state.lastId) q.set('lastEventId', state.lastId);
    const query = q.toString();
    const es = new window.EventSource(query ? `${STREAM}?${query}` : STREAM);
    source = es;
    es.addEventListener('open', () => setStatus('connected', 'Connected'));
    for (const [c] of CHANNELS) es.addEventListener(c, (e) => onMessage(c, e));
    es.addEventListener('snapshot_required', onSnapshot);
    es.addEventListener('error', (e) => {
      if (es !== source || closedByUs) return;
      if (e instanceof window.MessageEvent) {
        let body = null;
        try {
          body = JSON.parse(e.data);
        } catch {
          // not the error shape
        }
        return void onEnded(body);
      }
      // The connection dropped: EventSource retries by itself with Last-Event-ID; refused for good, it is closed.
      if (es.readyState === window.EventSource.CONNECTING) setStatus('reconnecting', 'Reconnecting…');
      else void onEnded(null);
    });
  }

  function toggle(channel, button) {
    if (state.channels.has(channel) && state.channels.size === 1) return; // at least one channel
    if (state.channels.has(channel)) state.channels.delete(channel);
    else state.channels.add(channel);
    button.setAttribute('aria-pressed', String(state.channels.has(channel)));
    cards[channel].hidden = !state.channels.has(channel);
    // The new set of channels, resumed after the last message received.
    connect();
  }

  for (const [c, label] of CHANNELS) {
    const button = h('button', { type: 'button', class: 'tab', 'aria-pressed': String(state.channels.has(c)), dataset: { channel: c } }, label);
    button.addEventListener('click', () => toggle(c, button));
    toggles.append(button);
    lists[c] = h('ol', { class: 'live-list', id: `live-list-${c}`, 'aria-live': 'polite', 'aria-relevant': 'additions' }, ...state.rows[c]);
    cards[c] = h(
      'section',
      { class: 'card live-card', hidden: !state.channels.has(c), dataset: { channel: c } },
      h('h2', {}, label),
      state.rows[c].length ? null : h('p', { class: 'hint empty-row' }, 'Nothing yet: changes appear here as they are stored.'),
      lists[c],
    );
  }

  ctx.onLeave(() => {
    closedByUs = true;
    source?.close();
  });
  ctx.afterMount(() => connect());
  return h(
    'section',
    {},
    h('h1', {}, 'Live'),
    h(
      'p',
      { class: 'lead' },
      'Every change the service stores: the test feed a test key gets from ',
      h('code', {}, 'GET /v2/stream'),
      ', here for your session, free, so each change arrives a delay after it was stored (5 minutes by default; rows say "delayed"). Live data is ',
      h('code', {}, 'GET /v2/stream'),
      ' with a live key.',
    ),
    h(
      'section',
      { class: 'card' },
      h('div', { class: 'card-head' }, h('h2', {}, 'Stream'), status),
      h('div', { class: 'controls' }, toggles),
      h(
        'p',
        { class: 'hint', id: 'live-clock' },
        "Times are the world clock's, in UTC (hh:mm:ss): the clock of the providers' data, which a demo or replay deployment runs faster than the wall clock.",
      ),
      notice,
    ),
    h('div', { class: 'live-grid' }, CHANNELS.map(([c]) => cards[c])),
    h('p', { class: 'hint' }, `The latest ${ROWS_PER_CHANNEL} messages of each channel, newest first. Leave the page and come back within the resume window (15 minutes by default): it resumes where it stopped.`),
  );
}
