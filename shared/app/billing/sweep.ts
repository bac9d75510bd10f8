import type { AppContext } from '../context';
import { sweepStaleHolds } from './metering';
import { sweepRecharges } from './recharge';

/**
 * The recharge queue's sweep: the holds a dead web process left (refunded, each once), then every
 * enabled account under its threshold has its window's next charge queued (failed charges put
 * back to work).
 */
export async function sweepHoldsAndRecharges(ctx: AppContext): Promise<{ refunded: number; dropped: number; ensured: number }> {
  const holds = await sweepStaleHolds(ctx);
  const recharges = await sweepRecharges(ctx);
  return { ...holds, ...recharges };
}
