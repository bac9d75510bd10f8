import type { LinkRow, PublishedHead } from '../../domain/commitments/chain';
import type { RecommendationForCommit, SettledForCommit } from '../../domain/commitments/records';

/**
 * What the commitments chain reads and writes: its links (link n at position n, one per record
 * key, both unique), the heads published each hour, and the stored bets it commits. The process
 * binds it to MongoDB (shared/platform/stores/commitments.ts); unit tests to memory.
 */
export interface CommitmentStore {
  /** The link of the highest position; null for an empty chain. */
  findLastLink(): Promise<LinkRow | null>;
  /** Which of these keys (`<kind>:<recordId>`) are linked already. */
  findLinkedKeys(keys: readonly string[]): Promise<Set<string>>;
  /** Inserts in order, stopping at the first position or key already taken: how many were inserted. */
  insertLinksInOrder(links: readonly LinkRow[]): Promise<number>;
  /** The link of one record; null when it was never committed. */
  findLinkOf(kind: string, recordId: string): Promise<LinkRow | null>;
  /** Up to `limit` links from position `from` on, in order. */
  findLinksFrom(from: number, limit: number): Promise<LinkRow[]>;
  /** The settlement links of one bet (one per result version), in order. */
  findSettlementLinksOf(kind: string, id: string): Promise<LinkRow[]>;
  /** Publishes a head under its hour; false when that hour's head was published already. */
  insertChainHead(hour: string, head: PublishedHead): Promise<boolean>;
  /** The latest published heads, newest first. */
  findChainHeads(limit: number): Promise<(PublishedHead & { hour: string })[]>;
  /** The stored recommendations of `ids` (those that exist). */
  findRecommendations(ids: readonly string[]): Promise<RecommendationForCommit[]>;
  /** The settled recommendations of these events. */
  findSettledRecommendations(eventIds: readonly string[]): Promise<SettledForCommit[]>;
  /** The settled picks with a leg on these events. */
  findSettledPicks(eventIds: readonly string[]): Promise<SettledForCommit[]>;
}
