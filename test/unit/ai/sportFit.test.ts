import { expect } from 'chai';
import { buildPicks, pickId, type PickCandidate } from '../../../shared/domain/ai/picks';
import { mulberry32, sampleNormal, samplePoisson } from '../../../shared/domain/ai/random';
import { fitNormalRatings, fitSetRatings, type RatedGame } from '../../../shared/domain/ai/ratings';
import { fitCountModel, fitPoolWeight, fitSport, modelView, type BlendRow } from '../../../shared/domain/ai/sportFit';

const TEAMS = ['a', 'b', 'c', 'd', 'e', 'f'];

/** A double round robin repeated `rounds` times, one game per day. */
function schedule(rounds: number): { home: string; away: string; day: number }[] {
  const out: { home: string; away: string; day: number }[] = [];
  let day = 0;
  for (let r = 0; r < rounds; r++) for (const h of TEAMS) for (const a of TEAMS) if (h !== a) out.push({ home: h, away: a, day: day++ });
  return out;
}

describe('sport fits', () => {
  it('normal ratings recover margin strengths, home advantage and the residual spread', () => {
    const strength: Record<string, number> = { a: 6, b: 3, c: 0, d: -1, e: -3, f: -5 };
    const rng = mulberry32(1);
    const games: RatedGame[] = schedule(12).map((g) => {
      const margin = 3 + strength[g.home] - strength[g.away] + 12 * sampleNormal(rng);
      const total = 220 + 17 * sampleNormal(rng);
      return { ...g, homeScore: Math.round((total + margin) / 2), awayScore: Math.round((total - margin) / 2) };
    });
    const r = fitNormalRatings(games, { now: games.at(-1)!.day, xi: 0 });
    expect(r.homeAdvantage).to.be.closeTo(3, 1.5);
    const gap = r.strength[r.teams.indexOf('a')] - r.strength[r.teams.indexOf('f')];
    expect(gap).to.be.closeTo(11, 3);
    expect(r.marginSD).to.be.closeTo(12, 1.5);
    expect(r.meanTotal).to.be.closeTo(220, 2);
    const v = modelView({ family: 'normal', ...r }, 'a', 'f');
    expect(v.x[0]).to.be.closeTo(r.homeAdvantage + gap, 1e-9);
    expect(v.known).to.equal(true);
    expect(modelView({ family: 'normal', ...r }, 'a', 'zz').known).to.equal(false);
  });

  it('set ratings recover who wins sets', () => {
    const rating: Record<string, number> = { a: 1, b: 0.5, c: 0, d: 0, e: -0.5, f: -1 };
    const rng = mulberry32(2);
    const games: RatedGame[] = schedule(10).map((g) => {
      const p = 1 / (1 + Math.exp(-(0.1 + rating[g.home] - rating[g.away])));
      let h = 0;
      let a = 0;
      while (h < 2 && a < 2) rng() < p ? h++ : a++;
      return { ...g, homeScore: h, awayScore: a };
    });
    const r = fitSetRatings(games, { now: games.at(-1)!.day, xi: 0, ridge: 1 });
    const at = (t: string) => r.rating[r.teams.indexOf(t)];
    expect(at('a') - at('f')).to.be.closeTo(2, 0.6);
    expect(at('a')).to.be.greaterThan(at('c'));
    expect(r.ratingSE.every((s) => s > 0 && s < 1)).to.equal(true);
  });

  it('fitSport needs enough games, fits Dixon-Coles for soccer with corners and cards', () => {
    const rng = mulberry32(3);
    const games = schedule(4).map((g) => ({
      ...g,
      homeScore: samplePoisson(rng, 1.5),
      awayScore: samplePoisson(rng, 1.1),
      homeCorners: samplePoisson(rng, 5.5),
      awayCorners: samplePoisson(rng, 4.5),
      homeCards: samplePoisson(rng, 2),
      awayCards: samplePoisson(rng, 2.2),
    }));
    expect(fitSport(1, games.slice(0, 10), 200)).to.equal(null);
    const fit = fitSport(1, games, games.at(-1)!.day)!;
    expect(fit.params.family).to.equal('goals');
    if (fit.params.family !== 'goals') return;
    expect(fit.gamesUsed).to.equal(games.length);
    expect(fit.params.corners!.home).to.be.closeTo(5.5, 0.6);
    const v = modelView(fit.params, 'a', 'b');
    expect(Math.exp(v.x[0])).to.be.within(0.8, 2.5);
    expect(v.se.every((s) => s > 0)).to.equal(true);
    expect(fitCountModel([{ home: 1, away: 1 }])).to.equal(null);
  });

  it('the blend weight stays 0 below the minimum of completed events and finds the better forecaster', () => {
    const rng = mulberry32(4);
    const rows: BlendRow[] = [];
    for (let i = 0; i < 600; i++) {
      const truth = 0.25 + 0.5 * rng();
      const market = Math.min(0.95, Math.max(0.05, truth + 0.15 * (rng() - 0.5)));
      rows.push({ market: [market, 1 - market], model: [truth, 1 - truth], outcome: rng() < truth ? 0 : 1 });
    }
    expect(fitPoolWeight(rows.slice(0, 50)).weight).to.equal(0);
    const fit = fitPoolWeight(rows);
    expect(fit.weight).to.be.greaterThan(0.5);
    expect(fit.rps).to.be.below(fit.marketRps);
  });
});

