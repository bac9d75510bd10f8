import { buyPackage, clearAutoRecharge, confirmCardSetup, getPaymentMethod, listPackages, removeCard, setAutoRecharge, startCardSetup } from '../api.js';
import { alertBox, h, pending, toast } from '../dom.js';
import { cents, credits } from '../format.js';

/** The contract's packages, shown when the server's list cannot be read (prices come only from it). */
const FALLBACK = [20000, 100000, 500000, 2000000].map((c) => ({ credits: c, priceCents: null }));

/**
 * The card purchases and auto-recharge charge is saved on the account by the server (docs/account.md):
 * on Stripe through Stripe's own page (Checkout in setup mode), which sends the browser back here
 * with ?setup=<id> to confirm; on the built-in test gateway by naming one of its test cards.
 */
async function paymentMethodCard(ctx) {
  const status = h('div', { class: 'form-errors', id: 'card-status' });
  const body = h('div', { class: 'stack', id: 'card-body' });
  const returned = new URLSearchParams(location.search).get('setup');
  if (returned) {
    try {
      await confirmCardSetup(returned);
      status.replaceChildren(alertBox('success', 'Your card is saved.'));
    } catch (err) {
      if (err.status === 401) throw err;
      status.replaceChildren(alertBox('error', err.message));
    }
    history.replaceState(null, '', `${location.pathname}${location.hash}`);
  }
  const show = async () => {
    const pm = await getPaymentMethod();
    if (pm.gateway === 'none') return body.replaceChildren(h('p', {}, 'This service sells no credits.'));
    const saved = pm.paymentMethod;
    const remove = h('button', { type: 'button', class: 'btn btn-secondary', id: 'card-remove', hidden: !saved }, 'Remove card');
    remove.addEventListener('click', () =>
      pending(remove, 'Removing…', async () => {
        await removeCard();
        status.replaceChildren(alertBox('success', 'Card removed: auto-recharge is off.'));
        await show();
      }),
    );
    const testCard = h('select', { id: 'test-card', name: 'testCard' }, pm.testCards.map((c) => h('option', { value: c }, c)));
    const add = h('button', { type: 'button', class: 'btn btn-primary', id: 'card-add' }, saved ? 'Replace card' : 'Add a card');
    add.addEventListener('click', () =>
      pending(add, 'Saving…', async () => {
        status.replaceChildren();
        try {
          const r = await startCardSetup(pm.gateway === 'test' ? testCard.value : undefined);
          if (r.setup.url) return void location.assign(r.setup.url); // Stripe's page; it sends the browser back here
          status.replaceChildren(alertBox('success', 'Your card is saved.'));
          await show();
        } catch (err) {
          if (err.status === 401) return ctx.expired();
          status.replaceChildren(alertBox('error', err.message));
        }
      }),
    );
    body.replaceChildren(
      h('p', { id: 'card-saved' }, saved ? `Saved: ${saved.paymentMethod}${saved.customer ? ` (customer ${saved.customer})` : ''}.` : 'No card saved yet: purchases and auto-recharge need one.'),
      pm.gateway === 'test'
        ? h('div', { class: 'field' }, h('label', { for: 'test-card' }, 'Test card (the built-in test gateway charges nothing: what it buys is test credits, for test keys only)'), testCard)
        : null,
      h('div', { class: 'row' }, add, remove),
    );
  };
  await show();
  return h('section', { class: 'card' }, h('h2', {}, 'Payment method'), status, body);
}

