/**
 * Loaded by mocha before each file of the unit tier (`npm run test:unit`, .mocharc.unit.json).
 * Unlike test/setup.ts it connects to nothing and has no hooks: unit tests are pure logic, and
 * the tier runs with no Redis, MongoDB/FerretDB or PostgreSQL anywhere.
 */
import { bootstrapEnv, setEnvForChildren } from '../shared/platform/config';

setEnvForChildren({
  LOG_LEVEL: bootstrapEnv().all.LOG_LEVEL || 'silent',
  NODE_ENV: 'test',
});
