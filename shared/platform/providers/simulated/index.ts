import type { CallContext, FeedEvent, FeedLiveStats, FeedOdds, FeedResult, OddsProvider } from '../../../domain/providers/types';
import { feedEvent, liveStats, odds, result } from './feed';
import { BOOKMAKERS } from './pricing';
import { scenarioAt, type Scenario, type ScenarioEvaluation } from './scenario';
import { buildFixture, fixtureEnd, Schedule, type SimFixture } from './schedule';
import { COMPETITIONS, type SimCompetition } from './world';
import { epochDay } from '../../../domain/days';

export interface SimulatedOptions {
  seed: number;
  /** Real instant (ms) -> simulated instant (ms); default: real time. */
  clock?: (realMs: number) => number;
  /** Serve exactly this scenario instead of the generated world. */
  scenario?: Scenario;
  /** How far ahead the schedule is published (default 3 days). */
  horizonMs?: number;
  /** How long ended events stay in the feed (default 6 hours). */
  lookbackMs?: number;
  /** Multiplier on fixtures per competition and day (default 1). */
  density?: number;
  /** Restrict the world (tests). */
  competitions?: readonly SimCompetition[];
  /** Only these events (tests that follow a few fixtures through their lifecycle). */
  eventIds?: ReadonlySet<string>;
  /** Extra fixtures all live at `syntheticAnchorMs` (benchmarks). */
  syntheticLive?: number;
  syntheticAnchorMs?: number;
  /** Extra fixtures live at every instant (load benchmarks at any clock speed): see rollingAt. */
  rollingLive?: number;
  /** Upcoming matches each rolling slot shows ahead (default 1): more events per live one. */
  rollingAhead?: number;
}

const HOUR = 3_600_000;
/** Kickoff spacing within one rolling slot: about one match length, so each slot is nearly always live. */
const ROLLING_PERIOD_MS = 2 * HOUR;

/**
 * The embedded provider: a seeded, time-accelerated world of all eight sports, or a scenario
 * replayed exactly. Every answer is a pure function of (seed or scenario, simulated time), so
 * two workers polling the same slot produce the same documents.
 */
export class SimulatedProvider implements OddsProvider {
  readonly name = 'simulated';
  readonly bookmakers: readonly string[];
  private readonly schedule?: Schedule;
  private readonly synthetic: SimFixture[] = [];
  private memo?: { t: number; fixtures: Map<string, SimFixture>; scenario: Map<string, ScenarioEvaluation> };
  private readonly rollingBuilt = new Map<string, SimFixture>();

  constructor(private readonly opts: SimulatedOptions) {
    this.bookmakers = opts.scenario ? [...(opts.scenario.bookmakers ?? [])] : BOOKMAKERS.map((b) => b.key);
    if (!opts.scenario) {
      this.schedule = new Schedule(opts.seed, {
        horizonMs: opts.horizonMs ?? 72 * HOUR,
        lookbackMs: opts.lookbackMs ?? 6 * HOUR,
        density: opts.density ?? 1,
        competitions: opts.competitions,
      });
      const anchor = opts.syntheticAnchorMs ?? 0;
      for (let i = 0; i < (opts.syntheticLive ?? 0); i++) {
        const c = COMPETITIONS[i % COMPETITIONS.length];
        const a = c.teams[(2 * Math.floor(i / COMPETITIONS.length)) % c.teams.length];
        const b = c.teams[(2 * Math.floor(i / COMPETITIONS.length) + 1) % c.teams.length];
        const f = buildFixture(opts.seed, c, epochDay(anchor), i, a, b, anchor - (5 + (i % 40)) * 60_000);
        this.synthetic.push({ ...f, eventId: `8${String(opts.seed % 1000).padStart(3, '0')}${String(i).padStart(9, '0')}`, end: 'completed' });
      }
    }
  }

