import { buildLinks, commitmentKey, EMPTY_HEAD, type Commitment, type Head, type LinkRow } from '../../domain/commitments/chain';
import type { AppContext } from '../context';

/** Writers racing for the head: each lost race re-reads it. Enough for dozens of concurrent writers. */
const MAX_ROUNDS = 200;

export class ChainContentionError extends Error {
  override name = 'ChainContentionError';
}

export const headOf = (last: Pick<LinkRow, 'seq' | 'hash'> | null): Head => (last ? { hash: last.hash, length: last.seq + 1 } : EMPTY_HEAD);

const pause = (round: number) => new Promise((r) => setTimeout(r, Math.min(50, 2 + round) * Math.random()));

/**
 * This process's appends, one after another: concurrent jobs of one worker (the AI worker runs
 * several) would otherwise race each other for every position and re-read the head after each
 * lost race. Processes still race each other; the unique position decides, as below.
 */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Appends the commitments not linked yet, in the given order, after the current head; returns
 * how many links this call added. One chain whatever the number of writers: link n is inserted
 * at position n (unique), so a writer that loses the race for a position re-reads the head and
 * builds its links again; a record already linked (a retried job, another worker) is skipped
 * (unique key). Everything a call returns having added is durable before it returns.
 */
export function appendCommitments(ctx: AppContext, items: readonly Commitment[]): Promise<number> {
  const run = queue.then(() => appendNow(ctx, items));
  queue = run.catch(() => undefined);
  return run;
}

async function appendNow(ctx: AppContext, items: readonly Commitment[]): Promise<number> {
  const store = ctx.commitments;
  const unique = [...new Map(items.map((c) => [commitmentKey(c), c])).values()];
  let added = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // First round optimistic: records are mostly new, and one linked already fails its insert
    // on the unique key (nothing is written twice); later rounds leave out what is linked.
    const linked = round === 0 ? new Set<string>() : await store.findLinkedKeys(unique.map(commitmentKey));
    const pending = unique.filter((c) => !linked.has(commitmentKey(c)));
    if (pending.length === 0) return added;
    const at = ctx.clock.now();
    const links = buildLinks(headOf(await store.findLastLink()), pending).map((l) => ({ ...l, at }));
    const inserted = await store.insertLinksInOrder(links);
    added += inserted;
    if (inserted === links.length) return added;
    if (round > 0 && round % 20 === 0) ctx.log({ component: 'commitments' }).debug({ round, pending: pending.length - inserted }, 'commitments chain contended; retrying');
    await pause(round);
  }
  throw new ChainContentionError(`commitments: the chain head kept moving for ${MAX_ROUNDS} rounds`);
}
