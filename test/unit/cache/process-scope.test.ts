import { expect } from 'chai';
import { recent } from '../../../shared/platform/cache/recent';
import { processMemo, renewProcessScope } from '../../../shared/platform/processScope';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('process scope: every memory of the stores emptied by one renewal', () => {
  it('happy: a memo is created once and kept until the scope is renewed', () => {
    let made = 0;
    const seen = processMemo(() => (made++, new Set<string>()));
    seen().add('a');
    expect(seen().has('a')).to.equal(true);
    expect(made).to.equal(1);
    renewProcessScope();
    expect(seen().has('a')).to.equal(false);
    expect(made).to.equal(2);
  });

  it('happy: a renewal empties every memo, each created afresh only when next used', () => {
    const made: string[] = [];
    const a = processMemo(() => (made.push('a'), { n: 0 }));
    const b = processMemo(() => (made.push('b'), { n: 0 }));
    a().n = 1;
    b().n = 2;
    renewProcessScope();
    expect(made).to.deep.equal(['a', 'b']);
    expect(a().n).to.equal(0);
    expect(made).to.deep.equal(['a', 'b', 'a']);
    expect(b().n).to.equal(0);
  });

  it('happy: a kept figure of recent() is recomputed after a renewal', async () => {
    let calls = 0;
    const count = recent(60_000, async (k: string) => (await sleep(15), `${k}${++calls}`), 5);
    expect(await count('x')).to.equal('x1');
    await sleep(5); // the slow result is kept once its computation settles
    expect(await count('x')).to.equal('x1');
    renewProcessScope();
    expect(await count('x')).to.equal('x2');
  });
});
