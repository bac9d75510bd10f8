import { worldNow } from '../../shared/platform/clock/worldClock';
import { canonicalTimeZone, dayOf, dayRange, daySpan } from '../../shared/domain/days';
import type { ListingFilter } from '../../shared/domain/listing/rows';
import { sportByName } from '../../shared/domain/sports';

/**
 * Filters built from VALIDATED queries only: every value is a checked scalar that is converted
 * here (numbers, dates, enum members). Pure; no store syntax (the repositories write that).
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

/** The id of a sport named in a validated query (its schema admits only SPORT_NAMES). */
export function sportIdOf(name: string): number {
  const sport = sportByName(name);
  if (!sport) throw new Error(`unknown sport "${name}" passed validation`);
  return sport.id;
}

/** The same filter over the listing's compact rows (shared/domain/listing/rows.ts). */
export function listingFilter(q: EventFilterInput): ListingFilter {
  const f: ListingFilter = {};
  if (q.status?.length) f.status = uniqueSorted(q.status);
  if (q.competitionId !== undefined) f.competitionId = Number(q.competitionId);
  if (q.regionId !== undefined) f.regionId = Number(q.regionId);
  if (q.sportName !== undefined) f.sportId = sportIdOf(q.sportName);
  const zone = q.timezone ?? 'UTC';
  const r = q.date ? dayRange(q.date, zone) : daySpan(q.startDate, q.endDate, zone);
  if (r.gte) f.startGte = r.gte.getTime();
  if (r.lt) f.startLt = r.lt.getTime();
  return f;
}

/** The instants of "today" in `zone`, at `now`. */
export function todayFilter(zone: string, now = worldNow()): { day: string; range: { gte: Date; lt: Date } } {
  const day = dayOf(now, zone);
  return { day, range: dayRange(day, zone) };
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
