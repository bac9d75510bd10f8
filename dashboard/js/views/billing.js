import { buyPackage, clearAutoRecharge, listPackages, setAutoRecharge } from '../api.js';
import { alertBox, h, pending, toast } from '../dom.js';
import { cents, credits } from '../format.js';

/** The contract's packages, shown when the server's list cannot be read (prices come only from it). */
const FALLBACK = [20000, 100000, 500000, 2000000].map((c) => ({ credits: c, priceCents: null }));
/** The built-in test gateway charges Stripe's test payment methods (docs/metering.md). */
const TEST_METHOD = 'pm_card_visa';

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

  // One payment method for both forms: there is no card form here (no third-party script on this page).
  const method = h('input', { id: 'payment-method', name: 'paymentMethod', type: 'text', value: ar.paymentMethod || TEST_METHOD, required: true, autocomplete: 'off', spellcheck: 'false' });
  const buyStatus = h('div', { class: 'form-errors', id: 'buy-status' });
  const balanceText = h('strong', { id: 'billing-balance' }, credits(account.balance));
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
              if (!method.value.trim()) return buyStatus.replaceChildren(alertBox('error', 'Enter a payment method.'));
              try {
                await buyPackage(p.credits, method.value.trim());
                const after = await ctx.refreshAccount();
                balanceText.textContent = credits(after.balance);
                buyStatus.replaceChildren(alertBox('success', `Added ${credits(p.credits)} credits. Your balance is ${credits(after.balance)}.`));
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
    if (!Number.isInteger(t) || t < 1) {
      arStatus.replaceChildren(alertBox('error', 'The threshold is a whole number of credits, 1 or more.'));
      threshold.focus();
      return;
    }
    if (!method.value.trim()) return arStatus.replaceChildren(alertBox('error', 'Enter a payment method.'));
    return pending(save, 'Saving…', async () => {
      try {
        await setAutoRecharge(t, Number(pkg.value), method.value.trim());
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
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Payment method'),
      h('div', { class: 'field' }, h('label', { for: 'payment-method' }, 'Saved payment method id'), method),
      h('p', { class: 'hint' }, 'The id of a payment method saved with the payment gateway. On the built-in test gateway, ', h('code', {}, TEST_METHOD), ' succeeds and ', h('code', {}, 'pm_card_chargeDeclined'), ' is declined.'),
    ),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, 'Buy credits'),
      h('p', {}, 'Your balance: ', balanceText, ' credits. Credits never expire.'),
      packagesError ? alertBox('error', `Could not load the packages: ${packagesError}`) : null,
      buyStatus,
      h('ul', { class: 'packages' }, cards),
    ),
    h('section', { class: 'card' }, h('h2', {}, 'Auto-recharge'), h('p', {}, 'Buy a package automatically when your balance runs low, so your integration never gets a 402.'), arForm),
  );
}
