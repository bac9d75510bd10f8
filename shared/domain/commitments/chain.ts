import { createHash } from 'node:crypto';

/**
 * The hash chain of commitments, pure: link n's hash is SHA-256 (lowercase hex) of the UTF-8
 * bytes of link n-1's hash followed by link n's canonical record; link 0 follows GENESIS.
 * Anyone holding a head (hash, length) can check that every record before it is unchanged.
 */
export const GENESIS = '0'.repeat(64);

export type LinkKind = 'recommendation' | 'pick' | 'recommendation-settlement' | 'pick-settlement';
export const LINK_KINDS: readonly LinkKind[] = ['recommendation', 'pick', 'recommendation-settlement', 'pick-settlement'];

/** What is appended: the record's kind and id (its idempotency key) and its canonical string. */
export interface Commitment {
  kind: LinkKind;
  recordId: string;
  record: string;
}

export interface Link extends Commitment {
  seq: number;
  prevHash: string;
  hash: string;
}

export interface Head {
  hash: string;
  /** Links in the chain (the head link's seq + 1); 0 for an empty chain. */
  length: number;
}

/** A link as the chain keeps it: with the instant it was written. */
export interface LinkRow extends Link {
  at: Date;
}

/** A head as published once an hour (a copy outside the chain that a later rewrite cannot reach). */
export interface PublishedHead extends Head {
  time: Date;
}

export const EMPTY_HEAD: Head = { hash: GENESIS, length: 0 };

/** The most later links one served proof carries; the rest of its path is the chain from its `next` on. */
export const MAX_PROOF_PATH = 1000;

export function linkHash(prevHash: string, record: string): string {
  return createHash('sha256').update(prevHash, 'utf8').update(record, 'utf8').digest('hex');
}

/** The idempotency key of a commitment: the same (kind, recordId) is one link, however often appended. */
export const commitmentKey = (c: Pick<Commitment, 'kind' | 'recordId'>) => `${c.kind}:${c.recordId}`;

/** The links that put `items` after `head`, in order. */
export function buildLinks(head: Head, items: readonly Commitment[]): Link[] {
  let prev = head.hash;
  return items.map((c, i) => {
    const hash = linkHash(prev, c.record);
    const link = { seq: head.length + i, kind: c.kind, recordId: c.recordId, record: c.record, prevHash: prev, hash };
    prev = hash;
    return link;
  });
}

export type ChainCheck = { ok: true; head: Head } | { ok: false; seq: number; problem: string };

/**
 * Recomputes `links` (consecutive, starting at `from`: GENESIS at 0 by default) and returns the
 * head they lead to, or the first link that does not recompute and why.
 */
export function verifyLinks(links: readonly Pick<Link, 'seq' | 'record' | 'prevHash' | 'hash'>[], from: Head = EMPTY_HEAD): ChainCheck {
  let head = from;
  for (const l of links) {
    if (l.seq !== head.length) return { ok: false, seq: l.seq, problem: `expected seq ${head.length}, found ${l.seq}` };
    if (l.prevHash !== head.hash) return { ok: false, seq: l.seq, problem: `prevHash ${l.prevHash} is not the hash of link ${l.seq - 1} (${head.hash})` };
    const h = linkHash(head.hash, l.record);
    if (h !== l.hash) return { ok: false, seq: l.seq, problem: `stored hash ${l.hash} does not recompute (SHA-256 of prevHash + record is ${h})` };
    head = { hash: h, length: l.seq + 1 };
  }
  return { ok: true, head };
}

/** A proof: one committed link and every later link's record up to a head. */
export interface Proof {
  link: Pick<Link, 'seq' | 'record' | 'prevHash' | 'hash'>;
  path: readonly Pick<Link, 'seq' | 'record' | 'hash'>[];
  head: Head;
}

/** Recomputes the head from the committed record and the path; the first link that fails, else ok. */
export function verifyProof(p: Proof): ChainCheck {
  const first = linkHash(p.link.prevHash, p.link.record);
  if (first !== p.link.hash) return { ok: false, seq: p.link.seq, problem: `the committed record does not hash to its link (${first} != ${p.link.hash})` };
  const walked = verifyLinks(
    p.path.map((l, i) => ({ ...l, prevHash: i === 0 ? p.link.hash : p.path[i - 1].hash })),
    { hash: p.link.hash, length: p.link.seq + 1 },
  );
  if (!walked.ok) return walked;
  if (walked.head.length !== p.head.length || walked.head.hash !== p.head.hash) {
    return { ok: false, seq: walked.head.length - 1, problem: `the path ends at ${walked.head.hash} (length ${walked.head.length}), not at the head ${p.head.hash} (length ${p.head.length})` };
  }
  return walked;
}
