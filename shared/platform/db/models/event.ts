import { Schema } from 'mongoose';
import type { StoredEvent } from '../../../domain/ingest/stored';
import { EVENT_STATUSES } from '../../../domain/events/status';
import { LocalizedTextSchema, StatsFields } from './common';
import { declaredSchema, defineModel, nullable, required, zeros } from './define';

const { Mixed } = Schema.Types;

const TeamRefSchema = new Schema({ id: { type: Number, required: true }, name: { type: LocalizedTextSchema, required: true }, regionId: Number }, { _id: false });
const NamedRefSchema = new Schema({ id: { type: Number, required: true }, name: { type: LocalizedTextSchema, required: true } }, { _id: false });

/**
 * An event: what changes rarely (teams, start, status, score and stats, lineups, closing line),
 * stored denormalized (team, competition and region names copied in every locale at ingest).
 * Its prices (eventPrices.ts), live data (liveEventData.ts), views and settlement marker have
 * documents of their own, each with one writer: see docs/architecture.md. The document is
 * declared once, as StoredEvent (shared/domain/ingest/stored.ts): this schema stores exactly it.
 */
const EventSchema = declaredSchema<StoredEvent>()(
  new Schema(
    {
      _id: { type: String, required: true },
      ...required({ sportId: Number, competitionId: Number, regionId: Number }),
      ...required({ homeTeam: TeamRefSchema, awayTeam: TeamRefSchema, competition: NamedRefSchema, region: NamedRefSchema, startDateTime: Date }),
      status: { type: String, enum: EVENT_STATUSES, required: true },
      /** Abandoned events complete with the void flag: every bet pushes. */
      voided: { type: Boolean, default: false },
      /** startedAt: when the event went live (postponed-after-start settles; never-started does not). */
      ...nullable({ startedAt: Date, endedAt: Date }),
      /** priority: popularity of the competition, for `prioritize` on the live list. */
      ...zeros('priority'),
      /** Final or current counts (the contract's Stats). */
      stats: { type: new Schema({ ...StatsFields, phase: String }, { _id: false }), default: null },
      /** Bumped when final stats change after completion: settlement re-grades on a new version. */
      resultVersion: { type: Number, default: 0 },
      /**
       * Set by an operator's result correction: the final result is the operator's from then on and
       * later feed results for the event are ignored (a provider still sending its wrong count must
       * not undo the correction). { at, resultVersion, fields }.
       */
      resultOverride: { type: Mixed, default: null },
      dataSource: { type: String, required: true },
      providerEventId: { type: String },
      /**
       * At kickoff, each market's last pre-match price per book (shared/domain/ingest/closing.ts): what
       * settlement grades recommendations against (closingOdds, clv). Null until the event starts.
       */
      closingLine: { type: Schema.Types.Mixed, default: null },
      /** Announced lineups { home: string[], away: string[] } when the provider has them. */
      lineups: { type: Mixed, default: null },
    },
    { collection: 'events', timestamps: true, minimize: false },
  ),
);

export type EventDoc = StoredEvent;
// No read filters on a team (homeTeam.id, awayTeam.id): no index for them.
export const Event = defineModel('Event', EventSchema, [
  [
    { status: 1, startDateTime: 1 },
    {
      read: 'events.ts:findLiveEventIdsOfProvider, countEventsMatching (status)',
      gin: { status: "events.ts:findLiveEventIdsOfProvider (status 'live', every ingest poll); events.ts:countEventsMatching (status)" },
    },
  ],
  [
    { competitionId: 1, startDateTime: 1 },
    {
      read: 'events.ts:findCompetitionCopyInAnEvent; catalog counts per competition',
      gin: { competitionId: 'events.ts:findCompetitionCopyInAnEvent' },
    },
  ],
  [
    { sportId: 1, status: 1, startDateTime: 1 },
    {
      read: "events.ts:findCompletedEventScoresOfSport (the refit: sportId, status 'completed', start range); eventForms.ts:findEventMarketsOfSportSince",
      gin: {
        sportId: 'events.ts:findCompletedEventScoresOfSport',
      },
    },
  ],
]);
