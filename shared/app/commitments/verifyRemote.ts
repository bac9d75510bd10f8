import { GENESIS, verifyLinks, verifyProof, type Head, type Link, type Proof } from '../../domain/commitments/chain';

/**
 * `verify-record`: what a customer runs against the API, trusting nothing it serves. Downloads
 * the whole chain page by page and recomputes every link, checks the served head and every
 * published head against the recomputed hashes, then fetches proofs of recommendations spread
 * over the chain and recomputes each to its head.
 */
export interface VerifyOptions {
  url: string;
  key: string;
  /** Proofs fetched, of recommendations spread over the whole chain (oldest and newest included); each is a metered request. */
  proofs: number;
  /** Later links each proof lists (its `limit`, 1 to 1000); the verifier completes the path from the chain. */
  proofLimit?: number;
  fetchImpl?: typeof fetch;
}

export interface VerifyReport {
  ok: boolean;
  links: number;
  head: Head;
  publishedHeadsChecked: number;
  proofsChecked: number;
  /** The first link that does not recompute (or disagrees with a head or a proof), and why. */
  firstBad: { seq: number; problem: string } | null;
}

export class RemoteError extends Error {
  override name = 'RemoteError';
}

type ServedLink = Link & { at?: string };

/** `n` items spread evenly over `xs`, first and last included (all of them when n >= xs.length). */
export function spread<T>(xs: readonly T[], n: number): T[] {
  if (n >= xs.length) return [...xs];
  if (n <= 0) return [];
  if (n === 1) return [xs[xs.length - 1]];
  return Array.from({ length: n }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (n - 1))]);
}

type Get = <T>(path: string) => Promise<T>;

/** GET under `<url>/v2` with the key; a non-2xx answer is a RemoteError naming the path and status. */
export function remoteGetter(url: string, key: string, fetchImpl: typeof fetch = fetch): Get {
  const base = url.replace(/\/+$/, '').replace(/\/v2$/, '');
  return async <T>(path: string): Promise<T> => {
    const res = await fetchImpl(`${base}/v2${path}`, { headers: { Authorization: `Bearer ${key}` } });
    if (!res.ok) throw new RemoteError(`GET /v2${path} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  };
}

/** The whole chain as served, page by page, with the head served with the last page. */
export async function downloadChain(get: Get): Promise<{ links: ServedLink[]; head: Head }> {
  const links: ServedLink[] = [];
  let head: Head = { hash: GENESIS, length: 0 };
  for (let from: number | null = 0; from !== null;) {
    const page: { links: ServedLink[]; head: Head; next: number | null } = await get(`/ai/track-record/chain?from=${from}&limit=1000`);
    links.push(...page.links);
    head = page.head;
    if (page.links.length === 0) break;
    from = page.next;
  }
  return { links, head };
}

export async function verifyRecord(o: VerifyOptions): Promise<VerifyReport> {
  const get = remoteGetter(o.url, o.key, o.fetchImpl);
  const { links, head: servedHead } = await downloadChain(get);
  const report = (firstBad: VerifyReport['firstBad'], extra: Partial<VerifyReport> = {}): VerifyReport => ({
    ok: firstBad === null,
    links: links.length,
    head: servedHead,
    publishedHeadsChecked: 0,
    proofsChecked: 0,
    firstBad,
    ...extra,
  });

  const walked = verifyLinks(links);
  if (!walked.ok) return report({ seq: walked.seq, problem: walked.problem });
  const hashAt = (length: number) => (length === 0 ? GENESIS : links[length - 1]?.hash);
  const headProblem = (h: Head, what: string) =>
    h.length > links.length
      ? `${what} has length ${h.length}, the chain served ${links.length} links`
      : hashAt(h.length) !== h.hash
        ? `${what} ${h.hash} is not the hash of link ${h.length - 1}`
        : null;

  const served = headProblem(servedHead, 'the served head');
  if (served) return report({ seq: Math.max(0, servedHead.length - 1), problem: served });

  const { heads } = await get<{ heads: (Head & { hour: string })[] }>('/ai/track-record/heads?limit=1000');
  for (const h of [...heads].reverse()) {
    const problem = headProblem(h, `the head published for hour ${h.hour}`);
    if (problem) return report({ seq: Math.max(0, h.length - 1), problem }, { publishedHeadsChecked: heads.length });
  }

  // A proof lists a bounded path; the rest is the chain from its `next` on: the links already
  // downloaded, and pages of the chain for any that were written after the download.
  const restOfPath = async (next: number | null, headLength: number): Promise<Proof['path']> => {
    if (next === null) return [];
    const rest = links.slice(next, headLength).map((l) => ({ seq: l.seq, record: l.record, hash: l.hash }));
    for (let from = next + rest.length; from < headLength;) {
      const page: { links: ServedLink[] } = await get(`/ai/track-record/chain?from=${from}&limit=1000`);
      const wanted = page.links.filter((l) => l.seq >= from && l.seq < headLength);
      if (wanted.length === 0) break;
      rest.push(...wanted.map((l) => ({ seq: l.seq, record: l.record, hash: l.hash })));
      from = wanted[wanted.length - 1].seq + 1;
    }
    return rest;
  };

  const recommendations = spread(
    links.filter((l) => l.kind === 'recommendation'),
    o.proofs,
  );
  let checked = 0;
  for (const r of recommendations) {
    const p = await get<Proof & { record: { canonical: string }; next?: number | null }>(
      `/ai/track-record/${encodeURIComponent(r.recordId)}/proof${o.proofLimit === undefined ? '' : `?limit=${o.proofLimit}`}`,
    );
    const proof: Proof = { link: p.link, path: [...p.path, ...(await restOfPath(p.next ?? null, p.head.length))], head: p.head };
    const check = verifyProof(proof);
    if (!check.ok) return report({ seq: check.seq, problem: `proof of ${r.recordId}: ${check.problem}` }, { publishedHeadsChecked: heads.length, proofsChecked: checked });
    if (p.link.seq !== r.seq || p.link.record !== r.record || p.record.canonical !== r.record) {
      return report({ seq: r.seq, problem: `proof of ${r.recordId}: its committed record differs from the chain's link ${r.seq}` }, { publishedHeadsChecked: heads.length, proofsChecked: checked });
    }
    const atHead = p.head.length <= links.length ? headProblem(p.head, `the head of the proof of ${r.recordId}`) : null;
    if (atHead) return report({ seq: Math.max(0, p.head.length - 1), problem: atHead }, { publishedHeadsChecked: heads.length, proofsChecked: checked });
    checked++;
  }
  return report(null, { publishedHeadsChecked: heads.length, proofsChecked: checked });
}
