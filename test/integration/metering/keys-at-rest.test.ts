import { expect } from 'chai';
import mongoose from 'mongoose';
import { createKey, listKeys, revokeKey } from '../../../shared/app/billing/accounts';
import { hashKey } from '../../../shared/domain/billing/keys';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { key as redisKey, redis } from '../../../shared/platform/db/redis';
import { findApiKeyById } from '../../../shared/platform/db/repositories/accounts';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil } from '../../helpers/processes';

/** Every document of every collection, as text. */
async function databaseText(): Promise<string> {
  const db = mongoose.connection.db!;
  const collections = await db.listCollections().toArray();
  let out = '';
  for (const c of collections) out += JSON.stringify(await db.collection(c.name).find({}).toArray());
  return out;
}

async function redisText(): Promise<string> {
  let out = '';
  let cursor = '0';
  do {
    const [next, keys] = await redis().scan(cursor, 'MATCH', `${redisKey('')}*`, 'COUNT', 1000);
    for (const k of keys) out += `${k}=${(await redis().type(k)) === 'string' ? await redis().get(k) : ''}\n`;
    cursor = next;
  } while (cursor !== '0');
  return out;
}

describe('metering: keys at rest and in logs', function () {
  this.timeout(60000);
  before(connectMongo);

  it('security: a key is stored only as its SHA-256 hash and a short prefix', async () => {
    const { key, keyId, accountId } = await accountWithKey(500);
    const doc = (await findApiKeyById(keyId))!;
    expect(doc.hash).to.equal(hashKey(key));
    expect(key.startsWith(doc.prefix)).to.equal(true);
    expect(doc.prefix.length).to.be.at.most(14);
    expect(key).to.match(/^sk_live_[0-9A-Za-z]{32}$/); // 32 base62 characters: 190 random bits
    const text = await databaseText();
    expect(text).to.not.include(key);
    expect(text).to.not.include(key.slice(doc.prefix.length)); // not even the secret part alone
    expect(await redisText()).to.not.include(key);
    const listed = await listKeys(accountId);
    expect(JSON.stringify(listed)).to.not.include(key);
  });

  it('security: keys are unique and random', async () => {
    const { accountId } = await accountWithKey(500);
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => createKey({ accountId, name: `k${i}`, mode: i % 2 ? 'test' : 'live' })));
    expect(new Set(keys.map((k) => k.key)).size).to.equal(20);
    expect(keys.filter((k) => k.mode === 'test').every((k) => k.key.startsWith('sk_test_'))).to.equal(true);
  });

  it('security: a web process at LOG_LEVEL=trace never logs a key, valid, revoked, unknown or put in the URL', async () => {
    const { key, keyId } = await accountWithKey(500);
    const other = await accountWithKey(500);
    const web = spawnEntry('test/fixtures/meteredWeb.ts', { LOG_LEVEL: 'trace' });
    try {
      await waitUntil('the API process to listen', () => /listening (\S+)/.test(web.output()), 60000);
      const url = /listening (\S+)/.exec(web.output())![1];
      const get = (path: string, headers: Record<string, string> = {}) => fetch(url + path, { headers }).then((r) => r.status);
      expect(await get('/v2/matches', bearer(key))).to.equal(200);
      expect(await get('/v2/matches?fail=500', bearer(key))).to.equal(500);
      expect(await get(`/v2/matches?api_key=${other.key}`)).to.equal(401);
      expect(await get(`/v2/nope/${other.key}`)).to.equal(404);
      await revokeKey(keyId);
      expect(await get('/v2/matches', bearer(key))).to.equal(401);
      expect(await get('/v2/matches', bearer(`sk_live_${'Z'.repeat(32)}`))).to.equal(401);
      web.child.kill('SIGTERM');
      await web.exited;
      const logs = web.output();
      expect(logs).to.match(/"statusCode":200/); // the requests were logged at all
      expect(logs).to.not.include(key);
      expect(logs).to.not.include(other.key);
      expect(logs).to.not.include('Z'.repeat(32));
    } finally {
      await sigkillTree(web);
    }
  });
});
