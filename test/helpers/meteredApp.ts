import express, { Router, type Express } from 'express';
import { errorHandler, notFoundRoute } from '../../api/middleware/errors';
import { meterAccess, meterDebit } from '../../api/middleware/metering';
import { requestLog } from '../../api/middleware/requestLog';
import { createAccount, createKey } from '../../shared/app/billing/accounts';
import { COST_TABLE } from '../../shared/domain/billing/costs';
import type { KeyMode } from '../../shared/domain/billing/keys';
import { applyCredit } from '../../shared/platform/billing/credits';
import { processContext } from '../../shared/app/processContext';
import { FREE_CREDITS } from '../../shared/domain/billing/packages';
import { setEnvForChildren } from '../../shared/platform/config';
import { connectMongo } from '../../shared/platform/db/mongo';
import { serve, type TestServer } from './api';
import { ledgerConsumerForThisSuite } from './ledgerConsumer';

/** A contract path with its parameters filled in ('/v2/matches/{eventId}' -> '/v2/matches/ev1'). */
export const concrete = (path: string) => path.replace(/\{[A-Za-z]+\}/g, 'ev1');

/**
 * Minimal handlers at every metered path of the contract (the read endpoints are built on another branch):
 * each answers 200 with a small body, or the status given by ?fail=<status>, after ?delay=<ms>.
 */
export function stubReadRouter(): Router {
  const router = Router();
  for (const row of COST_TABLE) {
    if (row.public) continue;
    router.get(row.path.replace(/^\/v2/, '').replace(/\{([A-Za-z]+)\}/g, ':$1'), meterDebit(), async (req, res) => {
      const delay = Math.min(Number(req.query.delay) || 0, 60000);
      if (delay) await new Promise((r) => setTimeout(r, delay));
      const fail = Number(req.query.fail);
      if (fail >= 400) return void res.status(fail).json({ statusCode: fail, message: 'stub failure', error: 'Stub' });
      res.json({ data: { path: row.path } });
    });
  }
  return router;
}

/** The production pipeline of api/app.ts (request log, key check before the /v2 routers, each route's debit, 404, errors) around the stubs. */
export function meteredTestApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestLog());
  app.use('/v2', meterAccess(processContext()));
  app.use('/v2', stubReadRouter());
  app.use(notFoundRoute);
  app.use(errorHandler);
  return app;
}

/** An account holding exactly `balance` credits (its grant, then an adjustment), and a key of it. */
export async function accountWithKey(balance: number, mode: KeyMode = 'live'): Promise<{ accountId: string; key: string; keyId: string }> {
  const account = await createAccount(processContext(), { name: `test ${balance}` });
  if (balance !== FREE_CREDITS) await applyCredit(account.id, { ref: `adjust:${account.id}`, kind: 'adjustment', delta: balance - FREE_CREDITS });
  const key = await createKey(processContext(), { accountId: account.id, name: 'test key', mode });
  return { accountId: account.id, key: key.key, keyId: key.id };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * The metered stub app served for the calling describe block: started before its tests with the
 * per-key rate limit at `rps` (limits are not what most metering tests are about), stopped after,
 * with a ledger consumer beside it (`written()`: every charge settled is in the ledger).
 */
export function meteredApiForThisSuite(rps = '100000'): TestServer & { written(): Promise<void> } {
  const ledger = ledgerConsumerForThisSuite();
  let server: TestServer | undefined;
  const started = () => {
    if (!server) throw new Error('the metered API starts in the before hook');
    return server;
  };
  before(async () => {
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: rps });
    await connectMongo();
    server = await serve(meteredTestApp());
  });
  after(async () => {
    await server?.close();
    setEnvForChildren({ RATE_LIMIT_LIVE_RPS: '20' });
  });
  return {
    get url() {
      return started().url;
    },
    get: (path, headers) => started().get(path, headers),
    close: () => started().close(),
    written: () => ledger.written(),
  };
}
