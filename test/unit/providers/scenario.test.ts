import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import { evaluateScenarioEvent, loadScenario, parseScenario, ScenarioError, type Scenario } from '../../../shared/platform/providers/simulated/scenario';

const DOCS = resolve(__dirname, '../../../docs/scenarios');

function base(): Scenario {
  return {
    name: 't',
    start: '2026-11-21T12:00:00Z',
    bookmakers: ['simbook-a'],
    events: [
      {
        id: '123',
        sport: 'soccer',
        competition: { name: 'Premier League', region: 'GB-ENG' },
        homeTeam: 'A',
        awayTeam: 'B',
        startOffsetMinutes: 0,
        markets: [
          { betTypeSysname: 'SOCCER_MATCH_RESULT', prices: { '1': 2, X: 3, '2': 4 } },
          { betTypeSysname: 'SOCCER_UNDER_OVER', line: 2.5, prices: { O: 1.9, U: 1.9 } },
        ],
        end: { state: 'completed' },
      },
    ],
  };
}

/** Applies a mutation to a fresh valid scenario. */
function mutate(fn: (s: any) => void): unknown {
  const s = base();
  fn(s);
  return s;
}

describe('scenario files', () => {
  describe('happy', () => {
    it('every example scenario in docs/scenarios validates', () => {
      const files = readdirSync(DOCS).filter((f) => f.endsWith('.json'));
      expect(files.length).to.be.at.least(2);
      for (const f of files) expect(() => loadScenario(join(DOCS, f)), f).to.not.throw();
    });

    it('accepts the minimal scenario', () => {
      expect(parseScenario(base()).events).to.have.length(1);
    });

    it('is replayed exactly: prices, incidents and final stats at the scripted minutes', () => {
      const s = loadScenario(join(DOCS, 'soccer-settlement-rules.json'));
      const e = s.events[0];
      const kickoff = Date.parse(s.start) + e.startOffsetMinutes * 60_000;
      const pre = evaluateScenarioEvent(s, e, kickoff - 40 * 60_000);
      expect(pre.event.status).to.equal('upcoming');
      expect(pre.odds!.markets[0].items.map((i) => i.price)).to.deep.equal([2.1, 3.4, 3.6]);
      const moved = evaluateScenarioEvent(s, e, kickoff - 10 * 60_000);
      expect(moved.odds!.markets[0].items.map((i) => i.price)).to.deep.equal([2.05, 3.45, 3.7]);
      const live = evaluateScenarioEvent(s, e, kickoff + 15 * 60_000);
      expect(live.event.status).to.equal('live');
      expect(live.live!.stats.homeGoals).to.equal(1);
      expect(live.live!.phaseSysname).to.equal('FIRST_HALF');
      expect(live.odds!.markets[0].items.map((i) => i.prices)).to.deep.equal([
        [1.57, 1.5],
        [4.1, 3.9],
        [6.2, null],
      ]);
      const ht = evaluateScenarioEvent(s, e, kickoff + 50 * 60_000);
      expect([ht.live!.phaseSysname, ht.live!.isInPlay, ht.live!.elapsedSeconds]).to.deep.equal(['HALF_TIME', false, 45 * 60]);
      const done = evaluateScenarioEvent(s, e, kickoff + 106 * 60_000);
      expect(done.event.status).to.equal('completed');
      expect(done.result!.stats).to.deep.include({ homeGoals: 2, awayGoals: 1, homeCorners: 6, awayRedCards: 1 });
    });
  });

  describe('error: an invalid file is rejected naming the bad field', () => {
    const cases: [string, (s: any) => void, RegExp][] = [
      ['missing start', (s) => delete s.start, /\/start is required/],
      ['bad start', (s) => (s.start = 'tomorrow'), /\/start must match format "date-time"/],
      ['unknown top-level field', (s) => (s.extra = 1), /\/extra is not an allowed field/],
      ['unknown sport', (s) => (s.events[0].sport = 'cricket'), /\/events\/0\/sport must be one of soccer/],
      ['price below 1.01', (s) => (s.events[0].markets[0].prices['1'] = 0.9), /\/events\/0\/markets\/0\/prices\/1 must be >= 1.01/],
      ['non-numeric id', (s) => (s.events[0].id = 'abc'), /\/events\/0\/id must match pattern/],
      ['negative count', (s) => (s.events[0].final = { stats: { homeGoals: -1 } }), /\/events\/0\/final\/stats\/homeGoals must be >= 0/],
      ['bad end state', (s) => (s.events[0].end.state = 'cancelled'), /\/events\/0\/end\/state must be one of completed/],
      ['market not in the catalog', (s) => (s.events[0].markets[0].betTypeSysname = 'SOCCER_PENALTIES'), /\/events\/0\/markets\/0\/betTypeSysname SOCCER_PENALTIES is not a market of the catalog/],
      ['market of another sport', (s) => (s.events[0].markets[0].betTypeSysname = 'BASKETBALL_MONEYLINE'), /\/events\/0\/markets\/0\/betTypeSysname BASKETBALL_MONEYLINE is not a soccer market/],
      ['missing outcome price', (s) => delete s.events[0].markets[0].prices.X, /\/events\/0\/markets\/0\/prices\/X is required/],
      ['unknown outcome code', (s) => (s.events[0].markets[1].prices.Z = 2), /\/events\/0\/markets\/1\/prices\/Z is not an outcome of SOCCER_UNDER_OVER/],
      ['total without a line', (s) => delete s.events[0].markets[1].line, /\/events\/0\/markets\/1\/line is required/],
      ['line not in quarters', (s) => (s.events[0].markets[1].line = 2.3), /\/events\/0\/markets\/1\/line must be multiple of 0.25/],
      ['bookmaker not declared', (s) => (s.events[0].markets[0].bookPrices = { other: { '1': 2 } }), /\/events\/0\/markets\/0\/bookPrices\/other is not listed in \/bookmakers/],
      ['postponed without a minute', (s) => (s.events[0].end = { state: 'postponed' }), /\/events\/0\/end\/atMinute is required/],
      [
        'price change of an undeclared market',
        (s) => (s.events[0].priceChanges = [{ atMinute: 1, betTypeSysname: 'SOCCER_BOTH_TEAMS_TO_SCORE', prices: { Y: 2 } }]),
        /\/events\/0\/priceChanges\/0 changes a market the event does not declare/,
      ],
      ['duplicate event id', (s) => s.events.push({ ...s.events[0] }), /\/events\/1\/id duplicates event id 123/],
      ['timeline team unknown', (s) => (s.events[0].timeline = [{ minute: 3, type: 'goal', team: 'both' }]), /\/events\/0\/timeline\/0\/team must be one of home, away/],
    ];
    for (const [name, fn, message] of cases) {
      it(name, () => {
        let caught: unknown;
        try {
          parseScenario(mutate(fn), 'x.json');
        } catch (err) {
          caught = err;
        }
        expect(caught).to.be.instanceOf(ScenarioError);
        expect((caught as Error).message).to.match(/^invalid scenario x\.json: /);
        expect((caught as Error).message).to.match(message);
      });
    }

    it('a file that is not JSON names the file', () => {
      const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
      const path = join(dir, 'broken.json');
      writeFileSync(path, '{"name": ');
      expect(() => loadScenario(path)).to.throw(ScenarioError, /broken\.json: \/ cannot be read as JSON/);
    });
  });

  describe('happy: the examples reach every settlement rule of the API contract', () => {
    it('covers won/lost, line pushes, null goals, missing corners, cards and first half, postponed after start, never started, abandoned, corrections', () => {
      const all = readdirSync(DOCS).flatMap((f) => (JSON.parse(readFileSync(join(DOCS, f), 'utf8')) as Scenario).events);
      const stats = (e: (typeof all)[number]) => e.final?.stats ?? {};
      expect(
        all.some((e) => e.end.state === 'completed' && stats(e).homeGoals !== null && e.markets.length > 3),
        'won/lost',
      ).to.equal(true);
      expect(
        all.some((e) => stats(e).homeGoals === null),
        'null goals',
      ).to.equal(true);
      expect(
        all.some((e) => stats(e).homeCorners === null && stats(e).homeYellowCards === null),
        'missing corners and cards',
      ).to.equal(true);
      expect(
        all.some((e) => stats(e).homeGoalsFirstHalf === null),
        'missing first half',
      ).to.equal(true);
      expect(
        all.some((e) => e.end.state === 'postponed'),
        'postponed after start',
      ).to.equal(true);
      expect(
        all.some((e) => e.end.state === 'never-started'),
        'never started',
      ).to.equal(true);
      expect(
        all.some((e) => e.end.state === 'abandoned'),
        'abandoned',
      ).to.equal(true);
      expect(
        all.some((e) => (e.corrections ?? []).length > 0),
        'correction',
      ).to.equal(true);
      // Whole lines that the final lands on exactly: total push and handicap tie.
      const soccer = all.find((e) => e.id === '7100001')!;
      const f = stats(soccer);
      expect(f.homeGoals! + f.awayGoals!).to.equal(soccer.markets.find((m) => m.betTypeSysname === 'SOCCER_UNDER_OVER' && m.line === 3)!.line);
      expect(f.homeGoals! - 1 - f.awayGoals!).to.equal(0);
    });
  });
});
