import { expect } from 'chai';
import { recent } from '../../../shared/platform/cache/recent';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('recent: a slow figure reused for a while, a quick one always fresh', () => {
  it('happy: a slow computation serves every caller until its time is up, then while one refresh runs', async () => {
    let calls = 0;
    const count = recent(200, async (k: string) => (await sleep(30), `${k}${++calls}`), 20);
    expect(await Promise.all([count('a'), count('a')])).to.deep.equal(['a1', 'a1']);
    expect(await count('a')).to.equal('a1');
    expect(await count('b')).to.equal('b2');
    await sleep(220);
    expect(await Promise.all([count('a'), count('a')])).to.deep.equal(['a1', 'a1']); // stale, one refresh started
    await sleep(60);
    expect(await count('a')).to.equal('a3');
    expect(calls).to.equal(3);
  });

  it('error: a failed refresh keeps the last value', async () => {
    let calls = 0;
    const count = recent(
      50,
      async () => {
        await sleep(20);
        if (++calls === 2) throw new Error('store down');
        return calls;
      },
      10,
    );
    expect(await count(1)).to.equal(1);
    await sleep(70);
    expect(await count(1)).to.equal(1); // refresh starts and fails
    await sleep(40);
    expect(await count(1)).to.equal(1); // still kept; another refresh starts
    await sleep(40);
    expect(await count(1)).to.equal(3);
  });

  it('happy: a quick computation is shared while in flight, then not kept', async () => {
    let calls = 0;
    const count = recent(10_000, async () => ++calls, 1_000);
    expect(await Promise.all([count(1), count(1)])).to.deep.equal([1, 1]);
    expect(await count(1)).to.equal(2);
  });

  it('error: a failure is not remembered', async () => {
    let calls = 0;
    const count = recent(
      10_000,
      async () => {
        calls++;
        await sleep(5);
        if (calls === 1) throw new Error('store down');
        return calls;
      },
      0,
    );
    await count(1).then(
      () => expect.fail('should reject'),
      (err: Error) => expect(err.message).to.equal('store down'),
    );
    expect(await count(1)).to.equal(2);
    expect(await count(1)).to.equal(2);
  });
});
