/**
 * A small XML well-formedness check (no dependency): one root element, tags nested and closed in
 * order, attributes quoted and not repeated, only the five predefined entities or character
 * references, no raw `<` or `&` in text. Returns the root element's name; throws on the first fault.
 */
export function wellFormedRoot(xml: string): string {
  const stack: string[] = [];
  let root: string | null = null;
  let i = 0;
  const text = (s: string) => {
    if (/&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)/.test(s)) throw new Error(`bad entity in ${JSON.stringify(s.slice(0, 40))}`);
    if (s.includes('<')) throw new Error('raw < in text');
  };
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const chunk = xml.slice(i, lt === -1 ? xml.length : lt);
    text(chunk);
    if (stack.length === 0 && chunk.trim()) throw new Error('text outside the root element');
    if (lt === -1) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt);
      if (end === -1) throw new Error('unclosed comment');
      i = end + 3;
      continue;
    }
    const gt = xml.indexOf('>', lt);
    if (gt === -1) throw new Error('unclosed tag');
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (stack.pop() !== name) throw new Error(`</${name}> closes nothing open`);
      continue;
    }
    const m = /^([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)$/.exec(tag);
    if (!m) throw new Error(`malformed tag <${tag.slice(0, 60)}>`);
    const names = [...m[2].matchAll(/([A-Za-z_][\w.:-]*)\s*=/g)].map((a) => a[1]);
    if (new Set(names).size !== names.length) throw new Error(`repeated attribute in <${m[1]}>`);
    for (const v of m[2].matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)) text(v[1] ?? v[2]);
    if (stack.length === 0) {
      if (root !== null) throw new Error('more than one root element');
      root = m[1];
    }
    if (!m[3]) stack.push(m[1]);
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1]}>`);
  if (root === null) throw new Error('no root element');
  return root;
}
