/**
 * The API as the web process runs it (createApp: request log, validation, cache, routes), in its
 * own process so the load generator does not share its event loop. Reports its cache counters
 * over IPC when asked.
 */
import type { AddressInfo } from 'node:net';
import { cacheStats } from '../../api/cache/pageCache';
import { createApp } from '../../api/app';
import { connectMongo } from '../../shared/db/mongo';

async function main(): Promise<void> {
  await connectMongo();
  const server = createApp().listen(0, '127.0.0.1', () => {
    process.send!({ port: (server.address() as AddressInfo).port });
  });
  process.on('message', (m: { cmd: string }) => {
    if (m.cmd === 'exit') process.exit(0);
    if (m.cmd === 'stats') process.send!({ stats: { ...cacheStats, rssMb: Math.round(process.memoryUsage().rss / 1e6) } });
  });
}

main().catch((err) => {
  process.stderr.write(`api server failed: ${err.message}\n`);
  process.exit(1);
});
