import { startLedgerConsumer, type LedgerConsumer, type LedgerConsumerOptions } from '../../shared/platform/billing/ledgerConsumer';
import { drainMetering } from '../../shared/app/billing/metering';
import { connectMongo } from '../../shared/platform/db/mongo';

/**
 * The ledger consumer of the calling describe block (the settlement process runs it in the
 * service): started before its tests, stopped after. `written()` resolves once every request this
 * process settled, and every charge any process appended, is in the MongoDB ledger.
 */
export function ledgerConsumerForThisSuite(options: LedgerConsumerOptions = {}): { written(): Promise<void> } {
  let consumer: LedgerConsumer | undefined;
  before(async () => {
    await connectMongo();
    consumer = startLedgerConsumer({ claimIdleMs: 1000, blockMs: 200, ...options });
  });
  after(async () => consumer?.stop());
  return {
    async written() {
      await drainMetering();
      await consumer!.drained();
    },
  };
}
