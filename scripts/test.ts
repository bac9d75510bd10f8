/**
 * `npm test`: starts (or finds) the real local services, type-checks, then runs mocha against
 * them. Extra arguments go to mocha (`npm test -- --grep health`).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { bootstrapEnv } from '../shared/config';
import { startLocalServices } from './services';

const ROOT = resolve(__dirname, '..');
const bin = (name: string) => resolve(ROOT, 'node_modules', '.bin', name);

async function run(): Promise<number> {
  const tsc = spawnSync(bin('tsc'), ['--noEmit'], { cwd: ROOT, stdio: 'inherit' });
  if (tsc.status !== 0) {
    process.stderr.write('type check failed\n');
    return tsc.status ?? 1;
  }
  const local = await startLocalServices();
  try {
    const mocha = spawnSync(bin('mocha'), process.argv.slice(2), {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...bootstrapEnv().all, MONGODB_URI: local.mongodbUri, REDIS_URL: local.redisUrl, NODE_ENV: 'test' },
    });
    return mocha.status ?? 1;
  } finally {
    await local.stop();
  }
}

run()
  .then((code) => process.exit(code))
  .catch((err) => {
    process.stderr.write(`test run failed: ${err.message}\n`);
    process.exit(1);
  });
