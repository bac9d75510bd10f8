/**
 * The API as the web process runs it (its HTTP server around createApp: request log, validation,
 * cache, routes), in its own process so the load generator does not share its event loop.
 * Reports its cache counters over IPC when asked.
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cacheStats } from '../../api/cache/pageCache';
import { hotStats } from '../../api/cache/hotReads';
import { blockStats } from '../../api/hot/creditBlocks';
import { createApp } from '../../api/app';
import { warmListing } from '../../api/queries/events';
import { listen } from '../../api/server';
import { connectMongo } from '../../shared/platform/db/mongo';

async function main(): Promise<void> {
  await connectMongo();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const app = createApp();
  await warmListing(); // as the web process does at start (workers/web.ts)
  const server = await listen(app, 0, '127.0.0.1');
  process.send!({ port: (server.address() as AddressInfo).port });
  // An orderly exit, so a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'exit') process.exit(0);
    if (m.cmd === 'stats') {
      const loopMs = { loopP99Ms: Math.round(loop.percentile(99) / 1e6), loopMaxMs: Math.round(loop.max / 1e6) };
      const cpu = process.cpuUsage();
      process.send!({
        stats: {
          ...cacheStats,
          hot: hotStats.served,
          fromBlocks: hotStats.fromBlocks,
          blocksTaken: blockStats.taken,
          blockSteps: blockStats.steps,
          ...loopMs,
          rssMb: Math.round(process.memoryUsage().rss / 1e6),
          cpuUs: cpu.user + cpu.system,
        },
      });
    }
  });
}

main().catch((err) => {
  process.stderr.write(`api server failed: ${(err as Error).message}\n`);
  process.exit(1);
});
