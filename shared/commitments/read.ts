import { findChainHeads, findLastLink, findLinkOf, findLinksFrom, findSettlementLinksOf, type LinkRow } from '../db/repositories/commitments';
import { headOf } from './append';

/** What the API serves of the chain: the head, pages of links, proofs, published heads. */

export type ServedHead = {
  hash: string;
  length: number;
  time: string | null;
};

export const servedLink = (l: LinkRow) => ({ seq: l.seq, kind: l.kind, recordId: l.recordId, record: l.record, prevHash: l.prevHash, hash: l.hash, at: l.at.toISOString() });

export async function currentHead(): Promise<ServedHead> {
  const last = await findLastLink();
  return { ...headOf(last), time: last ? last.at.toISOString() : null };
}

export async function chainPage(from: number, limit: number) {
  const [links, head] = await Promise.all([findLinksFrom(from, limit), currentHead()]);
  const end = links.length ? links[links.length - 1].seq + 1 : from;
  return { links: links.map(servedLink), head, next: end < head.length ? end : null };
}

export async function publishedHeads(limit: number) {
  const [heads, head] = await Promise.all([findChainHeads(limit), currentHead()]);
  return { heads: heads.map((h) => ({ ...h, time: h.time.toISOString() })), head };
}

/** Links read per query while walking to the head. */
const PAGE = 2000;

/**
 * The proof of a committed recommendation (or featured pick): its link, its settlement links,
 * and every later link's record and hash up to the head read at the start; null when the id was
 * never committed. Later links only follow the head, so the path always reaches it.
 */
export async function proofOf(id: string) {
  const link = (await findLinkOf('recommendation', id)) ?? (await findLinkOf('pick', id));
  if (!link) return null;
  const head = await currentHead();
  const path: { seq: number; record: string; hash: string }[] = [];
  for (let from = link.seq + 1; from < head.length;) {
    const page = await findLinksFrom(from, Math.min(PAGE, head.length - from));
    if (page.length === 0) break;
    for (const l of page) path.push({ seq: l.seq, record: l.record, hash: l.hash });
    from = page[page.length - 1].seq + 1;
  }
  const settlementKind = link.kind === 'pick' ? 'pick-settlement' : 'recommendation-settlement';
  const settlementIds = path.length ? (await findSettlementLinksOf(settlementKind, id)).filter((l) => l.seq < head.length) : [];
  return { id, record: { canonical: link.record, parsed: JSON.parse(link.record) as Record<string, unknown> }, link: servedLink(link), settlements: settlementIds.map(servedLink), path, head };
}
