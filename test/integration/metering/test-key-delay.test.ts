import { expect } from 'chai';
import { createApp } from '../../../api/app';
import { setEnvForChildren } from '../../../shared/platform/config';
import { bumpCacheVersion } from '../../../shared/platform/cache/versions';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { serve, type TestServer } from '../../helpers/api';
import { accountWithKey, bearer } from '../../helpers/meteredApp';

const DELAY_S = 3;

/**
 * A test key reads data delayed by TEST_KEY_SNAPSHOT_S, per data version, not per URL
 * (api/cache/testSnapshots.ts, docs/metering.md): no query variation gets fresh data.
 */
describe('metering: a test key reads delayed data, per data version, not per URL', function () {
  this.timeout(60000);
  let api: TestServer;
  let key: string;
  /** Every answer the test key got. */
  const answers: { path: string; status: number; age: number; delayed: string | null; code?: string; retryAfter: number }[] = [];

  const ask = async (path: string) => {
    const r = await api.get(path, bearer(key));
    const answer = {
      path,
      status: r.status,
      age: Number(r.headers.get('age')),
      delayed: r.headers.get('x-data-delayed'),
      code: (r.body as { code?: string }).code,
      retryAfter: Number(r.headers.get('retry-after')),
    };
    answers.push(answer);
    expect(r.headers.get('x-key-mode'), path).to.equal('test');
    // Every answer a test key gets is the test feed's, a pending one too (logged as an answer, not a fault).
    expect(r.headers.get('x-data-delayed'), path).to.equal('true');
    expect(r.headers.get('x-credits-consumed'), path).to.equal('0');
    return { ...answer, body: r.body as { message?: string } };
  };
  const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

  before(async () => {
    await connectMongo();
    setEnvForChildren({ TEST_KEY_SNAPSHOT_S: String(DELAY_S), RATE_LIMIT_TEST_RPS: '1000' });
    api = await serve(createApp());
    key = (await accountWithKey(500, 'test')).key;
  });
  after(async () => {
    await api.close();
    setEnvForChildren({ TEST_KEY_SNAPSHOT_S: '0', RATE_LIMIT_TEST_RPS: '2' });
  });

  it('security: featured-picks?limit=7 on a test key is as old as the delay: no query variation gets fresh data', async () => {
    await bumpCacheVersion('ai'); // the data just changed: nothing of it is old enough yet
    const first = await ask('/v2/ai/featured-picks');
    expect(first.status).to.equal(503);
    expect(first.code).to.equal('test_data_pending');
    expect(first.retryAfter).to.be.within(1, DELAY_S);
    expect(first.body.message).to.match(new RegExp(`delayed by ${DELAY_S} seconds.*ready in ${first.retryAfter} seconds`));
    // A variation of the query is no way around it.
    for (const q of ['?limit=7', '?limit=8', '?timezone=Europe/Madrid']) expect((await ask(`/v2/ai/featured-picks${q}`)).code).to.equal('test_data_pending');

    await sleep(first.retryAfter);
    const ripe = await ask('/v2/ai/featured-picks');
    expect(ripe.status).to.equal(200);
    expect((await ask('/v2/ai/featured-picks?limit=7')).status).to.equal(200);
    // Nothing changed for the delay: a variation never asked before is answered at once, its data
    // version as old as the delay.
    const fresh = await ask('/v2/ai/featured-picks?limit=9');
    expect(fresh.status).to.equal(200);

    await bumpCacheVersion('ai');
    // The data changed: a new variation waits; what was asked before is served from before the change.
    expect((await ask('/v2/ai/featured-picks?limit=6')).code).to.equal('test_data_pending');
    expect((await ask('/v2/ai/featured-picks?limit=7')).status).to.equal(200);

    const served = answers.filter((a) => a.status === 200);
    expect(served.length).to.be.at.least(4);
    for (const a of served) {
      expect(a.age, `${a.path}: Age`).to.be.at.least(DELAY_S);
      expect(a.delayed, a.path).to.equal('true');
    }
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 503 && a.code === 'test_data_pending')).to.equal(true);
  });
});
