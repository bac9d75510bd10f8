import type { AppContext } from '../context';
import { headOf } from './append';

/**
 * Publishes the chain's current head for `hour` (yyyymmddhh, UTC): once per hour, whatever
 * retries; also written to the log, a second copy outside the database.
 */
export async function publishChainHead(ctx: AppContext, hour: string): Promise<{ hour: string; hash: string; length: number; published: boolean }> {
  const now = ctx.clock.now();
  const head = headOf(await ctx.commitments.findLastLink());
  const published = await ctx.commitments.insertChainHead(hour, { ...head, time: now });
  if (published) await ctx.cache.bump('ai'); // the published heads are served cached under `ai`
  if (published) ctx.log({ component: 'commitments' }).info({ hour, hash: head.hash, length: head.length, time: now.toISOString() }, 'commitments chain head published');
  return { hour, ...head, published };
}
