/**
 * One run of the stack as `npm start` runs it (scripts/start.ts runStack: every Procfile process
 * its own OS process, or `--one-process`), on the servers of the directory given as the first
 * argument (scripts/services.ts with ownServers: the test's own redis-server and FerretDB, never
 * the machine's), taking a lease on them. The side-by-side test starts two of these.
 */
import { failEntry } from '../../../shared/platform/entry'; // first: a bad variable stops here
import { startLocalServices } from '../../../scripts/services';
import { runStack } from '../../../scripts/start';

const [localDir, mode] = process.argv.slice(2);
if (!localDir) failEntry('stackRun', new Error('usage: stackRun.ts <local dir> [--one-process]'));
startLocalServices({ localDir, ownServers: true })
  .then((local) => runStack(local, { oneProcess: mode === '--one-process' }))
  .catch((err: unknown) => failEntry('stack run failed', err));
