import { ChainHead, Commitment } from '../models';
import { isDuplicateKey } from '../duplicateKey';
import type { LinkKind } from '../../commitments/chain';
import { insertInOrderUntilDuplicate } from '../bulk';

/** Repository of the commitments chain: Commitment (links) and ChainHead (published heads). */

export interface LinkRow {
  seq: number;
  kind: LinkKind;
  recordId: string;
  record: string;
  prevHash: string;
  hash: string;
  at: Date;
}

type StoredLink = Omit<LinkRow, 'seq'> & { _id: number; key: string; subject: string };

const toRow = (d: StoredLink): LinkRow => ({ seq: d._id, kind: d.kind, recordId: d.recordId, record: d.record, prevHash: d.prevHash, hash: d.hash, at: d.at });
const LINK_FIELDS = { key: 0, subject: 0 } as const;
/** The bet a link is about: its record id without the settlement's `@v<version>`. */
const subjectOf = (recordId: string) => recordId.replace(/@v[0-9]+$/, '');

/** The last link (highest seq); null for an empty chain. */
export async function findLastLink(): Promise<LinkRow | null> {
  const d = await Commitment.findOne({}, LINK_FIELDS).sort({ _id: -1 }).lean<StoredLink>();
  return d ? toRow(d) : null;
}

/** Which of these keys (`<kind>:<recordId>`) are linked already. */
export async function findLinkedKeys(keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const docs = await Commitment.find({ key: { $in: keys } }, { key: 1 }).lean<{ key: string }[]>();
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
  return insertInOrderUntilDuplicate(Commitment.collection, docs);
}

export interface PublishedHead {
  hash: string;
  length: number;
  time: Date;
}

/** Publishes a head under its hour; false when that hour's head was published already. */
export async function insertChainHead(hour: string, head: PublishedHead): Promise<boolean> {
  try {
    await ChainHead.collection.insertOne({ _id: hour as never, hash: head.hash, length: head.length, time: head.time });
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
