import { DateTime, IANAZone } from 'luxon';

/**
 * The one place for day arithmetic. Calendar days in a client's time zone: day boundaries are
 * computed in the zone (a DST day is 23 or 25 hours long), then compared with stored UTC
 * instants. UTC days (YYYY-MM-DD) key what the service stores per day: picks, performance
 * rollups, scheduled jobs.
 */
// Checking a zone builds an Intl.DateTimeFormat (tens of microseconds): answers are remembered,
// for a bounded number of names so arbitrary input cannot grow the maps.
const MEMO_LIMIT = 2000;
const validity = new Map<string, boolean>();
const canonical = new Map<string, string>();

function remember<V>(map: Map<string, V>, k: string, v: V): V {
  if (map.size < MEMO_LIMIT) map.set(k, v);
  return v;
}

/**
 * An IANA zone name ("Europe/Madrid", "UTC", "Etc/GMT+5"). Since Node 24 (ECMAScript 2024) Intl
 * also takes offsets ("+05:00") as zones; they are not IANA names, which is what the API accepts
 * (an offset has no daylight saving time, so its "days" would silently differ from the place's).
 */
export function isValidTimeZone(name: string): boolean {
  return validity.get(name) ?? remember(validity, name, /^[A-Za-z]/.test(name) && IANAZone.isValidZone(name));
}

/** The zone's canonical IANA name ("america/new_york" -> "America/New_York"). */
export function canonicalTimeZone(name: string): string {
  return canonical.get(name) ?? remember(canonical, name, new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone);
}

/** Half-open instant range [gte, lt); either end may be open. */
export interface InstantRange {
  gte?: Date;
  lt?: Date;
}

function startOfDay(day: string, zone: string): DateTime {
  const d = DateTime.fromISO(day, { zone });
  if (!d.isValid) throw new RangeError(`invalid day ${day} in ${zone}: ${d.invalidExplanation}`);
  return d.startOf('day');
}

/** The instants of one calendar day in `zone`. */
export function dayRange(day: string, zone: string): Required<InstantRange> {
  const start = startOfDay(day, zone);
  return { gte: start.toJSDate(), lt: start.plus({ days: 1 }).toJSDate() };
}

/**
 * From the start of `startDay` (inclusive) to the end of `endDay` (inclusive), in `zone`.
 * Either day may be absent (open range).
 */
export function daySpan(startDay: string | undefined, endDay: string | undefined, zone: string): InstantRange {
  const range: InstantRange = {};
  if (startDay) range.gte = startOfDay(startDay, zone).toJSDate();
  if (endDay) range.lt = startOfDay(endDay, zone).plus({ days: 1 }).toJSDate();
  return range;
}

/** The calendar day (YYYY-MM-DD) that `at` falls on in `zone`. */
export function dayOf(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toISODate()!;
}

/** Milliseconds in a UTC day (UTC has no DST: every UTC day is this long). */
export const DAY_MS = 86_400_000;

const UTC_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC calendar day (YYYY-MM-DD) of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The first instant of a UTC day; RangeError when `day` is not a real YYYY-MM-DD day. */
export function utcDayStart(day: string): Date {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (!UTC_DAY.test(day) || Number.isNaN(start.getTime()) || utcDay(start) !== day) throw new RangeError(`day must be YYYY-MM-DD, got ${day}`);
  return start;
}

/** The instants of one UTC day: [start, next day's start). */
export function utcDayRange(day: string): Required<InstantRange> {
  const gte = utcDayStart(day);
  return { gte, lt: new Date(gte.getTime() + DAY_MS) };
}

/** The UTC day `n` days after `day` (before it when n is negative). */
export function addDays(day: string, n: number): string {
  return utcDay(new Date(utcDayStart(day).getTime() + n * DAY_MS));
}

/** The instant `days` days (of DAY_MS) before `at`: a look-back cutoff. */
export function daysBefore(at: Date | number, days: number): Date {
  return new Date(+at - days * DAY_MS);
}

/** Whole UTC days since 1970-01-01 of an epoch-millisecond instant (may be fractional input). */
export function epochDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}
