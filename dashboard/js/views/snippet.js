import { copyButton, h } from '../dom.js';

/** The read API takes the key as a bearer token (api/middleware/metering.ts). */
export function snippets(key) {
  const origin = window.location.origin;
  const url = `${origin}/v2/matches?limit=5`;
  return {
    curl: `curl -H "Authorization: Bearer ${key}" \\\n  "${url}"`,
    javascript: [
      `const res = await fetch('${url}', {`,
      `  headers: { Authorization: 'Bearer ${key}' },`,
      `});`,
      `const { data } = await res.json();`,
      `console.log(res.headers.get('X-Credits-Remaining'), 'credits left', data);`,
    ].join('\n'),
  };
}

/** A tabbed code block (curl / JavaScript) with a copy button. */
export function quickStart(key) {
  const code = snippets(key);
  const pre = h('pre', { class: 'code', tabindex: '0' }, h('code', {}, code.curl));
  let current = 'curl';
  const tabs = h('div', { class: 'tabs', role: 'tablist' });
  for (const [id, label] of [
    ['curl', 'curl'],
    ['javascript', 'JavaScript'],
  ]) {
    const tab = h('button', { type: 'button', role: 'tab', class: 'tab', 'aria-selected': String(id === current), dataset: { lang: id } }, label);
    tab.addEventListener('click', () => {
      current = id;
      pre.firstChild.textContent = code[id];
      for (const t of tabs.children) t.setAttribute('aria-selected', String(t === tab));
    });
    tabs.append(tab);
  }
  return h('div', { class: 'codeblock' }, h('div', { class: 'codeblock-bar' }, tabs, copyButton(() => code[current])), pre);
}
