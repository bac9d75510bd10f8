import { expect } from 'chai';
import { marketType } from '../../../shared/domain/markets/catalog';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { fixtureStatus, odds, result, trueProbabilities } from '../../../shared/platform/providers/simulated/feed';
import { liveModel, stateAt } from '../../../shared/platform/providers/simulated/models';
import { BOOKMAKERS } from '../../../shared/platform/providers/simulated/pricing';
import { fixtureEnd, fixturesOfDay, RATES, type SimFixture } from '../../../shared/platform/providers/simulated/schedule';
import { COMPETITIONS } from '../../../shared/platform/providers/simulated/world';
import { SPORTS } from '../../../shared/domain/sports';
import { result3, winner2 } from '../../../shared/platform/providers/simulated/dist';

const DAY = 86_400_000;
const AT = new Date('2026-11-21T15:00:00Z');
const signal = new AbortController().signal;

/** Many fixtures of one sport over many days (pure, no I/O). */
function fixturesOfSport(seed: number, sportId: number, days = 40): SimFixture[] {
  const first = Math.floor(AT.getTime() / DAY) - days;
  const out: SimFixture[] = [];
  for (let d = first; d < first + days; d++) for (const c of COMPETITIONS.filter((x) => x.sportId === sportId)) out.push(...fixturesOfDay(seed, c, d));
  return out;
}