export async function renderBilling(ctx) {
  const account = await ctx.refreshAccount();
  let packages = FALLBACK;
  let packagesError = null;
  try {
    const listed = await listPackages();
    if (listed.length) packages = listed;
  } catch (err) {
    if (err.status === 401) throw err;
    packagesError = err.message;
  }
  const ar = account.autoRecharge;

  const cardSection = await paymentMethodCard(ctx);
  const buyStatus = h('div', { class: 'form-errors', id: 'buy-status' });
  const balanceText = h('strong', { id: 'billing-balance' }, credits(account.balance));
  // Test money is test money: what the test gateway sells is test credits, a balance apart that only test keys see.
  const testBalanceText = h('strong', { id: 'billing-test-balance' }, credits(account.testBalance));
  const testBalanceLine = h(
    'p',
    { id: 'billing-test-balance-line', hidden: !(account.testBalance > 0) },
    'Test credits: ',
    testBalanceText,
    '. Bought through the test gateway (nothing was charged): only test keys see them, in X-Credits-Remaining; live keys never spend them.',
  );
  const perThousand = (p) => (p.priceCents ? `${cents((p.priceCents / p.credits) * 1000)} per 1,000` : '');

  const cards = packages.map((p, i) =>
    h(
      'li',
      { class: `package${i === 1 ? ' package-featured' : ''}` },
      h('p', { class: 'package-credits' }, credits(p.credits), h('span', {}, ' credits')),
      h('p', { class: 'package-price' }, p.priceCents != null ? cents(p.priceCents) : ''),
      h('p', { class: 'hint' }, perThousand(p)),
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-primary btn-block',
          dataset: { package: String(p.credits) },
          onclick: (event) =>
            pending(event.currentTarget, 'Buying…', async () => {
              buyStatus.replaceChildren();
              try {
                const bought = await buyPackage(p.credits);
                const after = await ctx.refreshAccount();
                balanceText.textContent = credits(after.balance);
                testBalanceText.textContent = credits(after.testBalance);
                testBalanceLine.hidden = !(after.testBalance > 0);
                buyStatus.replaceChildren(
                  alertBox(
                    'success',
                    bought?.mode === 'test'
                      ? `Added ${credits(p.credits)} credits as test credits (the test gateway: only test keys see them). Your test credits: ${credits(after.testBalance)}; your balance stays ${credits(after.balance)}.`
                      : `Added ${credits(p.credits)} credits. Your balance is ${credits(after.balance)}.`,
                  ),
                );
              } catch (err) {
                if (err.status === 401) return ctx.expired();
                buyStatus.replaceChildren(alertBox('error', err.message));
              }
            }),
        },
        'Buy',
      ),
    ),
  );

  const threshold = h('input', { id: 'ar-threshold', name: 'threshold', type: 'number', min: 1, step: 1, inputmode: 'numeric', required: true, value: ar.threshold || 1000 });
  const pkg = h(
    'select',
    { id: 'ar-package', name: 'package' },
    packages.map((p) => h('option', { value: String(p.credits), selected: ar.package ? p.credits === Number(ar.package) : p.credits === 20000 }, `${credits(p.credits)} credits${p.priceCents != null ? ` (${cents(p.priceCents)})` : ''}`)),
  );
  const arStatus = h('div', { class: 'form-errors', id: 'ar-status' });
  const state = h('p', { class: 'ar-state', id: 'ar-state' });
  const save = h('button', { type: 'submit', class: 'btn btn-primary' }, ar.enabled ? 'Save changes' : 'Turn on');
  const off = h('button', { type: 'button', class: 'btn btn-secondary', hidden: !ar.enabled }, 'Turn off');
  const showState = (a) => {
    state.replaceChildren(
      h('span', { class: `badge ${a.enabled ? 'badge-on' : 'badge-off'}` }, a.enabled ? 'On' : 'Off'),
      ' ',
      a.enabled ? `Buys ${credits(a.package)} credits when your balance falls below ${credits(a.threshold)}.` : a.disabledReason ? `Turned off: ${a.disabledReason}` : 'Auto-recharge is off.',
    );
    save.textContent = a.enabled ? 'Save changes' : 'Turn on';
    off.hidden = !a.enabled;
  };
  showState(ar);

  const arForm = h(
    'form',
    { class: 'stack', novalidate: true },
    state,
    arStatus,
    h('div', { class: 'row' }, h('div', { class: 'field' }, h('label', { for: 'ar-threshold' }, 'When the balance falls below'), threshold), h('div', { class: 'field' }, h('label', { for: 'ar-package' }, 'buy'), pkg)),
    h('div', { class: 'row' }, save, off),
  );
  arForm.addEventListener('submit', (event) => {
    event.preventDefault();
    arStatus.replaceChildren();
    const t = Number(threshold.value);
    if (!Number.isInteger(t) || t < 1 || t >= Number(pkg.value)) {
      arStatus.replaceChildren(alertBox('error', `The threshold is a whole number of credits, from 1 to below the package's ${credits(Number(pkg.value))}.`));
      threshold.focus();
      return;
    }
    return pending(save, 'Saving…', async () => {
      try {
        await setAutoRecharge(t, Number(pkg.value));
        showState((await ctx.refreshAccount()).autoRecharge);
        toast('Auto-recharge is on');
      } catch (err) {
        if (err.status === 401) return ctx.expired();
        arStatus.replaceChildren(alertBox('error', err.message));
      }
    });
  });
  off.addEventListener('click', () =>
    pending(off, 'Turning off…', async () => {
      arStatus.replaceChildren();
      try {
        await clearAutoRecharge();
        showState((await ctx.refreshAccount()).autoRecharge);
        toast('Auto-recharge is off');
      } catch (err) {
        if (err.status === 401) return ctx.expired();
        arStatus.replaceChildren(alertBox('error', err.message));
      }
    }),
  );

  return h(
    'section',
    {},
    h('h1', {}, 'Billing'),
    cardSection,
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Buy credits'),
      h('p', {}, 'Your live balance: ', balanceText, ' credits (what live keys spend). Credits never expire.'),
      testBalanceLine,
      packagesError ? alertBox('error', `Could not load the packages: ${packagesError}`) : null,
      buyStatus,
      h('ul', { class: 'packages' }, cards),
    ),
    h('section', { class: 'card' }, h('h2', {}, 'Auto-recharge'), h('p', {}, 'Buy a package automatically when your balance runs low, so your integration never gets a 402.'), arForm),
  );
}
