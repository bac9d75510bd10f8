import type { CommitmentStore } from '../../../shared/app/commitments/ports';
import { commitmentKey, type LinkRow, type PublishedHead } from '../../../shared/domain/commitments/chain';
import type { RecommendationForCommit, SettledForCommit } from '../../../shared/domain/commitments/records';

/**
 * The commitments chain in memory (shared/app/commitments/ports.ts): link n at position n, each
 * position and each record key taken once (an insert stops at the first taken, as the unique
 * indexes make the real one), heads once per hour, and the stored bets the chain commits.
 */
export class MemoryCommitmentStore implements CommitmentStore {
  links: LinkRow[] = [];
  heads = new Map<string, PublishedHead>();
  recommendations: RecommendationForCommit[] = [];
  settledRecommendations: (SettledForCommit & { eventId: string })[] = [];
  settledPicks: (SettledForCommit & { eventIds: string[] })[] = [];
  /** Runs before each insert (e.g. another writer taking the next position meanwhile). */
  beforeInsert: () => void = () => undefined;

  async findLastLink() {
    return this.links.reduce<LinkRow | null>((last, l) => (!last || l.seq > last.seq ? l : last), null);
  }
  async findLinkedKeys(keys: readonly string[]) {
    const linked = new Set(this.links.map(commitmentKey));
    return new Set(keys.filter((k) => linked.has(k)));
  }
  async insertLinksInOrder(links: readonly LinkRow[]) {
    this.beforeInsert();
    let inserted = 0;
    for (const l of links) {
      if (this.links.some((x) => x.seq === l.seq || commitmentKey(x) === commitmentKey(l))) break;
      this.links.push({ ...l });
      inserted++;
    }
    return inserted;
  }
  async findLinkOf(kind: string, recordId: string) {
    return this.links.find((l) => l.kind === kind && l.recordId === recordId) ?? null;
  }
  async findLinksFrom(from: number, limit: number) {
    return this.links
      .filter((l) => l.seq >= from)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit);
  }
  async findSettlementLinksOf(kind: string, id: string) {
    return this.links.filter((l) => l.kind === kind && l.recordId.replace(/@v[0-9]+$/, '') === id).sort((a, b) => a.seq - b.seq);
  }
  async insertChainHead(hour: string, head: PublishedHead) {
    if (this.heads.has(hour)) return false;
    this.heads.set(hour, head);
    return true;
  }
  async findChainHeads(limit: number) {
    return [...this.heads]
      .map(([hour, h]) => ({ hour, ...h }))
      .sort((a, b) => b.time.getTime() - a.time.getTime())
      .slice(0, limit);
  }
  async findRecommendations(ids: readonly string[]) {
    return this.recommendations.filter((r) => ids.includes(r._id));
  }
  async findSettledRecommendations(eventIds: readonly string[]) {
    return this.settledRecommendations.filter((r) => eventIds.includes(r.eventId));
  }
  async findSettledPicks(eventIds: readonly string[]) {
    return this.settledPicks.filter((p) => p.eventIds.some((id) => eventIds.includes(id)));
  }
}
