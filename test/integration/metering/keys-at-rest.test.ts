import { expect } from 'chai';
import { processContext } from '../../../shared/app/processContext';
import mongoose from 'mongoose';
import { createKey, listKeys, revokeKey } from '../../../shared/app/billing/accounts';
import { hashKey } from '../../../shared/domain/billing/keys';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { key as redisKey, redis } from '../../../shared/platform/db/redis';
import { findApiKeyById } from '../../../shared/platform/db/repositories/accounts';
import { accountWithKey, bearer } from '../../helpers/meteredApp';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry, waitUntil } from '../../helpers/processes';
import { freePort } from '../../helpers/stack';

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
    const listed = await listKeys(processContext(), accountId);
    expect(JSON.stringify(listed)).to.not.include(key);
  });

  it('security: keys are unique and random', async () => {
    const { accountId } = await accountWithKey(500);
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => createKey(processContext(), { accountId, name: `k${i}`, mode: i % 2 ? 'test' : 'live' })));
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
      await revokeKey(processContext(), keyId);
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

  it('security: the real web process at LOG_LEVEL=trace never logs a key sent percent-encoded in the URL, in any mix of encodings, in a query or a path', async () => {
    const [a, b] = [await accountWithKey(500), await accountWithKey(500, 'test')];
    const secret = (k: string) => k.slice(8);
    const pct = (c: string, lower = false) => {
      const hex = c.charCodeAt(0).toString(16);
      return `%${lower ? hex : hex.toUpperCase()}`;
    };
    const port = await freePort();
    const web = spawnEntry('workers/web.ts', { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'trace' });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntil(
        'the web process to listen',
        () =>
          fetch(`${url}/v2/health`).then(
            (r) => r.ok,
            () => false,
          ),
        60000,
        250,
      );
      const sent = [
        `/v2/matches?api_key=${a.key.replace(/_/g, '%5F')}`,
        `/v2/matches?api_key=sk_live%5f${secret(a.key)}`,
        `/v2/matches?api_key=${[...a.key].map((c) => pct(c)).join('')}&limit=1`,
        `/v2/matches?api_key=${[...b.key].map((c, i) => (i % 3 ? pct(c, true) : c)).join('')}`,
        `/v2/nope/${[...b.key].map((c) => pct(c, true)).join('')}`,
        `/v2/matches/${a.key.replace(/_/g, '%255F')}`,
      ];
      for (const path of sent) expect((await fetch(url + path)).status, path).to.be.within(400, 404);
      web.child.kill('SIGTERM');
      await web.exited;
      const logs = web.output();
      expect(logs.match(/"url":"\/v2\/(matches|nope)/g), 'the requests were logged').to.have.length(sent.length);
      // Decoded however often it was encoded, the log holds neither key.
      let decoded = logs;
      for (let i = 0; i < 3; i++) decoded = decoded.replace(/%(?:u00)?([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      for (const k of [a.key, b.key]) {
        expect(decoded).to.not.include(secret(k));
        expect(logs).to.not.include(secret(k).slice(0, 8));
      }
    } finally {
      await sigkillTree(web);
    }
  });
});
