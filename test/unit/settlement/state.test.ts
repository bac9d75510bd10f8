import { expect } from 'chai';
import { betDay, dayRange, settlementState, settlementStats, type SettlementState } from '../../../shared/domain/settlement/state';
import { EMPTY_STATS } from '../../../shared/domain/stats';

describe('settlement state (pure)', () => {
  const PENDING: SettlementState = { kind: 'pending' };
  const ended = (endState: 'completed' | 'postponed' | 'abandoned'): SettlementState => ({ kind: 'ended', endState });
  // Every status x started x voided: [status, started, voided, expected].
  const rows: [string, boolean, boolean, SettlementState][] = [
    ['upcoming', false, false, PENDING],
    ['upcoming', false, true, PENDING],
    ['upcoming', true, false, PENDING],
    ['upcoming', true, true, PENDING],
    ['live', false, false, PENDING],
    ['live', false, true, PENDING],
    ['live', true, false, PENDING],
    ['live', true, true, PENDING],
    // A completed event was played even when ingest missed startedAt.
    ['completed', true, false, ended('completed')],
    ['completed', false, false, ended('completed')],
    ['completed', true, true, ended('abandoned')],
    ['completed', false, true, ended('abandoned')],
    // Postponed after the start settles (push); before it, the event may still be played later.
    ['postponed', true, false, ended('postponed')],
    ['postponed', true, true, ended('postponed')],
    ['postponed', false, false, { kind: 'unplayed', final: false }],
    ['postponed', false, true, { kind: 'unplayed', final: false }],
    // Cancelled after the start is a stopped match (abandoned); before it, never played (final).
    ['cancelled', true, false, ended('abandoned')],
    ['cancelled', true, true, ended('abandoned')],
    ['cancelled', false, false, { kind: 'unplayed', final: true }],
    ['cancelled', false, true, { kind: 'unplayed', final: true }],
    ['something-new', true, false, PENDING],
  ];
  for (const [status, started, voided, expected] of rows) {
    it(`${status}, ${started ? 'started' : 'not started'}, ${voided ? 'voided' : 'not voided'} -> ${JSON.stringify(expected)}`, () => {
      expect(settlementState({ status, startedAt: started ? new Date('2024-05-01T15:00:00Z') : null, voided })).to.deep.equal(expected);
    });
  }

  it('startedAt undefined counts as not started, voided undefined as not voided', () => {
    expect(settlementState({ status: 'cancelled' })).to.deep.equal({ kind: 'unplayed', final: true });
    expect(settlementState({ status: 'completed' })).to.deep.equal(ended('completed'));
  });

  describe('settlementStats', () => {
    const led = { ...EMPTY_STATS, homeGoals: 2, awayGoals: null };
    const eventStats = { ...EMPTY_STATS, homeGoals: 2, awayGoals: 1 };
    it('LiveEventData wins, its nulls included (never mixed with Event.stats)', () => {
      expect(settlementStats(led, eventStats)).to.deep.equal({ stats: { ...EMPTY_STATS, homeGoals: 2, awayGoals: null }, source: 'liveEventData' });
    });
    it('without LiveEventData, Event.stats; extra fields are dropped', () => {
      expect(settlementStats(null, { ...eventStats, phase: 'FT' } as never)).to.deep.equal({ stats: eventStats, source: 'event.stats' });
    });
    it('with neither, every count is null', () => {
      expect(settlementStats(undefined, null)).to.deep.equal({ stats: EMPTY_STATS, source: 'none' });
    });
  });

  it('betDay is the UTC day of the start; dayRange spans it', () => {
    expect(betDay(new Date('2024-05-01T23:30:00-02:00'))).to.equal('2024-05-02');
    expect(dayRange('2024-05-02')).to.deep.equal({ $gte: new Date('2024-05-02T00:00:00Z'), $lt: new Date('2024-05-03T00:00:00Z') });
  });
});
