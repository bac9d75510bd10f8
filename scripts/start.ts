/**
 * `npm start`: the embedded default. Finds or starts Redis and MongoDB/FerretDB, then runs every
 * Procfile process (web, ingest, ai, settlement, scheduler) in this one process.
 */
import { failEntry } from '../shared/entry'; // first: a bad variable stops here, before any module's import-time code
import { getConfigOrExit, setEnvForChildren } from '../shared/config';
import { ALL_STARTERS } from '../workers/all';
import { runServices } from '../workers/runtime';
import { startLocalServices } from './services';

async function run(): Promise<void> {
  const local = await startLocalServices();
  setEnvForChildren(local.env);
  const cfg = getConfigOrExit();
  const { services, stopAll } = await runServices('all', Object.values(ALL_STARTERS));
  const web = services.find((s) => 'url' in s) as { url?: string } | undefined;
  process.stdout.write(`\nOdds API ready at ${web?.url}/v2  (health: ${web?.url}/v2/health)\n\n`);
  const stop = () => {
    setTimeout(() => process.exit(1), cfg.SHUTDOWN_TIMEOUT_MS + 10000).unref();
    void stopAll()
      .then(() => local.stop())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

run().catch((err) => failEntry('start failed', err));
