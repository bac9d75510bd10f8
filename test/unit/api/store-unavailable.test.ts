import { createServer } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import Redis from 'ioredis';
import { errorHandler, storeUnavailable } from '../../../api/middleware/errors';

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const address = srv.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** The error ioredis itself gives a command when its server is gone (found while soaking: it was a 500). */
async function redisGoneError(): Promise<unknown> {
  const client = new Redis({ port: await closedPort(), host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => 50, lazyConnect: false });
  client.on('error', () => undefined);
  try {
    await client.get('x');
    return undefined;
  } catch (err) {
    return err;
  } finally {
    client.disconnect();
  }
}

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

describe('errors: a store that is down is a 503, never a 500', () => {
  const cases: [string, unknown, number | undefined][] = [
    ['MongoDB server selection timed out', named('MongoServerSelectionError', 'connect ECONNREFUSED 127.0.0.1:27017'), 503],
    ['MongoDB network error', named('MongoNetworkError', 'connection 3 to 127.0.0.1:27017 closed'), 503],
    ['mongoose buffering timed out', new Error('Operation `events.find()` buffering timed out after 10000ms'), 503],
    ['ioredis connection closed', new Error('Connection is closed.'), 503],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'x')"), undefined],
    ['a thrown string', 'boom', undefined],
  ];
  for (const [what, err, status] of cases) {
    it(`${status ? 'happy' : 'error'}: ${what} -> ${status ?? 'not a store fault'}`, () => expect(storeUnavailable(err)?.status).to.equal(status));
  }

  it("happy: ioredis's own error for a server that is gone answers 503 in the error shape with Retry-After", async () => {
    const err = await redisGoneError();
    expect(err).to.be.instanceOf(Error);
    const app = express();
    app.get('/x', (_req, _res, next) => next(err));
    app.use(errorHandler);
    const srv = app.listen(0);
    try {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const res = await fetch(`http://127.0.0.1:${port}/x`);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('5');
      expect(await res.json()).to.include({ statusCode: 503, code: 'service_unavailable' });
    } finally {
      srv.close();
    }
  });
});
