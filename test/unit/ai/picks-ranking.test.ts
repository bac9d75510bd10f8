import { expect } from 'chai';
import { bestPerEventRanked, buildPicks, eventsDrawnFrom, PICKS_POLICY, type PickCandidate } from '../../../shared/domain/ai/picks';
import type { Confidence } from '../../../shared/domain/ai/staking';

/**
 * A rebuild reads only the best-ranked events (eventsDrawnFrom): the day's picks drawn from them
 * are the picks of every candidate, whatever the mix of confidences, edges and events.
 */

const name = (en: string) => ({ en, es: en, pt: en });

function candidate(event: string, rec: string, confidence: Confidence, edge: number, hour: number): PickCandidate {
  return {
    rec: {
      _id: rec,
      eventId: event,
      betItemId: `${rec}-item`,
      betTypeSysname: 'SOCCER_MATCH_RESULT',
      code: '1',
      line: null,
      outcome: 'home',
      bookmaker: 'book',
      odds: 2 + edge / 100,
      probability: 0.5,
      edgePercentage: edge,
      kellyFraction: edge / 400,
      confidence,
    },
    event: {
      id: event,
      homeTeam: { id: 1, name: name(`${event} home`) },
      awayTeam: { id: 2, name: name(`${event} away`) },
      competition: { id: 7, name: name('League') },
      competitionId: 7,
      regionId: 3,
      status: 'upcoming',
      startDateTime: new Date(Date.UTC(2026, 10, 21, hour)),
    },
  };
}

/** A day of `events` events with up to three recommendations each, from a seed (a small LCG: the same table every run). */
function day(seed: number, events: number, confidences: readonly Confidence[]): PickCandidate[] {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: PickCandidate[] = [];
  for (let e = 0; e < events; e++) {
    const recs = 1 + Math.floor(next() * 3);
    for (let r = 0; r < recs; r++) out.push(candidate(`e${e}`, `r${e}-${r}`, confidences[Math.floor(next() * confidences.length)], Math.round(next() * 200) / 10, Math.floor(next() * 24)));
  }
  return out;
}

const drawn = (all: readonly PickCandidate[]) => {
  const top = new Set(
    bestPerEventRanked(all, (c) => c.event.id)
      .slice(0, eventsDrawnFrom())
      .map((c) => c.event.id),
  );
  return all.filter((c) => top.has(c.event.id));
};

describe('featured picks: the best-ranked events are all a day draws from (pure)', () => {
  it('eventsDrawnFrom covers the singles and the largest parlay', () => {
    expect(eventsDrawnFrom()).to.equal(Math.max(PICKS_POLICY.singles, ...PICKS_POLICY.parlaySizes));
    expect(eventsDrawnFrom({ singles: 1, parlaySizes: [2, 4] } as unknown as typeof PICKS_POLICY)).to.equal(4);
  });

  const cases: [string, number, number, Confidence[]][] = [
    ['no event', 1, 0, ['High']],
    ['one event', 2, 1, ['High', 'Low']],
    ['two events, Low only', 3, 2, ['Low']],
    ['five events, every confidence', 4, 5, ['High', 'Medium', 'Low']],
    ['forty events, mostly Low', 5, 40, ['Low', 'Low', 'Low', 'Medium']],
    ['forty events, one High in many', 6, 40, ['Low', 'Low', 'Low', 'Low', 'Low', 'Low', 'High']],
    ['two hundred events, every confidence', 7, 200, ['High', 'Medium', 'Low']],
    ['two hundred events, Medium and Low', 8, 200, ['Medium', 'Low']],
  ];
  for (const [title, seed, events, confidences] of cases) {
    it(`${title}: the picks of the best ${eventsDrawnFrom()} events are the picks of all`, () => {
      const all = day(seed, events, confidences);
      expect(buildPicks(drawn(all))).to.deep.equal(buildPicks(all));
    });
  }

  it('an event is ranked by its best recommendation; ties go by edge, Kelly stake, then id', () => {
    const ranked = bestPerEventRanked(
      [candidate('a', 'ra1', 'Low', 30, 1), candidate('a', 'ra2', 'Medium', 2, 1), candidate('b', 'rb1', 'Medium', 2, 2), candidate('c', 'rc1', 'High', 1, 3)],
      (c) => c.event.id,
    );
    expect(ranked.map((c) => c.rec._id)).to.deep.equal(['rc1', 'ra2', 'rb1']);
  });
});
