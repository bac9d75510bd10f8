import type { Locale } from '../../shared/domain/sports';
import { worldNow } from '../../shared/platform/clock/worldClock';
import { findOddsHistoryOfEvent } from '../../shared/platform/db/repositories/history';
import { notFound } from '../errors';
import { renderOddsAt } from '../render/history';

/** The event's odds as they stood at `at`; 404 when the event does not exist. */
export async function oddsAtInstant(eventId: string, at: Date, locale: Locale) {
  const stored = await findOddsHistoryOfEvent(eventId);
  if (!stored) throw notFound(`Event ${eventId} not found`);
  return { data: renderOddsAt(eventId, stored, at, locale, worldNow()) };
}
