import { worldNow } from '../../shared/platform/clock/worldClock';
import { canonicalTimeZone, dayOf, dayRange, daySpan, type InstantRange } from '../../shared/domain/days';
import type { ListingFilter } from '../../shared/domain/listing/rows';
import { sportByName } from '../../shared/domain/sports';

/**
 * MongoDB filters built from VALIDATED queries only: every value is a checked scalar that is
 * converted here (numbers, dates, enum members), and every operator is written here. Pure.
 */
export interface EventFilterInput {
  status?: readonly string[];
  competitionId?: string;
  regionId?: string;
  sportName?: string;
  date?: string;
  startDate?: string;
  endDate?: string;
  timezone?: string;
}

export const uniqueSorted = (values: readonly string[]) => [...new Set(values)].sort();

function rangeFilter(r: InstantRange): Record<string, Date> | undefined {
  if (!r.gte && !r.lt) return undefined;
  return { ...(r.gte ? { $gte: r.gte } : {}), ...(r.lt ? { $lt: r.lt } : {}) };
}

/** The start-time range of a date / startDate+endDate filter, read in the client's zone. */
export function dateFilter(q: Pick<EventFilterInput, 'date' | 'startDate' | 'endDate' | 'timezone'>): Record<string, Date> | undefined {
  const zone = q.timezone ?? 'UTC';
  if (q.date) return rangeFilter(dayRange(q.date, zone));
  return rangeFilter(daySpan(q.startDate, q.endDate, zone));
}

/** The same filter over the listing's compact rows (shared/domain/listing/rows.ts). */
export function listingFilter(q: EventFilterInput): ListingFilter {
  const f: ListingFilter = {};
  if (q.status?.length) f.status = uniqueSorted(q.status);
  if (q.competitionId !== undefined) f.competitionId = Number(q.competitionId);
  if (q.regionId !== undefined) f.regionId = Number(q.regionId);
  if (q.sportName !== undefined) f.sportId = sportByName(q.sportName)!.id;
  const zone = q.timezone ?? 'UTC';
  const r = q.date ? dayRange(q.date, zone) : daySpan(q.startDate, q.endDate, zone);
  if (r.gte) f.startGte = r.gte.getTime();
  if (r.lt) f.startLt = r.lt.getTime();
  return f;
}

export function eventFilter(q: EventFilterInput): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  if (q.status?.length) filter.status = { $in: uniqueSorted(q.status) };
  if (q.competitionId !== undefined) filter.competitionId = Number(q.competitionId);
  if (q.regionId !== undefined) filter.regionId = Number(q.regionId);
  if (q.sportName !== undefined) filter.sportId = sportByName(q.sportName)!.id;
  const start = dateFilter(q);
  if (start) filter.startDateTime = start;
  return filter;
}

/** The instants of "today" in `zone`, at `now`. */
export function todayFilter(zone: string, now = worldNow()): { day: string; range: Record<string, Date> } {
  const day = dayOf(now, zone);
  return { day, range: rangeFilter(dayRange(day, zone))! };
}

/** Cache-key form of a time zone: aliases and letter case collapse ("utc" = "UTC"). */
export function zoneKey(zone: string | undefined): string {
  return canonicalTimeZone(zone ?? 'UTC');
}

/** Case-, accent- and regex-safe substring pattern for Team.searchNames (lower-case, accent-free). */
export function searchPattern(search: string): string {
  const folded = search
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
  return folded.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
}

/** Whether a query filters by calendar days (then its time zone matters, and is part of its cache key). */
export const hasDates = (q: { date?: string; startDate?: string; endDate?: string }) => Boolean(q.date || q.startDate || q.endDate);