describe('featured picks builder', () => {
  const event = (id: string, hour: number) => ({
    id,
    homeTeam: { id: 1, name: { en: `H${id}` } },
    awayTeam: { id: 2, name: { en: `A${id}` } },
    competition: { id: 7, name: { en: 'League' } },
    competitionId: 7,
    regionId: 3,
    status: 'upcoming',
    startDateTime: new Date(Date.UTC(2030, 0, 1, hour)),
  });
  const rec = (id: string, eventId: string, edge: number, confidence: 'High' | 'Medium' | 'Low', odds: number): PickCandidate['rec'] => ({
    _id: id,
    eventId,
    betItemId: `${id}-item`,
    betTypeSysname: 'SOCCER_MATCH_RESULT',
    code: '1',
    line: null,
    outcome: 'Home',
    bookmaker: 'book',
    odds,
    probability: (1 + edge / 100) / odds,
    edgePercentage: edge,
    kellyFraction: 0.01,
    confidence,
  });
  const candidates: PickCandidate[] = [
    { rec: rec('r1', 'e1', 6, 'High', 2.1), event: event('e1', 12) },
    { rec: rec('r1b', 'e1', 9, 'Low', 3.4), event: event('e1', 12) },
    { rec: rec('r2', 'e2', 4, 'Medium', 1.9), event: event('e2', 15) },
    { rec: rec('r3', 'e3', 3.5, 'Medium', 2.5), event: event('e3', 18) },
    { rec: rec('r4', 'e4', 2.2, 'Low', 2.0), event: event('e4', 20) },
  ];

  it('singles of the best event recommendations, then parlays of Medium-or-better legs from different events', () => {
    const picks = buildPicks(candidates);
    expect(picks.map((p) => p.pickType)).to.deep.equal(['single', 'single', 'single', 'parlay', 'parlay']);
    expect(picks[0].legs[0].recommendationId).to.equal('r1'); // High beats a larger Low edge
    expect(picks.map((p) => p.featuredOrder)).to.deep.equal([1, 2, 3, 4, 5]);
    const three = picks[4];
    expect(new Set(three.eventIds).size).to.equal(3);
    expect(three.totalOdds).to.be.closeTo(2.1 * 1.9 * 2.5, 1e-9);
    expect(three.confidence).to.equal('Medium');
    const p = three.legs.reduce((s, l) => s * candidates.find((c) => c.rec._id === l.recommendationId)!.rec.probability, 1);
    expect(three.edgePercentage).to.be.closeTo((p * three.totalOdds - 1) * 100, 1e-3);
    expect(three.event.id).to.equal('e1'); // the earliest leg is the main event
    expect(three.featuredDate).to.equal('2030-01-01');
  });

  it('ids come from the legs: rebuilding gives the same ids, and orders start after frozen picks', () => {
    const a = buildPicks(candidates);
    const b = buildPicks([...candidates].reverse(), 4);
    expect(b.map((p) => p._id).sort()).to.deep.equal(a.map((p) => p._id).sort());
    expect(b[0].featuredOrder).to.equal(4);
    expect(pickId(['x', 'y'])).to.equal(pickId(['y', 'x']));
  });
});