describe('simulated provider', () => {
  describe('happy: a deterministic world', () => {
    it('returns identical feeds for the same seed and time, different ones for another seed', async () => {
      const a = new SimulatedProvider({ seed: 42 });
      const b = new SimulatedProvider({ seed: 42 });
      const c = new SimulatedProvider({ seed: 43 });
      const ea = await a.listEvents({ at: AT, signal });
      const eb = await b.listEvents({ at: AT, signal });
      expect(JSON.stringify(ea)).to.equal(JSON.stringify(eb));
      expect(JSON.stringify(await a.fetchOdds({ at: AT, signal }, ea))).to.equal(JSON.stringify(await b.fetchOdds({ at: AT, signal }, eb)));
      const ec = await c.listEvents({ at: AT, signal });
      expect(ec.map((e) => e.eventId)).to.not.deep.equal(ea.map((e) => e.eventId));
    });

    it('schedules all eight sports over the next days, in real regions', async () => {
      const events = await new SimulatedProvider({ seed: 42 }).listEvents({ at: AT, signal });
      const sports = new Set(events.map((e) => e.sportId));
      expect([...sports].sort()).to.deep.equal(SPORTS.map((s) => s.id));
      const ahead = events.filter((e) => e.startDateTime.getTime() > AT.getTime() + DAY);
      expect(ahead.length).to.be.greaterThan(50);
      const regions = new Set(events.map((e) => e.competition.regionCode));
      for (const r of ['GB-ENG', 'ES', 'US', 'BR', 'DE', 'JP']) expect(regions.has(r), r).to.equal(true);
    });

    it('keeps event and bet item ids stable across polls', async () => {
      const p = new SimulatedProvider({ seed: 42 });
      const later = new Date(AT.getTime() + 30_000);
      const e1 = await p.listEvents({ at: AT, signal });
      const e2 = await p.listEvents({ at: later, signal });
      const common = e1.filter((e) => e2.some((x) => x.eventId === e.eventId));
      expect(common.length).to.be.greaterThan(e1.length * 0.9);
      const o1 = await p.fetchOdds({ at: AT, signal }, common.slice(0, 20));
      const o2 = await p.fetchOdds({ at: later, signal }, common.slice(0, 20));
      expect(o1.map((o) => o.markets.map((m) => `${m.betTypeSysname}@${m.line}`))).to.deep.equal(o2.map((o) => o.markets.map((m) => `${m.betTypeSysname}@${m.line}`)));
    });

    it('keeps about SIM_ROLLING_LIVE extra events live at every instant, each with its matches ahead, and completes them', async () => {
      const p = new SimulatedProvider({ seed: 42, competitions: [], rollingLive: 40, rollingAhead: 3 });
      const seen = new Map<string, string[]>();
      for (let minutes = 0; minutes <= 240; minutes += 20) {
        const at = new Date(AT.getTime() + minutes * 60_000);
        const events = await p.listEvents({ at, signal });
        const live = events.filter((e) => e.status === 'live').length;
        expect(live, `live at +${minutes} min`).to.be.within(30, 50);
        expect(events.filter((e) => e.status === 'upcoming').length).to.be.within(3 * 40 - 5, 3 * 40 + 40);
        expect(new Set(events.map((e) => e.eventId)).size).to.equal(events.length);
        for (const e of events) seen.set(e.eventId, [...(seen.get(e.eventId) ?? []), e.status]);
      }
      const played = [...seen.values()].filter((s) => s[0] === 'upcoming' && s.includes('live') && s.includes('completed'));
      expect(played.length).to.be.greaterThan(30);
      const again = await new SimulatedProvider({ seed: 42, competitions: [], rollingLive: 40, rollingAhead: 3 }).listEvents({ at: AT, signal });
      expect(JSON.stringify(again)).to.equal(JSON.stringify(await p.listEvents({ at: AT, signal })));
    });
  });

  describe('happy: bookmakers', () => {
    it('quote every market with their own margin, and disagree with each other', () => {
      const fixtures = fixturesOfSport(42, 1, 3).filter((f) => f.end === 'completed');
      let dispersed = 0;
      for (const f of fixtures.slice(0, 20)) {
        const o = odds(42, f, f.start - 3_600_000)!;
        for (const m of o.markets) {
          const type = marketType(m.betTypeSysname)!;
          o.bookmakers.forEach((_, bi) => {
            const prices = m.items.map((it) => it.prices[bi]);
            if (prices.some((p) => p === null) || m.items.some((it) => it.suspended)) return;
            const overround = prices.reduce((sum: number, p) => sum + 1 / p!, 0) / (type.kind === 'doubleChance' ? 2 : 1);
            // Each book's margin sits above a fair book and not wildly above its stated overround.
            expect(overround, `${m.betTypeSysname} ${o.bookmakers[bi]}`).to.be.within(1.0, 1 + BOOKMAKERS[bi].margin + 0.12);
          });
          if (new Set(m.items[0].prices.filter((p) => p !== null)).size > 1) dispersed++;
        }
      }
      expect(dispersed).to.be.greaterThan(100);
    });

    it('leave out some markets and quotes (missing data), never the whole feed', () => {
      const f = fixturesOfSport(42, 1, 2).find((x) => x.end === 'completed')!;
      const o = odds(42, f, f.start - 3_600_000)!;
      const corners = o.markets.find((m) => m.betTypeSysname === 'SOCCER_CORNERS_UNDER_OVER')!;
      const d = o.bookmakers.indexOf('simbook-d');
      expect(corners.items.every((it) => it.prices[d] === null)).to.equal(true);
      expect(corners.items.every((it) => it.prices.some((p) => p !== null))).to.equal(true);
    });
  });

  describe('happy: true probabilities are calibrated against the simulated outcomes', () => {
    // The truth the books add noise to must be the truth the matches are played from.
    for (const sport of SPORTS) {
      it(`${sport.sysname}: pre-match home-win probability matches the home-win rate`, () => {
        const fixtures = fixturesOfSport(7, sport.id, sport.id === 1 || sport.id === 2 ? 40 : 80).filter((f) => f.end === 'completed' && !f.missing.goals);
        let expected = 0;
        let won = 0;
        for (const f of fixtures) {
          const probs = trueProbabilities(f, f.start - 60_000);
          const m = f.markets[0];
          expected += probs.get(`${f.eventId}-${m.sysname}-1`)!;
          const r = result(f, fixtureEnd(f) + 1)!;
          if (r.stats.homeGoals! > r.stats.awayGoals!) won++;
        }
        const n = fixtures.length;
        const se = Math.sqrt(((expected / n) * (1 - expected / n)) / n);
        expect(n).to.be.greaterThan(150);
        expect(Math.abs(won / n - expected / n), `n=${n}`).to.be.below(4 * se + 0.01);
      });
    }
  });

  describe('happy: odds move with the score and the clock', () => {
    it('soccer: a home goal shortens the home price; a lead late in the game is nearly certain', () => {
      const f = fixturesOfSport(42, 1, 10).find((x) => x.end === 'completed' && x.script.incidents.some((i) => i.kind === 'goal' && i.side === 0 && i.wall > 600))!;
      const goal = f.script.incidents.find((i) => i.kind === 'goal' && i.side === 0 && i.wall > 600)!;
      const before = stateAt(1, f.script, goal.wall - 1);
      const after = stateAt(1, f.script, goal.wall);
      const pBefore = result3(liveModel(f.params, f.script, before, goal.wall - 1).fullTime).win[0];
      const pAfter = result3(liveModel(f.params, f.script, after, goal.wall).fullTime).win[0];
      expect(after.home).to.equal(before.home + 1);
      expect(pAfter).to.be.greaterThan(pBefore);
      const end = f.script.end - 1;
      const late = stateAt(1, f.script, end);
      const pLate = result3(liveModel(f.params, f.script, late, end).fullTime).win;
      const leader = late.home > late.away ? 0 : late.home < late.away ? 2 : 1;
      expect(pLate[leader]).to.be.greaterThan(0.9);
    });

    it('tennis: winning a set moves the match price towards that player', () => {
      const f = fixturesOfSport(42, 3, 5).find((x) => x.end === 'completed' && x.script.sets![0].winner === 0)!;
      const firstSet = f.script.segments.find((s) => s.phase === 'SET_1')!;
      const at0 = 1;
      const at1 = firstSet.end + 1;
      const p0 = winner2(liveModel(f.params, f.script, stateAt(3, f.script, at0), at0).fullTime).win[0];
      const p1 = winner2(liveModel(f.params, f.script, stateAt(3, f.script, at1), at1).fullTime).win[0];
      expect(p1).to.be.greaterThan(p0);
    });

    it('suspends markets right after a soccer goal, then reopens them', () => {
      const f = fixturesOfSport(42, 1, 10).find((x) => x.end === 'completed' && x.script.incidents.some((i) => i.kind === 'goal' && i.wall > 600 && i.wall < 2000))!;
      const goal = f.script.incidents.find((i) => i.kind === 'goal' && i.wall > 600)!;
      const during = odds(42, f, f.start + (goal.wall + 10) * 1000)!;
      const later = odds(42, f, f.start + (goal.wall + 120) * 1000)!;
      expect(during.markets[0].items.every((it) => it.suspended)).to.equal(true);
      expect(later.markets[0].items.some((it) => !it.suspended)).to.equal(true);
    });
  });

  describe('happy: lifecycle and end states', () => {
    it('every fixture goes upcoming -> live -> an end state, scores never decrease', () => {
      for (const sport of SPORTS) {
        const fixtures = fixturesOfSport(11, sport.id, 3).slice(0, 10);
        for (const f of fixtures) {
          expect(fixtureStatus(f, f.start - 1000).status, `${f.eventId} before`).to.be.oneOf(['upcoming', 'postponed']);
          let home = 0;
          let away = 0;
          for (let w = 0; w <= f.script.end; w += 120) {
            const st = stateAt(sport.id, f.script, w);
            expect(st.home).to.be.at.least(home);
            expect(st.away).to.be.at.least(away);
            home = st.home;
            away = st.away;
          }
          const final = fixtureStatus(f, fixtureEnd(f) + 1000).status;
          expect(final).to.be.oneOf(['completed', 'postponed']);
        }
      }
    });

    it('produces every end state and missing-data case at small rates', () => {
      const all = SPORTS.flatMap((s) => fixturesOfSport(3, s.id, 30));
      const rate = (pred: (f: SimFixture) => boolean) => all.filter(pred).length / all.length;
      expect(all.length).to.be.greaterThan(2000);
      for (const [end, expected] of [
        ['never', RATES.never],
        ['postponed', RATES.postponed],
        ['abandoned', RATES.abandoned],
      ] as const) {
        expect(
          rate((f) => f.end === end),
          end,
        ).to.be.within(expected / 3, expected * 3);
      }
      expect(rate((f) => f.missing.corners)).to.be.above(0);
      expect(rate((f) => f.missing.cards)).to.be.above(0);
      expect(rate((f) => f.missing.firstHalf)).to.be.above(0);
      expect(rate((f) => f.missing.goals)).to.be.above(0);
      expect(rate((f) => f.end === 'completed')).to.be.above(0.95);
    });

    it('reports a never-started postponement without a start, an interruption with one', () => {
      const all = SPORTS.flatMap((s) => fixturesOfSport(3, s.id, 30));
      const never = all.find((f) => f.end === 'never')!;
      const r = result(never, never.start + 1000)!;
      expect(r.status).to.equal('postponed');
      expect(fixtureStatus(never, never.start + 1000).startedAt).to.equal(null);
      const postponed = all.find((f) => f.end === 'postponed')!;
      const s = fixtureStatus(postponed, fixtureEnd(postponed) + 1000);
      expect(s.status).to.equal('postponed');
      expect(s.startedAt).to.not.equal(null);
      const abandoned = all.find((f) => f.end === 'abandoned')!;
      const a = result(abandoned, fixtureEnd(abandoned) + 1000)!;
      expect([a.status, a.voided, a.phaseSysname]).to.deep.equal(['completed', true, 'ABANDONED']);
    });
  });
});
