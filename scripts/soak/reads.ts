/**
 * The soak's audit reads of stored rows the repositories have no query for (every bet's
 * settlementWrites, every ledger entry's ref and kind): read-only, by collection, as an operator
 * would in the shell. The collections are found through the models the repositories registered.
 */
import mongoose from 'mongoose';
import type { BetRow } from './checks';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function collection(model: string) {
  const db = mongoose.connection.db;
  if (!db) throw new Error('not connected to MongoDB');
  return db.collection(mongoose.model(model).collection.collectionName);
}

/** Every recommendation's (or pick's) settlement audit fields. */
export async function betRows(model: 'Recommendation' | 'Pick'): Promise<BetRow[]> {
  const out: BetRow[] = [];
  for await (const d of collection(model).find({}, { projection: { settled: 1, settlementWrites: 1, corrections: 1 } })) {
    const doc: unknown = d;
    if (!isObj(doc)) continue;
    out.push({
      settled: doc.settled === true,
      settlementWrites: typeof doc.settlementWrites === 'number' ? doc.settlementWrites : 0,
      corrections: Array.isArray(doc.corrections) ? doc.corrections.length : 0,
    });
  }
  return out;
}

export interface LedgerRow {
  ref: string;
  accountId: string;
  kind: string;
  delta: number;
}

export async function ledgerRows(): Promise<LedgerRow[]> {
  const out: LedgerRow[] = [];
  for await (const d of collection('CreditLedger').find({}, { projection: { ref: 1, accountId: 1, kind: 1, delta: 1 } })) {
    const doc: unknown = d;
    if (isObj(doc) && typeof doc.ref === 'string' && typeof doc.accountId === 'string' && typeof doc.kind === 'string' && typeof doc.delta === 'number') {
      out.push({ ref: doc.ref, accountId: doc.accountId, kind: doc.kind, delta: doc.delta });
    }
  }
  return out;
}

/** Events that ended (endedAt set). */
export async function endedEventCount(): Promise<number> {
  let n = 0;
  for await (const d of collection('Event').find({ endedAt: { $ne: null } }, { projection: { _id: 1 } })) if (d) n++;
  return n;
}
