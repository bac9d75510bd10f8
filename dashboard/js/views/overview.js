import { listKeys } from '../api.js';
import { h } from '../dom.js';
import { credits } from '../format.js';
import { quickStart } from './snippet.js';

export async function renderOverview(ctx) {
  const account = await ctx.refreshAccount();
  let keys = [];
  let keysError = null;
  try {
    keys = (await listKeys()).filter((k) => !k.revoked);
  } catch (err) {
    if (err.status === 401) throw err;
    keysError = err.message;
  }
  const ar = account.autoRecharge;
  const low = account.balance < 100;

  const balance = h(
    'div',
    { class: 'card stat' },
    h('h2', { class: 'stat-label' }, 'Credit balance (live)'),
    h('p', { class: `stat-value${low ? ' stat-low' : ''}`, id: 'balance', 'data-balance': String(account.balance) }, credits(account.balance)),
    h('p', { class: 'stat-note' }, low ? 'Running low: buy a package or turn on auto-recharge.' : 'Credits never expire.'),
    // Test money is test money: credits bought through the test gateway are a balance apart, never spent by a live key.
    account.testBalance > 0
      ? h('p', { class: 'stat-note', id: 'test-balance', 'data-test-balance': String(account.testBalance) }, `Test credits: ${credits(account.testBalance)} (bought through the test gateway; only test keys see them, live keys never spend them).`)
      : null,
    h('a', { class: 'btn btn-secondary btn-small', href: '#/billing' }, 'Buy credits'),
  );
  const recharge = h(
    'div',
    { class: 'card stat' },
    h('h2', { class: 'stat-label' }, 'Auto-recharge'),
    h('p', { class: 'stat-value stat-text' }, ar.enabled ? 'On' : 'Off'),
    h('p', { class: 'stat-note' }, ar.enabled ? `Buys ${credits(ar.package)} credits when the balance falls below ${credits(ar.threshold)}.` : ar.disabledReason ? `Turned off: ${ar.disabledReason}` : 'Never run dry: top up automatically.'),
    h('a', { class: 'btn btn-secondary btn-small', href: '#/billing' }, ar.enabled ? 'Change' : 'Set up'),
  );
  const keyStat = h(
    'div',
    { class: 'card stat' },
    h('h2', { class: 'stat-label' }, 'Active keys'),
    h('p', { class: 'stat-value' }, keysError ? '–' : String(keys.length)),
    h('p', { class: 'stat-note' }, keysError || `${keys.filter((k) => k.mode === 'live').length} live, ${keys.filter((k) => k.mode === 'test').length} test`),
    h('a', { class: 'btn btn-secondary btn-small', href: '#/keys' }, 'Manage keys'),
  );

  // The secret is shown once: only a key created in this tab can fill the snippet in full.
  const shownKey = ctx.lastKey?.key;
  // The key a developer most likely means: the newest live one, else the newest test one.
  const newest = [...keys].sort((a, b) => Number(b.mode === 'live') - Number(a.mode === 'live') || String(b.createdAt).localeCompare(String(a.createdAt)))[0];
  const placeholder = newest ? `${newest.prefix}…` : 'sk_live_YOUR_KEY';
  const start = h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Quick start'),
    shownKey
      ? h('p', {}, 'Your new key ', h('strong', {}, ctx.lastKey.name), ' is filled in. Run this from a terminal:')
      : newest
        ? h('p', {}, 'Replace ', h('code', {}, placeholder), ' with the key you saved when you created it, or ', h('a', { href: '#/keys' }, 'create a new key'), '.')
        : h('p', {}, 'Create a key first, then call the API with it. ', h('a', { class: 'btn btn-primary btn-small', href: '#/keys' }, 'Create a key')),
    quickStart(shownKey || placeholder),
    h('p', { class: 'hint' }, 'Each answer carries ', h('code', {}, 'X-Credits-Remaining'), ' and ', h('code', {}, 'X-Credits-Consumed'), '. Test keys (', h('code', {}, 'sk_test_'), ') cost nothing and are rate-limited tighter. ', h('a', { href: '/v2/docs/' }, 'API reference'), ' · ', h('a', { href: '/v2/costs' }, 'price of each endpoint'), '.'),
  );
  return h('section', {}, h('h1', {}, 'Overview'), h('div', { class: 'grid-3' }, balance, recharge, keyStat), start);
}
