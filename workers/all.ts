import { startAi } from './ai';
import { startIngest } from './ingest';
import { startScheduler } from './scheduler';
import { startLedgerWriter, startRecharge, startSettlement } from './settlement';
import { startWeb } from './web';
import { startWebhookFeed, startWebhooks } from './webhookServices';
import type { Starter } from './runtime';

/** Every process of the Procfile, for the single-process embedded default (`npm start`). */
export const ALL_STARTERS: Record<string, Starter> = {
  ingest: startIngest,
  ai: startAi,
  settlement: startSettlement,
  recharge: startRecharge,
  ledger: startLedgerWriter,
  webhooks: startWebhooks,
  'webhook-feed': startWebhookFeed,
  scheduler: startScheduler,
  web: startWeb,
};
