import type { Reprice } from '../../../domain/events/oddsAt';
import type { ClosingLine } from '../../../domain/ingest/closing';
import type { StoredMarket } from '../../../domain/ingest/stored';
import { Event, OddsHistory } from '../models';
import { findPricesOfEvent } from './eventForms';
import type { OddsHistoryRow } from './events';

/**
 * An event's stored price history as GET /v2/matches/{eventId}/odds reads it: the event's
 * kickoff, end and closing line, its stored markets (every market it was ever quoted, so every
 * item the history names) and every reprice of its provider. Nothing deletes an event's history:
 * it is kept as long as the event (docs/read-api.md).
 */
export interface OddsHistoryOfEvent {
  dataSource: string;
  startedAt: Date | null;
  endedAt: Date | null;
  closingLine: ClosingLine | null;
  markets: StoredMarket[];
  history: Reprice[];
}

interface HistoryEventRow {
  _id: string;
  dataSource: string;
  startedAt?: Date | null;
  endedAt?: Date | null;
  closingLine?: ClosingLine | null;
}

/** The event's history and what serving it needs; null when the event does not exist. */
export async function findOddsHistoryOfEvent(eventId: string): Promise<OddsHistoryOfEvent | null> {
  // By eventId, the one filter FerretDB pushes down (its GIN index); the source is chosen here, in memory.
  const [event, prices, rows] = await Promise.all([
    Event.findById(eventId, { dataSource: 1, startedAt: 1, endedAt: 1, closingLine: 1 }).lean<HistoryEventRow>(),
    findPricesOfEvent(eventId),
    OddsHistory.find({ eventId }, { dataSource: 1, at: 1, items: 1 }).lean<Pick<OddsHistoryRow, 'dataSource' | 'at' | 'items'>[]>(),
  ]);
  if (!event) return null;
  return {
    dataSource: event.dataSource,
    startedAt: event.startedAt ?? null,
    endedAt: event.endedAt ?? null,
    closingLine: event.closingLine ?? null,
    markets: prices?.markets ?? [],
    history: rows.filter((r) => r.dataSource === event.dataSource).map((r) => ({ at: r.at, items: r.items })),
  };
}
