import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../shared/platform/config';

describe('config', () => {
  describe('happy', () => {
    it('applies documented defaults to an empty environment', () => {
      const cfg = loadConfig({});
      expect(cfg.PORT).to.equal(3000);
      expect(cfg.POLL_INTERVAL_MS).to.equal(30000);
      expect(cfg.PROVIDERS).to.deep.equal(['simulated']);
      expect(cfg.SETTLEMENT_DELAY_MS).to.equal(undefined);
      const delay = cfg.settlementDelayMs();
      expect(delay).to.be.within(120000, 300000);
    });

    it('parses lists and integers', () => {
      const cfg = loadConfig({ PROVIDERS: 'simulated, theoddsapi', THEODDSAPI_KEY: 'k', SETTLEMENT_DELAY_MS: '0' });
      expect(cfg.PROVIDERS).to.deep.equal(['simulated', 'theoddsapi']);
      expect(cfg.settlementDelayMs()).to.equal(0);
    });
  });

  describe('error', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ PROVIDERS: 'simulated,bogus' }, 'PROVIDERS'],
      [{ POLL_INTERVAL_MS: '10' }, 'POLL_INTERVAL_MS'],
      [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI'],
      [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
      [{ REDIS_CLUSTER_NODES: '10.0.0.1:7000,10.0.0.2' }, 'REDIS_CLUSTER_NODES'],
      [{ REDIS_CLUSTER_NODES: 'redis://10.0.0.1:7000' }, 'REDIS_CLUSTER_NODES'],
      [{ ADMIN_USER: 'admin' }, 'ADMIN_PASSWORD'],
      [{ ADMIN_PASSWORD: 'pw' }, 'ADMIN_USER'],
      [{ PROVIDERS: 'theoddsapi' }, 'THEODDSAPI_KEY'],
      [{ SIM_SPEED: '0' }, 'SIM_SPEED'],
      [{ AI_DEVIG: 'multiplicative' }, 'AI_DEVIG'],
      [{ MONGODB_DB: 'a/b' }, 'MONGODB_DB'],
      [{ SIM_EPOCH: 'yesterday' }, 'SIM_EPOCH'],
      [{ THEODDSAPI_QUOTA_RESERVE: '-1' }, 'THEODDSAPI_QUOTA_RESERVE'],
      [{ PROVIDER_BREAKER_VOLUME: '0' }, 'PROVIDER_BREAKER_VOLUME'],
      [{ PROVIDERS: 'replay', REPLAY_SEASONS: 'E0_2223' }, 'REPLAY_DATA'],
      [{ PROVIDERS: 'replay', REPLAY_DATA: '/data' }, 'REPLAY_SEASONS'],
      [{ PROVIDERS: 'replay', REPLAY_DATA: '/data', REPLAY_SEASONS: 'E0_2223,premier-league' }, 'REPLAY_SEASONS'],
    ];
    for (const [env, variable] of cases) {
      it(`names ${variable} for ${JSON.stringify(env)}`, () => {
        expect(() => loadConfig(env))
          .to.throw(ConfigError)
          .with.property('variable', variable);
      });
    }
  });

  describe('security', () => {
    it('does not echo secret values in its error', () => {
      expect(() => loadConfig({ PROVIDERS: 'theoddsapi', THEODDSAPI_KEY: '' })).to.throw(/THEODDSAPI_KEY/);
      try {
        loadConfig({ ADMIN_USER: 'a', ADMIN_PASSWORD: 'hunter2', PORT: 'x' });
      } catch (err) {
        expect((err as Error).message).not.to.include('hunter2');
      }
    });
  });
});
