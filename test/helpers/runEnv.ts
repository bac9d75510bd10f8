/**
 * The run's database, Redis prefix and quiet logs, set before any module of the service is
 * loaded (test/setup.ts imports this first): a module that builds its logger when loaded must
 * already see LOG_LEVEL.
 */
import { randomBytes } from 'node:crypto';
import { bootstrapEnv, setEnvForChildren } from '../../shared/platform/config';

const runId = `t${process.pid}${randomBytes(3).toString('hex')}`;
setEnvForChildren({
  MONGODB_DB: `odds_test_${runId}`,
  REDIS_PREFIX: `test-${runId}`,
  LOG_LEVEL: bootstrapEnv().all.LOG_LEVEL || 'silent',
  NODE_ENV: 'test',
  SHUTDOWN_TIMEOUT_MS: '5000',
  // Every test signs up and calls the account API from 127.0.0.1: the per-address limits are
  // tested where they are set low (test/integration/account/abuse.test.ts).
  SIGNUP_PER_ADDRESS_PER_HOUR: '1000000',
  ACCOUNT_API_PER_ADDRESS_PER_MINUTE: '1000000',
  // Test keys read live answers: the data a test makes is minutes old only in the tests of the
  // test keys' delay, which set it (test/integration/metering/test-key-delay.test.ts).
  TEST_KEY_SNAPSHOT_S: '0',
});
