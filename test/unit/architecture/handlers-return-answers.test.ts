import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../../..');

/** A write to the response: what only api/routes/mount.ts may do with a handler's answer. */
const WRITE = /\bres\.(json|status|send|end|redirect|type|setHeader|write|writeHead|flushHeaders|sendStatus)\(/;

/** Lines of a source that write to the response, as `file:line: text`. */
export function responseWrites(file: string, text: string): string[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => WRITE.test(line) && !/^\s*(\/\/|\*)/.test(line))
    .map(({ line, n }) => `${file}:${n}: ${line.trim()}`);
}

describe('route handlers return what they answer', () => {
  it('happy: no file of api/routes but mount.ts writes to the response (headers go in the answer)', () => {
    const files = execFileSync('git', ['ls-files', 'api/routes'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts') && f !== 'api/routes/mount.ts');
    expect(files.length).to.be.greaterThan(15);
    expect(files.flatMap((f) => responseWrites(f, readFileSync(resolve(ROOT, f), 'utf8')))).to.deep.equal([]);
  });

  it('sad: the finder sees a status, a header and a json write, and not a comment', () => {
    const src = ['res.status(404);', "  if (x) res.setHeader('A', 'b');", 'return res.json(body);', '// res.json(x) in a comment', 'return json(body);'].join('\n');
    expect(responseWrites('probe.ts', src).map((w) => w.split(': ')[0])).to.deep.equal(['probe.ts:1', 'probe.ts:2', 'probe.ts:3']);
  });
});
