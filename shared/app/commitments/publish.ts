import { findLastLink, insertChainHead } from '../../platform/db/repositories/commitments';
import { childLogger } from '../../platform/logger';
import { headOf } from './append';

const log = childLogger({ component: 'commitments' });

/**
 * Publishes the chain's current head for `hour` (yyyymmddhh, UTC): once per hour, whatever
 * retries; also written to the log, a second copy outside the database.
 */
export async function publishChainHead(hour: string, now = new Date()): Promise<{ hour: string; hash: string; length: number; published: boolean }> {
  const head = headOf(await findLastLink());
  const published = await insertChainHead(hour, { ...head, time: now });
  if (published) log.info({ hour, hash: head.hash, length: head.length, time: now.toISOString() }, 'commitments chain head published');
  return { hour, ...head, published };
}
