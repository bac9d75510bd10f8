import { request } from '../api.js';
import { alertBox, copyButton, h, pending, toast } from '../dom.js';
import { when } from '../format.js';

/** The events an endpoint can subscribe to (docs/webhooks.md), with what a delivery of each costs. */
const EVENTS = [
  ['recommendation.created', 'A new recommendation', '1 credit'],
  ['recommendation.settled', 'A recommendation graded, with its closing line', '1 credit'],
  ['pick.created', 'A new featured pick', '1 credit'],
  ['balance.low', 'Your live balance is low', 'free'],
  ['recharge.succeeded', 'An auto-recharge was charged', 'free'],
  ['recharge.failed', 'An auto-recharge failed', 'free'],
];

const path = (id, rest = '') => `/webhooks/${encodeURIComponent(id)}${rest}`;

/**
 * The account's webhook endpoints: create one (its signing secret shown once), see each one's
 * state (turned off after failing, with the reason), send a test, rotate the secret, delete, and
 * see each one's deliveries with every attempt.
 */
export async function renderWebhooks(ctx) {
  const status = h('div', { class: 'form-errors' });
  const secretSlot = h('div');
  const listSlot = h('div');
  const deliveriesSlot = h('div');
  let shown = null; // the endpoint whose deliveries are shown

  const url = h('input', { id: 'webhook-url', name: 'url', type: 'url', required: true, maxlength: 2000, placeholder: 'https://example.com/webhooks/odds', autocomplete: 'off' });
  const boxes = EVENTS.map(([type, label, price]) =>
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name: 'events', value: type, checked: type.startsWith('recommendation.') }),
      h('span', {}, h('code', {}, type), ' ', label),
      h('small', {}, price),
    ),
  );
  const submit = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Add endpoint');
  const form = h(
    'form',
    { class: 'webhook-form', novalidate: true },
    h('div', { class: 'field grow' }, h('label', { for: 'webhook-url' }, 'Endpoint URL'), url),
    h('fieldset', { class: 'field events' }, h('legend', {}, 'Events'), boxes),
    h('div', { class: 'field' }, submit),
  );

  const fail = (slot, err) => {
    if (err.status === 401) return ctx.expired();
    slot.replaceChildren(alertBox('error', err.message));
  };

  async function refresh() {
    try {
      const body = await request('GET', '/webhooks');
      listSlot.replaceChildren(endpointsView(body.data));
      if (shown && !body.data.some((e) => e.id === shown.id)) {
        shown = null;
        deliveriesSlot.replaceChildren();
      }
    } catch (err) {
      fail(listSlot, err);
    }
  }

  function endpointsView(endpoints) {
    if (endpoints.length === 0)
      return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, 'No endpoints yet'), h('p', {}, 'Add one above: events are POSTed to it, signed, and retried for a day if it fails.'));
    const off = endpoints.filter((e) => !e.enabled);
    return h(
      'div',
      {},
      off.map((e) => alertBox('error', `Endpoint ${e.url} was turned off on ${when(e.disabledAt)}: ${e.disabledReason || 'it kept failing'}. Fix it, then turn it back on.`)),
      h(
        'table',
        { class: 'table webhooks-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['URL', 'Events', 'State', 'Created', ''].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          {},
          endpoints.map((e) =>
            h(
              'tr',
              { dataset: { endpointId: e.id } },
              h('td', { 'data-label': 'URL', class: 'webhook-url' }, h('code', {}, e.url)),
              h(
                'td',
                { 'data-label': 'Events', class: 'webhook-events' },
                e.events.map((t) => h('div', {}, h('code', {}, t))),
              ),
              h(
                'td',
                { 'data-label': 'State' },
                e.enabled ? h('span', { class: 'badge badge-on' }, 'on') : h('span', { class: 'badge badge-off' }, 'off'),
                e.failedAttemptsInARow ? h('div', { class: 'hint' }, `${e.failedAttemptsInARow} failed in a row (${e.lastError})`) : null,
              ),
              h('td', { 'data-label': 'Created' }, when(e.createdAt)),
              h(
                'td',
                { class: 'actions' },
                e.enabled
                  ? null
                  : h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: (ev) => act(ev.currentTarget, 'Turning on…', e, '/enable', 'Turned back on') }, 'Turn on'),
                h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: (ev) => sendTest(ev.currentTarget, e) }, 'Send test'),
                h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: (ev) => showDeliveries(ev.currentTarget, e) }, 'Deliveries'),
                h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: (ev) => rotate(ev.currentTarget, e) }, 'Rotate secret'),
                h('button', { type: 'button', class: 'btn btn-danger btn-small', onclick: () => confirmDelete(e) }, 'Delete'),
              ),
            ),
          ),
        ),
      ),
    );
  }

  async function act(button, label, e, rest, done) {
    await pending(button, label, async () => {
      try {
        await request('POST', path(e.id, rest));
        toast(done);
        await refresh();
      } catch (err) {
        fail(status, err);
      }
    });
  }

  async function sendTest(button, e) {
    await pending(button, 'Sending…', async () => {
      try {
        await request('POST', path(e.id, '/test'));
        toast('Test event sent');
        // The attempt takes a moment: show the deliveries once it is made.
        setTimeout(() => void loadDeliveries(e), 1500);
        await loadDeliveries(e);
      } catch (err) {
        fail(status, err);
      }
    });
  }

  async function rotate(button, e) {
    await pending(button, 'Rotating…', async () => {
      try {
        const r = await request('POST', path(e.id, '/rotate-secret'));
        showSecret(r.secret, e.url, `The previous secret also signs until ${when(r.previousSecretExpiresAt)}, so your receiver can switch without missing one.`);
      } catch (err) {
        fail(status, err);
      }
    });
  }

  function confirmDelete(e) {
    const errors = h('div', { class: 'form-errors' });
    const yes = h('button', { type: 'button', class: 'btn btn-danger' }, 'Delete endpoint');
    const no = h('button', { type: 'button', class: 'btn btn-secondary' }, 'Cancel');
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'delete-webhook-title' },
      h('h2', { id: 'delete-webhook-title' }, 'Delete this endpoint?'),
      h('p', {}, h('code', {}, e.url), ' gets nothing more, retries included; its deliveries are deleted too.'),
      errors,
      h('div', { class: 'dialog-actions' }, no, yes),
    );
    no.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());
    yes.addEventListener('click', () =>
      pending(yes, 'Deleting…', async () => {
        try {
          await request('DELETE', path(e.id));
          dialog.close();
          toast('Endpoint deleted');
          await refresh();
        } catch (err) {
          fail(errors, err);
        }
      }),
    );
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  }

  async function showDeliveries(button, e) {
    await pending(button, 'Loading…', () => loadDeliveries(e));
  }

  async function loadDeliveries(e) {
    shown = e;
    try {
      const body = await request('GET', path(e.id, '/deliveries?limit=20'));
      deliveriesSlot.replaceChildren(deliveriesView(e, body.data));
    } catch (err) {
      fail(deliveriesSlot, err);
    }
  }

  function attemptText(a) {
    const outcome = a.statusCode !== null ? `HTTP ${a.statusCode}` : a.error;
    return `#${a.n} ${when(a.at)}: ${outcome}, ${a.durationMs} ms${a.manual ? ' (redelivered)' : ''}`;
  }

  function deliveriesView(e, deliveries) {
    const reload = h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: (ev) => showDeliveries(ev.currentTarget, e) }, 'Refresh');
    const head = h('div', { class: 'card-head' }, h('h2', {}, 'Deliveries to ', h('code', {}, e.url)), reload);
    if (deliveries.length === 0) return h('section', { class: 'card deliveries' }, head, h('p', { class: 'hint' }, 'Nothing delivered yet. Send a test to see one.'));
    return h(
      'section',
      { class: 'card deliveries' },
      head,
      h(
        'table',
        { class: 'table deliveries-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Event', 'Status', 'Attempts', ''].map((t) => h('th', { scope: 'col' }, t)),
          ),
        ),
        h(
          'tbody',
          {},
          deliveries.map((d) =>
            h(
              'tr',
              { dataset: { deliveryId: d.id } },
              h('td', { 'data-label': 'Event' }, h('code', {}, d.type), h('div', { class: 'hint' }, d.eventId)),
              h(
                'td',
                { 'data-label': 'Status' },
                h('span', { class: `badge ${d.status === 'delivered' ? 'badge-on' : d.status === 'pending' ? 'badge-test' : 'badge-off'}` }, d.status),
                d.nextAttemptAt && d.status === 'pending' ? h('div', { class: 'hint' }, `next ${when(d.nextAttemptAt)}`) : null,
              ),
              h('td', { 'data-label': 'Attempts', class: 'attempts' }, d.attempts.length ? d.attempts.map((a) => h('div', {}, attemptText(a))) : 'none yet'),
              h(
                'td',
                { class: 'actions' },
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'btn btn-secondary btn-small',
                    onclick: (ev) =>
                      pending(ev.currentTarget, 'Sending…', async () => {
                        try {
                          await request('POST', path(e.id, `/deliveries/${encodeURIComponent(d.id)}/redeliver`));
                          toast('Sent again');
                          setTimeout(() => void loadDeliveries(e), 1500);
                        } catch (err) {
                          fail(deliveriesSlot, err);
                        }
                      }),
                  },
                  'Redeliver',
                ),
              ),
            ),
          ),
        ),
      ),
    );
  }

  function showSecret(secret, endpointUrl, note) {
    secretSlot.replaceChildren(
      h(
        'div',
        { class: 'secret', role: 'status' },
        h('h2', {}, 'Signing secret for ', h('code', {}, endpointUrl)),
        h('p', {}, h('strong', {}, 'Copy it now: it will not be shown again.'), ' Verify each delivery with it (the standardwebhooks library, or HMAC-SHA256: see the API reference).'),
        h(
          'div',
          { class: 'secret-value' },
          h('code', { id: 'webhook-secret' }, secret),
          copyButton(() => secret),
        ),
        note ? h('p', { class: 'hint' }, note) : null,
        h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: () => secretSlot.replaceChildren() }, 'I have saved it'),
      ),
    );
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.replaceChildren();
    const events = boxes
      .map((b) => b.querySelector('input'))
      .filter((i) => i.checked)
      .map((i) => i.value);
    if (!url.value.trim()) {
      status.replaceChildren(alertBox('error', 'Give the URL events are sent to.'));
      url.focus();
      return;
    }
    if (events.length === 0) {
      status.replaceChildren(alertBox('error', 'Choose at least one event.'));
      return;
    }
    await pending(submit, 'Adding…', async () => {
      try {
        const created = await request('POST', '/webhooks', { url: url.value.trim(), events });
        showSecret(created.secret, created.url);
        url.value = '';
        await refresh();
      } catch (err) {
        fail(status, err);
      }
    });
  });

  listSlot.append(h('p', { class: 'loading' }, 'Loading endpoints…'));
  await refresh();
  return h(
    'section',
    {},
    h('h1', {}, 'Webhooks'),
    h('p', { class: 'lead' }, 'Events POSTed to your server as they happen, signed (Standard Webhooks), retried for 27 hours, at least once and in no promised order.'),
    h('section', { class: 'card' }, h('h2', {}, 'Add an endpoint'), status, form),
    secretSlot,
    h('section', { class: 'card' }, h('h2', {}, 'Your endpoints'), listSlot),
    deliveriesSlot,
  );
}
