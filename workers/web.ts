import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import type { AddressInfo } from 'node:net';
import { createApp } from '../api/app';
import { warmListing } from '../api/queries/events';
import { drainViewFlushes } from '../api/queries/views';
import { listen } from '../api/server';
import { drainMetering } from '../shared/app/billing/metering';
import { endAllStreams } from '../shared/app/stream/session';
import { getConfig } from '../shared/platform/config';
import { childLogger } from '../shared/platform/logger';
import { main, type Service } from './runtime';

/** The read-only metered API. Stops accepting connections, then lets in-flight requests finish. */
export async function startWeb(): Promise<Service & { url: string }> {
  const cfg = getConfig();
  const app = createApp();
  // Unreadable yet (Redis or the store still starting): the first list page reads it instead.
  await warmListing().catch((err: unknown) => childLogger({ process: 'web' }).warn({ err: err instanceof Error ? err.message : String(err) }, 'the listing was not read at start'));
  const server = await listen(app, cfg.PORT, cfg.HOST);
  const port = (server.address() as AddressInfo).port;
  const url = cfg.PUBLIC_URL || `http://localhost:${port}`;
  childLogger({ process: 'web' }).info({ url }, 'listening');
  return {
    name: 'web',
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Open streams end now (clients reconnect elsewhere with their last id); server.close waits for them otherwise.
        endAllStreams();
      })
        // The finished requests' charges, refunds and view counts are written before exit.
        .then(() => Promise.all([drainMetering(), drainViewFlushes()]))
        .then(() => undefined),
  };
}

if (require.main === module) main('web', [startWeb]);