  /**
   * `rollingLive` slots of back-to-back matches, their kickoffs staggered evenly over the period:
   * at any instant about that many are live, whatever the clock speed. Each slot shows its next
   * `rollingAhead` matches (upcoming) and its ended ones for the lookback, as the schedule does, so they are
   * analysed, go live, complete and settle like any other. Pure in (seed, t).
   */
  private rollingAt(t: number): SimFixture[] {
    const n = this.opts.rollingLive ?? 0;
    const lookback = this.opts.lookbackMs ?? 6 * HOUR;
    const out: SimFixture[] = [];
    if (this.rollingBuilt.size > (8 + (this.opts.rollingAhead ?? 1)) * n) this.rollingBuilt.clear();
    for (let i = 0; i < n; i++) {
      const phase = Math.floor((i * ROLLING_PERIOD_MS) / n);
      const cycle = Math.floor((t - phase) / ROLLING_PERIOD_MS);
      for (let k = cycle - Math.ceil(lookback / ROLLING_PERIOD_MS) - 1; k <= cycle + (this.opts.rollingAhead ?? 1); k++) {
        const f = this.rollingFixture(i, k, k * ROLLING_PERIOD_MS + phase);
        if (fixtureEnd(f) + lookback >= t) out.push(f);
      }
    }
    return out;
  }

  private rollingFixture(slot: number, cycle: number, start: number): SimFixture {
    const seed = this.opts.seed;
    const eventId = `7${String(seed % 1000).padStart(3, '0')}${String(slot).padStart(5, '0')}${String(((cycle % 1e6) + 1e6) % 1e6).padStart(6, '0')}`;
    let f = this.rollingBuilt.get(eventId);
    if (!f) {
      const c = COMPETITIONS[slot % COMPETITIONS.length];
      const pair = (2 * (Math.floor(slot / COMPETITIONS.length) + cycle)) % c.teams.length;
      const a = c.teams[(pair + c.teams.length) % c.teams.length];
      const b = c.teams[(pair + 1 + c.teams.length) % c.teams.length];
      f = { ...buildFixture(seed, c, epochDay(start), slot, a, b, start), eventId };
      this.rollingBuilt.set(eventId, f);
    }
    return f;
  }

  feedTime(at: Date): Date {
    return new Date(this.opts.clock ? this.opts.clock(at.getTime()) : at.getTime());
  }

  private at(ctx: CallContext) {
    const t = this.feedTime(ctx.at).getTime();
    if (this.memo?.t !== t) {
      const fixtures = new Map<string, SimFixture>();
      const scenario = new Map<string, ScenarioEvaluation>();
      if (this.opts.scenario) {
        for (const ev of scenarioAt(this.opts.scenario, t)) scenario.set(ev.event.eventId, ev);
      } else {
        for (const f of [...this.schedule!.at(t), ...this.synthetic, ...this.rollingAt(t)]) {
          if (!this.opts.eventIds || this.opts.eventIds.has(f.eventId)) fixtures.set(f.eventId, f);
        }
      }
      this.memo = { t, fixtures, scenario };
    }
    return this.memo;
  }

  /** Fixtures the generated world shows at `at` (tests pick their subjects from it). */
  fixturesAt(at: Date): SimFixture[] {
    return [...this.at({ at, signal: new AbortController().signal }).fixtures.values()];
  }

  async listEvents(ctx: CallContext): Promise<FeedEvent[]> {
    const m = this.at(ctx);
    if (this.opts.scenario) return [...m.scenario.values()].map((e) => e.event);
    return [...m.fixtures.values()].map((f) => feedEvent(this.opts.seed, f, m.t));
  }

  async fetchOdds(ctx: CallContext, events: FeedEvent[]): Promise<FeedOdds[]> {
    return this.each(ctx, events, { fixture: (f, t) => odds(this.opts.seed, f, t), scenario: (e) => e.odds });
  }

  async fetchLiveStats(ctx: CallContext, events: FeedEvent[]): Promise<FeedLiveStats[]> {
    return this.each(ctx, events, { fixture: (f, t) => liveStats(f, t), scenario: (e) => e.live });
  }

  async fetchResults(ctx: CallContext, events: FeedEvent[]): Promise<FeedResult[]> {
    return this.each(ctx, events, { fixture: (f, t) => result(f, t), scenario: (e) => e.result });
  }

  /** One answer per event the simulation knows: from its fixture, or from the scenario when one is loaded. */
  private each<T>(ctx: CallContext, events: FeedEvent[], from: { fixture: (f: SimFixture, t: number) => T | null; scenario: (e: ScenarioEvaluation) => T | null }): T[] {
    const m = this.at(ctx);
    const out: T[] = [];
    for (const e of events) {
      const evaluated = m.scenario.get(e.eventId);
      const fixture = m.fixtures.get(e.eventId);
      const v = this.opts.scenario ? (evaluated ? from.scenario(evaluated) : null) : fixture ? from.fixture(fixture, m.t) : null;
      if (v) out.push(v);
    }
    return out;
  }
}
