import { MAX_PROOF_PATH, type LinkRow } from '../../domain/commitments/chain';
import { isRecord } from '../../domain/records';
import type { AppContext } from '../context';
import { headOf } from './append';

/** What the API serves of the chain: the head, pages of links, proofs, published heads. */

export type ServedHead = {
  hash: string;
  length: number;
  time: string | null;
};

export const servedLink = (l: LinkRow) => ({ seq: l.seq, kind: l.kind, recordId: l.recordId, record: l.record, prevHash: l.prevHash, hash: l.hash, at: l.at.toISOString() });

export async function currentHead(ctx: AppContext): Promise<ServedHead> {
  const last = await ctx.commitments.findLastLink();
  return { ...headOf(last), time: last ? last.at.toISOString() : null };
}

export async function chainPage(ctx: AppContext, from: number, limit: number) {
  const [links, head] = await Promise.all([ctx.commitments.findLinksFrom(from, limit), currentHead(ctx)]);
  const end = links.length ? links[links.length - 1].seq + 1 : from;
  return { links: links.map(servedLink), head, next: end < head.length ? end : null };
}

export async function publishedHeads(ctx: AppContext, limit: number) {
  const [heads, head] = await Promise.all([ctx.commitments.findChainHeads(limit), currentHead(ctx)]);
  return { heads: heads.map((h) => ({ ...h, time: h.time.toISOString() })), head };
}

export type ProofOutcome = { kind: 'proof'; proof: Awaited<ReturnType<typeof buildProof>> } | { kind: 'not-committed' } | { kind: 'bad-to'; message: string };

/**
 * The proof of a committed recommendation (or featured pick): its link, its settlement links,
 * and the later links' records and hashes towards a head: the current one, or the head of
 * length `to` (a published head the customer kept). At most `limit` later links are listed;
 * when the head is further, `next` is the seq the path continues from (GET
 * /v2/ai/track-record/chain?from=next), so a proof stays small however long the chain grows.
 */
export async function proofOf(ctx: AppContext, id: string, o: { limit?: number; to?: number } = {}): Promise<ProofOutcome> {
  const store = ctx.commitments;
  const link = (await store.findLinkOf('recommendation', id)) ?? (await store.findLinkOf('pick', id));
  if (!link) return { kind: 'not-committed' };
  const current = await currentHead(ctx);
  let head = current;
  if (o.to !== undefined) {
    if (o.to <= link.seq)
      return { kind: 'bad-to', message: `to: ${o.to} is not after the record's link ${link.seq} (to is a chain length: a head holding the link has length ${link.seq + 1} or more)` };
    if (o.to > current.length) return { kind: 'bad-to', message: `to: ${o.to} is beyond the current head (length ${current.length})` };
    if (o.to < current.length) {
      const [end] = await store.findLinksFrom(o.to - 1, 1);
      // Links have no gaps: the link before a length within the head is stored.
      if (!end) throw new Error(`commitments: no link at ${o.to - 1} below the head of length ${current.length}`);
      head = { hash: end.hash, length: o.to, time: end.at.toISOString() };
    }
  }
  return { kind: 'proof', proof: await buildProof(ctx, id, link, head, Math.min(o.limit ?? MAX_PROOF_PATH, MAX_PROOF_PATH)) };
}

/** A committed record's canonical JSON, parsed (every record is an object: shared/domain/commitments/records.ts). */
function parsedRecord(canonical: string): Readonly<Record<string, unknown>> {
  const parsed: unknown = JSON.parse(canonical);
  if (!isRecord(parsed)) throw new Error(`a committed record is not an object: ${canonical.slice(0, 80)}`);
  return parsed;
}

async function buildProof(ctx: AppContext, id: string, link: LinkRow, head: ServedHead, limit: number) {
  const from = link.seq + 1;
  const page = from < head.length ? await ctx.commitments.findLinksFrom(from, Math.min(limit, head.length - from)) : [];
  const path = page.map((l) => ({ seq: l.seq, record: l.record, hash: l.hash }));
  const end = from + path.length;
  const settlementKind = link.kind === 'pick' ? 'pick-settlement' : 'recommendation-settlement';
  const settlements = head.length > from ? (await ctx.commitments.findSettlementLinksOf(settlementKind, id)).filter((l) => l.seq < head.length) : [];
  return {
    id,
    record: { canonical: link.record, parsed: parsedRecord(link.record) },
    link: servedLink(link),
    settlements: settlements.map(servedLink),
    path,
    next: end < head.length ? end : null,
    head,
  };
}
