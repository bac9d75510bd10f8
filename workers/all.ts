import { startAi } from './ai';
import { startIngest } from './ingest';
import { startScheduler } from './scheduler';
import { startRecharge, startSettlement } from './settlement';
import { startWeb } from './web';
import type { Starter } from './runtime';

/** Every process of the Procfile, for the single-process embedded default (`npm start`). */
export const ALL_STARTERS: Record<string, Starter> = {
  ingest: startIngest,
  ai: startAi,
  settlement: startSettlement,
  recharge: startRecharge,
  scheduler: startScheduler,
  web: startWeb,
};
