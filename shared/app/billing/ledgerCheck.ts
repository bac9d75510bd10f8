import { ownerOfLedger } from '../../domain/billing/creditModes';
import type { AppContext } from '../context';

export interface LedgerProblem {
  accountId: string;
  problem: string;
}

interface Totals {
  /** The ledger: an account's id (its live credits) or its test ledger's (`<account>:test`). */
  _id: string;
  sum: number;
  entries: number;
  maxSeq: number;
  minBalance: number;
}

/**
 * Per-account totals in one streaming pass (FerretDB 1.x implements neither $max nor $min in
 * $group, and counts with $sum: 1 unreliably, so the sums are made here).
 */
async function totals(ctx: AppContext, ledgerId?: string): Promise<Totals[]> {
  const byAccount = new Map<string, Totals>();
  for await (const e of ctx.ledger.balanceEntries(ledgerId)) {
    let t = byAccount.get(e.accountId);
    if (!t) byAccount.set(e.accountId, (t = { _id: e.accountId, sum: 0, entries: 0, maxSeq: 0, minBalance: Infinity }));
    t.sum += e.delta;
    t.entries += 1;
    if (e.seq > t.maxSeq) t.maxSeq = e.seq;
    if (e.balance < t.minBalance) t.minBalance = e.balance;
  }
  return [...byAccount.values()];
}

async function problemsOf(ctx: AppContext, t: Totals): Promise<string[]> {
  const head = await ctx.ledger.balanceAt(t._id, t.maxSeq);
  const out: string[] = [];
  if (t.entries !== t.maxSeq) out.push(`${t.entries} entries but the chain ends at position ${t.maxSeq}`);
  if (!head || head.balance !== t.sum) out.push(`entries sum to ${t.sum} but the balance is ${head?.balance}`);
  if (t.minBalance < 0) out.push(`a running balance went negative (${t.minBalance})`);
  return out;
}

/**
 * Proves, for every account, that its ledger entries sum to its balance (the head's running
 * balance), that the chain has no gap or double position, and that no balance was ever negative;
 * the same for its test credits, a chain apart (`testBalances`, shared/domain/billing/creditModes.ts).
 * Safe under traffic: an account that looks wrong is checked again on its own before it is reported.
 */
export async function checkLedger(ctx: AppContext): Promise<{
  accounts: number;
  entries: number;
  problems: LedgerProblem[];
  balances: Record<string, number>;
  testBalances: Record<string, number>;
  chargesPending: number;
}> {
  const rows = await totals(ctx);
  const problems: LedgerProblem[] = [];
  const balances: Record<string, number> = {};
  const testBalances: Record<string, number> = {};
  let entries = 0;
  for (const t of rows) {
    entries += t.entries;
    let found = await problemsOf(ctx, t);
    if (found.length) {
      const [again] = await totals(ctx, t._id);
      found = again ? await problemsOf(ctx, again) : ['entries vanished'];
    }
    const { accountId, mode } = ownerOfLedger(t._id);
    for (const problem of found) problems.push({ accountId, problem: mode === 'test' ? `test credits: ${problem}` : problem });
    (mode === 'test' ? testBalances : balances)[accountId] = t.sum;
  }
  const accounts = await ctx.accounts.findAllAccountIds();
  for (const a of accounts) if (!(a in balances)) problems.push({ accountId: a, problem: 'no ledger entries (every account starts with its grant)' });
  // Not a problem: charges of served requests on their way to the ledger (the consumer's backlog).
  const chargesPending = await ctx.ledger.chargesNotYetInLedger().catch(() => -1);
  return { accounts: accounts.length, entries, problems, balances, testBalances, chargesPending };
}
