import { ApiError, getAccount, signOut } from './api.js';
import { alertBox, h, pending, toast } from './dom.js';
import { credits } from './format.js';
import { renderSignIn, renderSignUp } from './views/auth.js';
import { renderBilling } from './views/billing.js';
import { renderKeys } from './views/keys.js';
import { renderLive } from './views/live.js';
import { renderOverview } from './views/overview.js';
import { renderTrackRecord } from './views/trackRecord.js';
import { renderUsage } from './views/usage.js';
import { renderWebhooks } from './views/webhooks.js';

const PUBLIC_VIEWS = { signup: renderSignUp, signin: renderSignIn };
const PRIVATE_VIEWS = { overview: renderOverview, keys: renderKeys, webhooks: renderWebhooks, usage: renderUsage, billing: renderBilling, 'track-record': renderTrackRecord, live: renderLive };
const TITLES = { signup: 'Sign up', signin: 'Sign in', overview: 'Overview', keys: 'API keys', webhooks: 'Webhooks', usage: 'Usage', billing: 'Billing', 'track-record': 'Track record', live: 'Live' };

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const session = document.getElementById('session');

/** What the views share: the signed-in account, the key created in this tab, navigation. */
const ctx = {
  account: null,
  lastKey: null,
  usageDays: 30,
  leaving: [],
  mounted: [],
  async refreshAccount() {
    ctx.account = await getAccount();
    showSession(ctx.account);
    return ctx.account;
  },
  signedIn(account, isNew) {
    ctx.account = account;
    showSession(account);
    if (isNew) toast(`Welcome! ${credits(account.balance)} free credits are yours.`);
    go(isNew ? 'keys' : 'overview');
  },
  expired() {
    signedOut();
    showNotice('Your session has ended. Sign in again.');
    go('signin');
  },
  onLeave: (fn) => ctx.leaving.push(fn),
  afterMount: (fn) => ctx.mounted.push(fn),
};

function showSession(account) {
  session.hidden = false;
  nav.hidden = false;
  document.getElementById('header-email').textContent = account.email;
  document.getElementById('header-balance').textContent = `${credits(account.balance)} credits`;
}

function signedOut() {
  ctx.account = null;
  ctx.lastKey = null;
  session.hidden = true;
  nav.hidden = true;
}

function go(view) {
  if (location.hash === `#/${view}`) void route();
  else location.hash = `#/${view}`;
}

let notice = null;
function showNotice(message) {
  notice = message;
}

let generation = 0;
async function route() {
  const mine = ++generation;
  for (const fn of ctx.leaving.splice(0)) fn();
  ctx.mounted = [];
  const view = location.hash.replace(/^#\/?/, '') || 'overview';
  const isPublic = view in PUBLIC_VIEWS;
  const render = PUBLIC_VIEWS[view] || PRIVATE_VIEWS[view];
  if (!render) return go(ctx.account ? 'overview' : 'signin');

  if (!isPublic && !ctx.account) {
    // First load or after sign-out: the cookie may still hold a session.
    try {
      await ctx.refreshAccount();
    } catch (err) {
      if (mine !== generation) return;
      if (err instanceof ApiError && err.status === 401) return go('signin');
      return main.replaceChildren(alertBox('error', `Could not load your account: ${err.message}`), h('button', { type: 'button', class: 'btn btn-secondary', onclick: () => route() }, 'Try again'));
    }
  }
  if (isPublic && ctx.account) return go('overview');

  document.title = `${TITLES[view]} - Sports Odds API`;
  for (const a of nav.querySelectorAll('a[data-view]')) a.toggleAttribute('aria-current', a.dataset.view === view);
  main.setAttribute('aria-busy', 'true');
  try {
    const el = await render(ctx);
    if (mine !== generation) return;
    const pendingNotice = notice;
    notice = null;
    main.replaceChildren(...(pendingNotice ? [alertBox('info', pendingNotice)] : []), el);
    main.dataset.view = view;
    for (const fn of ctx.mounted.splice(0)) await fn();
  } catch (err) {
    if (mine !== generation) return;
    if (err instanceof ApiError && err.status === 401) return ctx.expired();
    main.replaceChildren(alertBox('error', err.message || 'Something went wrong.'), h('button', { type: 'button', class: 'btn btn-secondary', onclick: () => route() }, 'Try again'));
  } finally {
    if (mine === generation) main.removeAttribute('aria-busy');
  }
}

document.getElementById('signout').addEventListener('click', (event) =>
  pending(event.currentTarget, 'Signing out…', async () => {
    try {
      await signOut();
    } catch {
      // The session is gone either way for this page; the server forgets it on expiry.
    }
    signedOut();
    showNotice('You are signed out.');
    go('signin');
  }),
);

window.addEventListener('hashchange', () => void route());
void route();
