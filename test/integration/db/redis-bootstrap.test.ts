import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { redisAnswers } from '../../../scripts/services';

/** A stand-in for a Redis on a loaded machine: the first `silent` connections get no answer. */
async function slowRedis(silent: number): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let n = 0;
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    const mine = ++n;
    socket.on('data', (d) => {
      if (mine > silent && d.toString().includes('PING')) socket.write('+PONG\r\n');
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => n,
    close: () => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

describe('bootstrap: a slow Redis is not mistaken for none', function () {
  this.timeout(20000);

  it('happy: a Redis that misses its first two-second try but answers the second is used', async () => {
    const redis = await slowRedis(1);
    try {
      expect(await redisAnswers(redis.url)).to.equal(true);
      expect(redis.connections()).to.equal(2);
    } finally {
      await redis.close();
    }
  });

  it('error: a port that never answers PONG is given three tries, then a local one would be started', async () => {
    const redis = await slowRedis(Infinity);
    try {
      expect(await redisAnswers(redis.url)).to.equal(false);
      expect(redis.connections()).to.equal(3);
    } finally {
      await redis.close();
    }
  });
});
