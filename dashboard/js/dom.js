/**
 * Builds elements without innerHTML: every piece of text from the API (key names, e-mails, error
 * messages) becomes a text node, so nothing it contains is ever parsed as markup.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = value;
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== null) el.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/** An alert box for an error or a success message, announced to screen readers. */
export function alertBox(kind, message) {
  return h('div', { class: `alert alert-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, message);
}

/**
 * Runs `action` with the button disabled and labelled as pending, so a second click cannot send
 * the request twice; the label comes back whatever the outcome.
 */
export async function pending(button, label, action) {
  const original = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = label;
  try {
    return await action();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    // Unless the action relabelled the button itself ("Turn on" becoming "Save changes").
    if (button.textContent === label) button.textContent = original;
  }
}

/** Copies text and says so on the button for a moment; falls back to selecting the text. */
export function copyButton(getText, label = 'Copy') {
  const button = h('button', { type: 'button', class: 'btn btn-small btn-secondary copy' }, label);
  button.addEventListener('click', async () => {
    const text = getText();
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      // Clipboard refused (http on another host, permissions): select the text for a manual copy.
      const code = button.closest('.codeblock, .secret')?.querySelector('code, pre');
      if (code) window.getSelection()?.selectAllChildren(code);
      button.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => (button.textContent = label), 1800);
  });
  return button;
}

let toastTimer;
export function toast(message) {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), 3500);
}
