import { ChainHead, Commitment } from '../models';
import { driverCollection } from '../collection';
import { isDuplicateKey } from '../duplicateKey';
import type { LinkRow, PublishedHead } from '../../../domain/commitments/chain';
import { insertInOrderUntilDuplicate } from '../bulk';
import { findWhereIn } from '../lookup';
import { processMemo } from '../../processScope';

/** Repository of the commitments chain: Commitment (links) and ChainHead (published heads). */

export type { LinkRow, PublishedHead };

type StoredLink = Omit<LinkRow, 'seq'> & { _id: number; key: string; subject: string };

const toRow = (d: StoredLink): LinkRow => ({ seq: d._id, kind: d.kind, recordId: d.recordId, record: d.record, prevHash: d.prevHash, hash: d.hash, at: d.at });
const LINK_FIELDS = { key: 0, subject: 0 } as const;
/** The bet a link is about: its record id without the settlement's `@v<version>`. */
const subjectOf = (recordId: string) => recordId.replace(/@v[0-9]+$/, '');

/**
 * The highest seq this process has seen taken: where the next head lookup starts. Only a hint
 * (another process may have appended since, a test may have dropped the chain): the lookup
 * checks it and searches on from it.
 */
const seen = processMemo((): { seq: number | null } => ({ seq: null }));

const linkAt = (seq: number) => Commitment.findById(seq, LINK_FIELDS).lean<StoredLink>();

/**
 * The last link (highest seq); null for an empty chain. Links have no gaps (link n is inserted
 * only after link n - 1), so from a seq known taken the head is found by doubling the step until
 * a position is free and bisecting back: O(log k) lookups by _id for k links added elsewhere
 * since. Without a hint, one sorted query: FerretDB 1.24 answers it by reading the whole chain,
 * which at one lookup per append was what made it the busiest process of the live chain.
 */
export async function findLastLink(): Promise<LinkRow | null> {
  const hint = seen().seq;
  const from = hint === null ? null : await linkAt(hint);
  if (!from) {
    const d = await Commitment.findOne({}, LINK_FIELDS).sort({ _id: -1 }).lean<StoredLink>();
    seen().seq = d ? d._id : null;
    return d ? toRow(d) : null;
  }
  let last = from;
  let step = 1;
  let free = -1;
  for (;;) {
    const next = await linkAt(last._id + step);
    if (!next) {
      free = last._id + step;
      break;
    }
    last = next;
    step *= 2;
  }
  // last is taken, free is not: bisect the positions between.
  while (free - last._id > 1) {
    const mid = Math.floor((last._id + free) / 2);
    const d = await linkAt(mid);
    if (d) last = d;
    else free = mid;
  }
  seen().seq = last._id;
  return toRow(last);
}

/** Which of these keys (`<kind>:<recordId>`) are linked already. */
export async function findLinkedKeys(keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const docs = await findWhereIn<{ key: string }>(Commitment, 'key', keys, { key: 1 });
  return new Set(docs.map((d) => d.key));
}

/** The link of one record; null when it was never committed. */
export async function findLinkOf(kind: string, recordId: string): Promise<LinkRow | null> {
  const d = await Commitment.findOne({ key: `${kind}:${recordId}` }, LINK_FIELDS).lean<StoredLink>();
  return d ? toRow(d) : null;
}

/** Up to `limit` links from seq `from` on, in order. */
export async function findLinksFrom(from: number, limit: number): Promise<LinkRow[]> {
  const docs = await Commitment.find({ _id: { $gte: from } }, LINK_FIELDS)
    .sort({ _id: 1 })
    .limit(limit)
    .lean<StoredLink[]>();
  return docs.map(toRow);
}

/** The settlement links of one bet (one per result version), in order. */
export async function findSettlementLinksOf(kind: string, id: string): Promise<LinkRow[]> {
  const docs = await Commitment.find({ subject: id, kind }, LINK_FIELDS).sort({ _id: 1 }).lean<StoredLink[]>();
  return docs.map(toRow);
}

/**
 * Inserts links in order, stopping at the first duplicate key (a position taken by another
 * writer, or a record linked already): returns how many were inserted. Any other error is thrown.
 */
export async function insertLinksInOrder(links: readonly Omit<LinkRow, never>[]): Promise<number> {
  const docs = links.map((l) => ({
    _id: l.seq,
    key: `${l.kind}:${l.recordId}`,
    subject: subjectOf(l.recordId),
    kind: l.kind,
    recordId: l.recordId,
    record: l.record,
    prevHash: l.prevHash,
    hash: l.hash,
    at: l.at,
  }));
  const inserted = await insertInOrderUntilDuplicate(Commitment.collection, docs);
  if (inserted > 0) seen().seq = Math.max(seen().seq ?? -1, docs[inserted - 1]._id);
  return inserted;
}

/** Publishes a head under its hour; false when that hour's head was published already. */
export async function insertChainHead(hour: string, head: PublishedHead): Promise<boolean> {
  try {
    await driverCollection<{ _id: string } & PublishedHead>(ChainHead).insertOne({ _id: hour, hash: head.hash, length: head.length, time: head.time });
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** The latest published heads, newest first. */
export async function findChainHeads(limit: number): Promise<(PublishedHead & { hour: string })[]> {
  const docs = await ChainHead.find({}).sort({ time: -1, _id: -1 }).limit(limit).lean<(PublishedHead & { _id: string })[]>();
  return docs.map((d) => ({ hour: d._id, hash: d.hash, length: d.length, time: d.time }));
}
