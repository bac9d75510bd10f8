import { createKey, listKeys, revokeKey } from '../api.js';
import { alertBox, copyButton, h, pending, toast } from '../dom.js';
import { when } from '../format.js';

export async function renderKeys(ctx) {
  const status = h('div', { class: 'form-errors' });
  const secretSlot = h('div');
  const listSlot = h('div', { class: 'keys-list' });

  const name = h('input', { id: 'key-name', name: 'name', type: 'text', required: true, maxlength: 100, placeholder: 'e.g. production server', autocomplete: 'off' });
  const modeLive = h('input', { type: 'radio', name: 'mode', value: 'live', id: 'mode-live', checked: true });
  const modeTest = h('input', { type: 'radio', name: 'mode', value: 'test', id: 'mode-test' });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Create key');
  const form = h(
    'form',
    { class: 'create-key', novalidate: true },
    h('div', { class: 'field grow' }, h('label', { for: 'key-name' }, 'Name'), name),
    h(
      'fieldset',
      { class: 'field segmented' },
      h('legend', {}, 'Mode'),
      h('label', { for: 'mode-live' }, modeLive, h('span', {}, 'Live'), h('small', {}, 'debits credits')),
      h('label', { for: 'mode-test' }, modeTest, h('span', {}, 'Test'), h('small', {}, 'free, slower limit')),
    ),
    h('div', { class: 'field' }, submit),
  );

  async function refresh() {
    try {
      const keys = await listKeys();
      listSlot.replaceChildren(keysTable(keys));
    } catch (err) {
      if (err.status === 401) return ctx.expired();
      listSlot.replaceChildren(alertBox('error', `Could not load your keys: ${err.message}`));
    }
  }

  function keysTable(keys) {
    const active = keys.filter((k) => !k.revoked);
    if (active.length === 0) return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, 'No keys yet'), h('p', {}, 'Create your first key above: a live key spends credits, a test key is free for development.'));
    return h(
      'table',
      { class: 'table keys-table' },
      h('thead', {}, h('tr', {}, ['Name', 'Mode', 'Key', 'Created', 'Last used', ''].map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        active.map((k) =>
          h(
            'tr',
            { dataset: { keyId: k.id } },
            h('td', { 'data-label': 'Name', class: 'key-name' }, k.name || '(unnamed)'),
            h('td', { 'data-label': 'Mode' }, h('span', { class: `badge badge-${k.mode}` }, k.mode)),
            h('td', { 'data-label': 'Key' }, h('code', {}, `${k.prefix}…`)),
            h('td', { 'data-label': 'Created' }, when(k.createdAt)),
            h('td', { 'data-label': 'Last used' }, when(k.lastUsedAt)),
            h('td', { class: 'actions' }, h('button', { type: 'button', class: 'btn btn-danger btn-small', onclick: () => confirmRevoke(k) }, 'Revoke')),
          ),
        ),
      ),
    );
  }

  function confirmRevoke(k) {
    const errors = h('div', { class: 'form-errors' });
    const yes = h('button', { type: 'button', class: 'btn btn-danger' }, 'Revoke key');
    const no = h('button', { type: 'button', class: 'btn btn-secondary', value: 'cancel' }, 'Cancel');
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'revoke-title' },
      h('h2', { id: 'revoke-title' }, `Revoke “${k.name || k.prefix}”?`),
      h('p', {}, 'Requests with ', h('code', {}, `${k.prefix}…`), ' are refused from the next one on. This cannot be undone.'),
      errors,
      h('div', { class: 'dialog-actions' }, no, yes),
    );
    no.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());
    yes.addEventListener('click', () =>
      pending(yes, 'Revoking…', async () => {
        no.disabled = true;
        try {
          await revokeKey(k.id);
          if (ctx.lastKey?.id === k.id) ctx.lastKey = null;
          dialog.close();
          toast(`Key “${k.name}” revoked`);
          await refresh();
        } catch (err) {
          if (err.status === 401) return ctx.expired();
          errors.replaceChildren(alertBox('error', err.message));
        } finally {
          no.disabled = false;
        }
      }),
    );
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  }

  function showSecret(created, keyName, mode) {
    const code = h('code', { id: 'new-key' }, created.key);
    secretSlot.replaceChildren(
      h(
        'div',
        { class: 'secret', role: 'status' },
        h('h2', {}, `Your new ${mode} key “${keyName}”`),
        h('p', {}, h('strong', {}, 'Copy it now: it will not be shown again.'), ' We store only its hash.'),
        h('div', { class: 'secret-value' }, code, copyButton(() => created.key)),
        h('p', { class: 'hint' }, 'The ', h('a', { href: '#/overview' }, 'overview'), ' has a quick-start snippet with this key filled in.'),
        h('button', { type: 'button', class: 'btn btn-secondary btn-small', onclick: () => secretSlot.replaceChildren() }, 'I have saved it'),
      ),
    );
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.replaceChildren();
    const keyName = name.value.trim();
    if (!keyName) {
      status.replaceChildren(alertBox('error', 'Give the key a name, such as the server or app that will use it.'));
      name.focus();
      return;
    }
    const mode = modeTest.checked ? 'test' : 'live';
    await pending(submit, 'Creating…', async () => {
      try {
        const created = await createKey(keyName, mode);
        ctx.lastKey = { id: created.id, key: created.key, name: keyName };
        showSecret(created, keyName, mode);
        form.reset();
        await refresh();
      } catch (err) {
        if (err.status === 401) return ctx.expired();
        status.replaceChildren(alertBox('error', err.message));
      }
    });
  });

  listSlot.append(h('p', { class: 'loading' }, 'Loading keys…'));
  await refresh();
  return h(
    'section',
    {},
    h('h1', {}, 'API keys'),
    h('section', { class: 'card' }, h('h2', {}, 'Create a key'), status, form),
    secretSlot,
    h('section', { class: 'card' }, h('h2', {}, 'Your keys'), listSlot),
  );
}
