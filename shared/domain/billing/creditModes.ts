/**
 * Test money is test money. Credits bought through the built-in test gateway (Stripe's test
 * cards, nothing really charged) are test credits: a balance of their own on the account, kept on
 * a ledger chain of its own, that only test keys see (and test keys spend nothing). Credits bought
 * through a real gateway, the sign-up grant and the operator's credits are live credits: the
 * balance live keys see and spend. Nothing moves credits from one balance to the other.
 */

export const CREDIT_MODES = ['live', 'test'] as const;
export type CreditMode = (typeof CREDIT_MODES)[number];

/** What a charge through `gateway` buys: test credits through the built-in test gateway, live credits through any other. */
export const creditModeOfGateway = (gateway: string): CreditMode => (gateway === 'test' ? 'test' : 'live');

const TEST_SUFFIX = ':test';

/**
 * The ledger (and admission balance) an account's credits of `mode` are kept on: the account's
 * own id for live credits (the chain live keys are debited against), `<accountId>:test` for test
 * credits. Account ids never hold a colon, so a test ledger is never an account's live one.
 */
export const ledgerOf = (accountId: string, mode: CreditMode): string => (mode === 'test' ? `${accountId}${TEST_SUFFIX}` : accountId);

/** The account and the mode of a ledger id (pure; the inverse of ledgerOf). */
export function ownerOfLedger(ledgerId: string): { accountId: string; mode: CreditMode } {
  return ledgerId.endsWith(TEST_SUFFIX) ? { accountId: ledgerId.slice(0, -TEST_SUFFIX.length), mode: 'test' } : { accountId: ledgerId, mode: 'live' };
}
