import type { ChangeEntry } from '../../../shared/domain/feed/changes';
import type { PickRow, SettledRecommendationRow } from '../../../shared/domain/webhooks/payloads';
import type { EndpointHealthRow, PostResult, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow, WebhookStore } from '../../../shared/app/webhooks/ports';

/** One POST as the memory network received it. */
export interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The webhooks' store in memory: endpoints and deliveries in maps, a change feed as an array, DNS
 * as a table, and a network whose answer to each POST a test scripts (`answer`).
 */
export class MemoryWebhookStore implements WebhookStore {
  endpoints = new Map<string, WebhookEndpointRow>();
  deliveries = new Map<string, WebhookDeliveryRow>();
  healthOf = new Map<string, EndpointHealthRow>();
  feed: ChangeEntry[] = [];
  cursor: string | null = null;
  settled = new Map<string, SettledRecommendationRow[]>();
  picks = new Map<string, PickRow>();
  dns = new Map<string, string[]>();
  sent: Sent[] = [];
  /** The network's answer to a POST (default: 200 in 5 ms). */
  answer: (req: Sent) => PostResult = () => ({ statusCode: 200, error: null, durationMs: 5 });

  constructor(private readonly now: () => Date) {}

  async createEndpoint(doc: { _id: string; accountId: string; url: string; events: string[]; secret: string }) {
    const row = { ...doc, previousSecret: null, previousSecretUntil: null, createdAt: this.now() };
    this.endpoints.set(doc._id, row);
    return { ...row };
  }
  async endpointsOfAccount(accountId: string) {
    return [...this.endpoints.values()].filter((e) => e.accountId === accountId).map((e) => ({ ...e }));
  }
  async endpoint(id: string) {
    const e = this.endpoints.get(id);
    return e ? { ...e } : null;
  }
  async endpointsSubscribedTo(type: string) {
    return [...this.endpoints.values()].filter((e) => e.events.includes(type)).map((e) => ({ ...e }));
  }
  async deleteEndpoint(accountId: string, id: string) {
    if (this.endpoints.get(id)?.accountId !== accountId) return false;
    this.endpoints.delete(id);
    for (const [k, d] of this.deliveries) if (d.endpointId === id) this.deliveries.delete(k);
    this.healthOf.delete(id);
    return true;
  }
  async setSecret(accountId: string, id: string, secret: string, previous: { secret: string; until: Date }) {
    const e = this.endpoints.get(id);
    if (!e || e.accountId !== accountId) return false;
    this.endpoints.set(id, { ...e, secret, previousSecret: previous.secret, previousSecretUntil: previous.until });
    return true;
  }
  async insertDeliveries(docs: readonly Omit<WebhookDeliveryRow, 'attempts' | 'deliveredAt' | 'reason' | 'charged' | 'createdAt'>[]) {
    const inserted: string[] = [];
    for (const d of docs) {
      if (this.deliveries.has(d._id)) continue;
      this.deliveries.set(d._id, { ...d, attempts: [], deliveredAt: null, reason: null, charged: false, createdAt: this.now() });
      inserted.push(d._id);
    }
    return inserted;
  }
  async delivery(id: string) {
    const d = this.deliveries.get(id);
    return d ? { ...d, attempts: [...d.attempts] } : null;
  }
  async deliveriesOfEndpoint(endpointId: string, limit: number) {
    return [...this.deliveries.values()]
      .filter((d) => d.endpointId === endpointId)
      .reverse()
      .slice(0, limit);
  }
  async recordAttempt(id: string, attempt: Required<WebhookAttemptRow>, set: Partial<WebhookDeliveryRow>) {
    const d = this.deliveries.get(id);
    if (d) this.deliveries.set(id, { ...d, ...set, attempts: [...d.attempts, attempt] });
  }
  async setDelivery(id: string, set: Partial<WebhookDeliveryRow>) {
    const d = this.deliveries.get(id);
    if (d) this.deliveries.set(id, { ...d, ...set });
  }
  async overdueDeliveries(before: Date, limit: number) {
    return [...this.deliveries.values()].filter((d) => d.status === 'pending' && d.nextAttemptAt && d.nextAttemptAt < before).slice(0, limit);
  }
  async deleteDeliveriesBefore(before: Date) {
    let n = 0;
    for (const [k, d] of this.deliveries)
      if (d.createdAt && d.createdAt < before) {
        this.deliveries.delete(k);
        n++;
      }
    return n;
  }
  async health(ids: readonly string[]) {
    return new Map(ids.map((id) => [id, this.healthOf.get(id) ?? { run: 0, sinceMs: null, lastError: null, disabledAt: null, disabledReason: null }]));
  }
  async recordSuccess(id: string) {
    const h = this.healthOf.get(id);
    if (h) this.healthOf.set(id, { ...h, run: 0, sinceMs: null, lastError: null });
  }
  async recordFailure(id: string, nowMs: number, error: string) {
    const h = this.healthOf.get(id) ?? { run: 0, sinceMs: null, lastError: null, disabledAt: null, disabledReason: null };
    const next = { ...h, run: h.run + 1, sinceMs: h.sinceMs ?? nowMs, lastError: error };
    this.healthOf.set(id, next);
    return { run: next.run, sinceMs: next.sinceMs };
  }
  async disable(id: string, nowMs: number, reason: string) {
    const h = this.healthOf.get(id) ?? { run: 0, sinceMs: null, lastError: null, disabledAt: null, disabledReason: null };
    this.healthOf.set(id, { ...h, disabledAt: new Date(nowMs), disabledReason: reason });
  }
  async enable(id: string) {
    this.healthOf.delete(id);
  }
  async readFeed(afterId: string, count: number) {
    const i = this.feed.findIndex((e) => e.id === afterId);
    return { entries: this.feed.slice(i + 1, i + 1 + count), gap: false };
  }
  async feedHead() {
    return this.feed.at(-1)?.id ?? null;
  }
  async feedCursor() {
    return this.cursor;
  }
  async setFeedCursor(id: string) {
    this.cursor = id;
  }
  async settledRecommendationsOfEvent(eventId: string) {
    return this.settled.get(eventId) ?? [];
  }
  async pick(id: string) {
    return this.picks.get(id) ?? null;
  }
  async resolveHost(host: string) {
    const a = this.dns.get(host);
    if (!a) throw new Error(`ENOTFOUND ${host}`);
    return a;
  }
  async post(req: { url: string; headers: Record<string, string>; body: string }) {
    const sent = { url: req.url, headers: req.headers, body: req.body };
    this.sent.push(sent);
    return this.answer(sent);
  }
}
