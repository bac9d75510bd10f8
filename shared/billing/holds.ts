import { deleteMeterHolds, insertMeterHold } from '../db/repositories/ledger';
import { childLogger } from '../logger';
import { randomBase62 } from './keys';

/**
 * In-flight debits of this process, one hold document per committed batch. A hold is deleted when
 * every debit in it is settled (kept or refunded); deletions are batched (one deleteMany per flush).
 */

const unsettled = new Map<string, number>();
const toDelete = new Set<string>();
let deleting: Promise<void> | null = null;

export async function writeHold(accountId: string, items: { ref: string; cost: number; keyId: string; endpoint: string }[], at: Date): Promise<string> {
  const id = `hold_${randomBase62(16)}`;
  await insertMeterHold(id, accountId, items, at);
  unsettled.set(id, items.length);
  return id;
}

/** One debit of the hold is settled; the last one removes the hold. */
export function settleHeld(holdId: string): void {
  const left = (unsettled.get(holdId) ?? 1) - 1;
  if (left > 0) {
    unsettled.set(holdId, left);
    return;
  }
  unsettled.delete(holdId);
  toDelete.add(holdId);
  deleting ??= flush();
}

async function flush(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
  while (toDelete.size) {
    const ids = [...toDelete];
    toDelete.clear();
    await deleteMeterHolds(ids).catch((err) => childLogger({ component: 'metering' }).warn({ err: (err as Error).message, holds: ids.length }, 'releasing holds failed; the sweep will settle them'));
  }
  deleting = null;
}

export async function drainHolds(): Promise<void> {
  while (deleting || toDelete.size) await (deleting ?? flush());
}
