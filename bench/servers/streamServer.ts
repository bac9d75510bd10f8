/**
 * The API as the web process runs it, in its own process, for `npm run bench:stream`: its memory
 * (after a full garbage collection when asked, so the figures are what the open streams hold) and its open
 * streams, over IPC when asked. Run with --expose-gc. SIGTERM ends the open streams first, as
 * workers/web.ts does.
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../../api/app';
import { listen } from '../../api/server';
import { endAllStreams, openStreams } from '../../shared/app/stream/session';
import { connectMongo } from '../../shared/platform/db/mongo';

export interface StreamServerStats {
  rss: number;
  heapUsed: number;
  external: number;
  openStreams: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /** CPU time used since the process started (user + system). */
  cpuMs: number;
}

function send(message: object): void {
  if (!process.send) throw new Error('the stream server runs as a forked child (IPC)');
  process.send(message);
}

async function main(): Promise<void> {
  await connectMongo();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const server = await listen(createApp(), 0, '127.0.0.1');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no port');
  send({ port: (address satisfies AddressInfo).port });
  process.on('SIGTERM', () => {
    endAllStreams();
    process.exit(0);
  });
  process.on('message', (m: { cmd?: string; gc?: boolean }) => {
    if (m.cmd === 'stats') {
      // A full collection only when memory is measured: with 1,000 streams it pauses the loop.
      if (m.gc) globalThis.gc?.();
      const mem = process.memoryUsage();
      const cpu = process.cpuUsage();
      const stats: StreamServerStats = {
        rss: mem.rss,
        heapUsed: mem.heapUsed,
        external: mem.external,
        openStreams: openStreams(),
        loopP99Ms: Math.round(loop.percentile(99) / 1e6),
        loopMaxMs: Math.round(loop.max / 1e6),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      };
      loop.reset();
      send({ stats });
    }
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`stream server failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
