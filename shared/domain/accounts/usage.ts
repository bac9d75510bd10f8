/** Usage per day and endpoint from ledger entries (pure). */

export interface UsageEntry {
  at: Date;
  kind: string;
  delta: number;
  endpoint?: string | null;
  /** A debit's requests (a batch of like requests); absent: one. */
  requests?: number | null;
}

/** The billed requests an entry adds: a debit's requests, less one per refund (a refund gives back one request). */
export const billedRequestsOf = (e: Pick<UsageEntry, 'kind' | 'requests'>): number => (e.kind === 'debit' ? (e.requests ?? 1) : -1);

export interface UsageRow {
  day: string;
  endpoint: string;
  requests: number;
  credits: number;
}

export const MAX_USAGE_DAYS = 90;

/** The first UTC day counted by `days` days up to and including today. */
export function usageSince(days: number, now: Date): Date {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(start - (days - 1) * 86400000);
}

/**
 * Debits and refunds summed per UTC day and endpoint: a refunded request is not a billed request
 * (its refund cancels its debit, counted on the refund's day, which is the debit's but for
 * requests straddling midnight). Rows with no billed request are left out; sorted by day, then
 * endpoint.
 */
export function aggregateUsage(entries: Iterable<UsageEntry>): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  for (const e of entries) {
    if (!e.endpoint || (e.kind !== 'debit' && e.kind !== 'refund')) continue;
    const day = e.at.toISOString().slice(0, 10);
    const id = `${day} ${e.endpoint}`;
    const row = rows.get(id) ?? { day, endpoint: e.endpoint, requests: 0, credits: 0 };
    row.requests += billedRequestsOf(e);
    row.credits -= e.delta;
    rows.set(id, row);
  }
  return [...rows.values()].filter((r) => r.requests > 0).sort((a, b) => (a.day === b.day ? a.endpoint.localeCompare(b.endpoint) : a.day < b.day ? -1 : 1));
}

export function usageTotals(rows: readonly UsageRow[]): { requests: number; credits: number } {
  return rows.reduce((t, r) => ({ requests: t.requests + r.requests, credits: t.credits + r.credits }), { requests: 0, credits: 0 });
}
