import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { hasLine, marketType } from '../../../domain/markets/catalog';
import { sportByName, type SportId } from '../../../domain/sports';
import { EMPTY_STATS, type EventStats } from '../../../domain/stats';
import { hashInt } from '../../../domain/providers/ids';
import type { FeedEvent, FeedLiveStats, FeedMarket, FeedOdds, FeedResult, FeedStatus } from '../../../domain/providers/types';
import { breakSegment, clockAt, currentSegment, playSegment, type MatchScript, type Segment } from './match';
import { simSport } from './sports';
import { errorMessage } from '../../errorFields';

/**
 * Scenario files script the simulated provider exactly (docs/scenario.schema.json): every event,
 * price, incident, final stat and end state is what the file says, at the minute it says.
 */

export type ScenarioStats = Partial<EventStats>;

export interface ScenarioMarket {
  betTypeSysname: string;
  line?: number | null;
  prices?: Record<string, number>;
  bookPrices?: Record<string, Record<string, number | null>>;
}

export interface ScenarioPriceChange extends ScenarioMarket {
  atMinute: number;
  suspended?: boolean;
}

export interface ScenarioIncident {
  minute: number;
  type: 'goal' | 'score' | 'set' | 'corner' | 'yellow' | 'red';
  team: 'home' | 'away';
  points?: number;
}

export interface ScenarioEvent {
  id: string;
  sport: string;
  competition: { id?: number; name: string; region: string; priority?: number };
  homeTeam: string;
  awayTeam: string;
  startOffsetMinutes: number;
  durationMinutes?: number;
  markets: (ScenarioMarket & { prices: Record<string, number> })[];
  priceChanges?: ScenarioPriceChange[];
  timeline?: ScenarioIncident[];
  final?: { stats?: ScenarioStats; phase?: string };
  end: { state: 'completed' | 'postponed' | 'abandoned' | 'never-started'; atMinute?: number };
  corrections?: { atMinute: number; stats: ScenarioStats }[];
}

export interface Scenario {
  name: string;
  description?: string;
  start: string;
  bookmakers?: string[];
  events: ScenarioEvent[];
}

export class ScenarioError extends Error {
  override name = 'ScenarioError';
  constructor(
    readonly file: string,
    readonly pointer: string,
    detail: string,
  ) {
    super(`invalid scenario ${file}: ${pointer || '/'} ${detail}`);
  }
}

/** The schema ships in docs/ (run from source, or from a `dist/` build one level deeper). */
export const SCENARIO_SCHEMA_PATH =
  [resolve(__dirname, '../../../../docs/scenario.schema.json'), resolve(__dirname, '../../../../../docs/scenario.schema.json')].find((p) => existsSync(p)) ??
  resolve(__dirname, '../../../../docs/scenario.schema.json');

let validator: ValidateFunction | undefined;
function validate(): ValidateFunction {
  if (!validator) {
    const ajv = new Ajv({ allErrors: false, strict: false });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')));
  }
  return validator;
}

/** Whether `raw` passes the scenario schema (docs/scenario.schema.json): the shape `Scenario` declares. */
function isScenario(raw: unknown, check: ValidateFunction): raw is Scenario {
  return check(raw);
}

/** The JSON pointer of the offending field and what is wrong with it. */
function describe(err: ErrorObject | undefined): [string, string] {
  if (!err) return ['', 'is invalid'];
  const at = err.instancePath;
  const params: Record<string, unknown> = err.params;
  if (err.keyword === 'required') return [`${at}/${String(params.missingProperty)}`, 'is required'];
  if (err.keyword === 'additionalProperties') return [`${at}/${String(params.additionalProperty)}`, 'is not an allowed field'];
  if (err.keyword === 'enum' && Array.isArray(params.allowedValues)) return [at, `must be one of ${params.allowedValues.join(', ')}`];
  return [at, err.message ?? 'is invalid'];
}

/** The catalog's sport of a scenario event (the schema admits only the catalog's names). */
function sportOf(e: ScenarioEvent, file: string, at: string) {
  const sport = sportByName(e.sport);
  if (!sport) throw new ScenarioError(file, `${at}/sport`, `${e.sport} is not a sport of the catalog`);
  return sport;
}

/** Checks the file against the schema, then against the market catalog and itself. */
export function parseScenario(raw: unknown, file = '<scenario>'): Scenario {
  const check = validate();
  if (!isScenario(raw, check)) {
    const [pointer, detail] = describe(check.errors?.[0]);
    throw new ScenarioError(file, pointer, detail);
  }
  const s = raw;
  const books = new Set(s.bookmakers ?? []);
  const ids = new Set<string>();
  s.events.forEach((e, i) => {
    const at = `/events/${i}`;
    if (ids.has(e.id)) throw new ScenarioError(file, `${at}/id`, `duplicates event id ${e.id}`);
    ids.add(e.id);
    const sport = sportOf(e, file, at);
    const checkMarket = (m: ScenarioMarket, p: string, requirePrices: boolean) => {
      const type = marketType(m.betTypeSysname);
      if (!type) throw new ScenarioError(file, `${p}/betTypeSysname`, `${m.betTypeSysname} is not a market of the catalog`);
      if (type.sportId !== sport.id) throw new ScenarioError(file, `${p}/betTypeSysname`, `${m.betTypeSysname} is not a ${e.sport} market`);
      if (hasLine(type) && (m.line === undefined || m.line === null)) throw new ScenarioError(file, `${p}/line`, `is required for ${m.betTypeSysname}`);
      if (!hasLine(type) && m.line !== undefined && m.line !== null) throw new ScenarioError(file, `${p}/line`, `must be null for ${m.betTypeSysname}`);
      const codes = type.outcomes.map((o) => o.code);
      const checkCodes = (prices: Record<string, unknown>, pp: string, all: boolean) => {
        for (const code of Object.keys(prices)) {
          if (!codes.includes(code)) throw new ScenarioError(file, `${pp}/${code}`, `is not an outcome of ${m.betTypeSysname} (${codes.join(', ')})`);
        }
        if (all) {
          const missing = codes.find((c) => !(c in prices));
          if (missing) throw new ScenarioError(file, `${pp}/${missing}`, `is required (every outcome of ${m.betTypeSysname} is priced)`);
        }
      };
      if (m.prices) checkCodes(m.prices, `${p}/prices`, requirePrices);
      for (const [book, prices] of Object.entries(m.bookPrices ?? {})) {
        if (!books.has(book)) throw new ScenarioError(file, `${p}/bookPrices/${book}`, 'is not listed in /bookmakers');
        checkCodes(prices, `${p}/bookPrices/${book}`, false);
      }
      return type;
    };
    const keys = new Set<string>();
    e.markets.forEach((m, j) => {
      checkMarket(m, `${at}/markets/${j}`, true);
      const k = `${m.betTypeSysname}@${m.line ?? ''}`;
      if (keys.has(k)) throw new ScenarioError(file, `${at}/markets/${j}`, `repeats market ${k}`);
      keys.add(k);
    });
    (e.priceChanges ?? []).forEach((c, j) => {
      checkMarket(c, `${at}/priceChanges/${j}`, false);
      if (!keys.has(`${c.betTypeSysname}@${c.line ?? ''}`)) throw new ScenarioError(file, `${at}/priceChanges/${j}`, `changes a market the event does not declare in markets`);
    });
    const st = e.end.state;
    const endAt = e.end.atMinute;
    if ((st === 'postponed' || st === 'abandoned') && endAt === undefined) throw new ScenarioError(file, `${at}/end/atMinute`, `is required when the event is ${st}`);
    if ((st === 'postponed' || st === 'abandoned') && endAt !== undefined && endAt < 0)
      throw new ScenarioError(file, `${at}/end/atMinute`, 'must be >= 0: the match had started (use never-started otherwise)');
    if (st !== 'completed' && e.corrections?.length) throw new ScenarioError(file, `${at}/corrections`, 'only a completed event can be corrected');
  });
  return s;
}

export function loadScenario(path: string): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ScenarioError(path, '', `cannot be read as JSON: ${errorMessage(err)}`);
  }
  return parseScenario(raw, path);
}

// ---------------------------------------------------------------------------------------------
// Evaluation

const MIN = 60;

/** The phase layout of a sport when a scenario does not script it: regulation, no stoppage. */
export function phaseTemplate(sportId: SportId, durationMinutes?: number): MatchScript {
  const segs: Segment[] = [];
  let t = 0;
  const play = (phase: string, wall: number, clockStart: number, clock: number) => {
    const s = playSegment(phase, t, wall, clockStart, clock, segs.filter((x) => x.play).length);
    segs.push(s);
    t = s.end;
  };
  const pause = (phase: string, wall: number, clock: number) => {
    const s = breakSegment(phase, t, wall, clock * MIN);
    segs.push(s);
    t = s.end;
  };
  simSport(sportId).layout(play, pause);
  const end = durationMinutes !== undefined ? durationMinutes * MIN : t;
  // A scripted duration longer than the template extends the last play segment (stoppage, overtime).
  const lastPlay = [...segs].reverse().find((s) => s.play);
  if (!lastPlay) throw new Error(`sport ${sportId} lays out no play segment`);
  if (end > lastPlay.end) lastPlay.end = end;
  return { segments: segs.filter((s) => s.start < end), end, finalPhase: 'FULL_TIME', incidents: [] };
}

export interface ScenarioEvaluation {
  event: FeedEvent;
  odds: FeedOdds | null;
  live: FeedLiveStats | null;
  result: FeedResult | null;
}

function countsAt(e: ScenarioEvent, sportId: SportId, minute: number): EventStats {
  const s: EventStats = { ...EMPTY_STATS, homeGoals: 0, awayGoals: 0 };
  const sport = simSport(sportId);
  if (sport.incidentCounts) Object.assign(s, { homeCorners: 0, awayCorners: 0, homeYellowCards: 0, awayYellowCards: 0, homeRedCards: 0, awayRedCards: 0 });
  const halfEnd = sport.firstHalf?.scenarioMinute;
  if (halfEnd !== undefined) Object.assign(s, { homeGoalsFirstHalf: 0, awayGoalsFirstHalf: 0 });
  for (const inc of e.timeline ?? []) {
    if (inc.minute > minute) continue;
    const home = inc.team === 'home';
    const add = (k: keyof EventStats, n: number) => (s[k] = (s[k] ?? 0) + n);
    switch (inc.type) {
      case 'goal':
      case 'score':
      case 'set': {
        const n = inc.type === 'score' ? (inc.points ?? 1) : 1;
        add(home ? 'homeGoals' : 'awayGoals', n);
        if (halfEnd !== undefined && inc.minute < halfEnd) add(home ? 'homeGoalsFirstHalf' : 'awayGoalsFirstHalf', n);
        break;
      }
      case 'corner':
        add(home ? 'homeCorners' : 'awayCorners', 1);
        break;
      case 'yellow':
        add(home ? 'homeYellowCards' : 'awayYellowCards', 1);
        break;
      case 'red':
        add(home ? 'homeRedCards' : 'awayRedCards', 1);
        break;
    }
  }
  return s;
}

function withOverrides(base: EventStats, ...overrides: (ScenarioStats | undefined)[]): EventStats {
  const out = { ...base };
  for (const o of overrides) if (o) Object.assign(out, o);
  return out;
}

/** The default competition id of a scenario competition: derived from its name and region. */
function competitionIdOf(e: ScenarioEvent): number {
  return e.competition.id ?? hashInt(`scenario-competition|${e.sport}|${e.competition.region}|${e.competition.name}`, 100_000, 999_999_999);
}

/** Everything the scenario says about one event at simulated time `t`. */
export function evaluateScenarioEvent(s: Scenario, e: ScenarioEvent, t: number): ScenarioEvaluation {
  const sportId = sportOf(e, '<scenario>', `/events/${e.id}`).id;
  const kickoff = Date.parse(s.start) + e.startOffsetMinutes * 60_000;
  const minute = (t - kickoff) / 60_000;
  const template = phaseTemplate(sportId, e.durationMinutes);
  const endMinute = e.end.state === 'completed' ? (e.end.atMinute ?? template.end / MIN) : (e.end.atMinute ?? -60);

  let status: FeedStatus;
  let voided = false;
  let startedAt: Date | null = null;
  let endedAt: Date | null = null;
  if (e.end.state === 'never-started') {
    status = minute >= endMinute ? 'postponed' : 'upcoming';
  } else if (minute < 0) {
    status = 'upcoming';
  } else {
    startedAt = new Date(kickoff);
    if (minute >= endMinute) {
      endedAt = new Date(kickoff + endMinute * 60_000);
      status = e.end.state === 'postponed' ? 'postponed' : 'completed';
      voided = e.end.state === 'abandoned';
    } else status = 'live';
  }

  const event: FeedEvent = {
    eventId: e.id,
    providerEventId: e.id,
    sportId,
    competition: { id: competitionIdOf(e), name: e.competition.name, regionCode: e.competition.region, priority: e.competition.priority ?? 50 },
    homeTeam: { name: e.homeTeam, regionCode: e.competition.region },
    awayTeam: { name: e.awayTeam, regionCode: e.competition.region },
    startDateTime: new Date(kickoff),
    status,
    voided,
    startedAt,
    endedAt,
    lineups: null,
  };

  let odds: FeedOdds | null = null;
  if (status === 'upcoming' || status === 'live') {
    const bookmakers = s.bookmakers ?? [];
    const markets: FeedMarket[] = e.markets.map((m, j) => {
      const type = marketType(m.betTypeSysname);
      if (!type) throw new ScenarioError('<scenario>', `/events/${e.id}/markets/${j}/betTypeSysname`, `${m.betTypeSysname} is not a market of the catalog`);
      let prices = m.prices;
      let bookPrices = m.bookPrices ?? {};
      let suspended = false;
      for (const c of e.priceChanges ?? []) {
        if (c.atMinute > minute || c.betTypeSysname !== m.betTypeSysname || (c.line ?? null) !== (m.line ?? null)) continue;
        if (c.prices) prices = { ...prices, ...c.prices };
        if (c.bookPrices) bookPrices = { ...bookPrices, ...c.bookPrices };
        if (c.suspended !== undefined) suspended = c.suspended;
      }
      return {
        betTypeSysname: m.betTypeSysname,
        line: m.line ?? null,
        items: type.outcomes.map((o) => ({
          code: o.code,
          price: prices[o.code],
          prices: bookmakers.map((b) => bookPrices[b]?.[o.code] ?? null),
          suspended,
        })),
      };
    });
    odds = { eventId: e.id, at: new Date(t), bookmakers, markets };
  }

  let live: FeedLiveStats | null = null;
  if (status === 'live') {
    const wall = minute * MIN;
    const seg = currentSegment(template, wall) ?? template.segments[template.segments.length - 1];
    live = {
      eventId: e.id,
      stats: countsAt(e, sportId, minute),
      phaseSysname: seg.phase,
      elapsedSeconds: clockAt(template, wall),
      isLive: true,
      isInPlay: seg.play,
      referenceTime: new Date(t),
      // The match minute is the clock (elapsedSeconds): in the detail too, every poll would be a change.
      details: { scenario: s.name },
    };
  }

  let result: FeedResult | null = null;
  if (status === 'completed' || status === 'postponed') {
    const started = startedAt !== null;
    const corrections = (e.corrections ?? []).filter((c) => c.atMinute <= minute).map((c) => c.stats);
    const base = started ? countsAt(e, sportId, endMinute) : { ...EMPTY_STATS };
    const stats = withOverrides(base, started ? e.final?.stats : undefined, ...corrections);
    const phase = e.end.state === 'postponed' || e.end.state === 'never-started' ? 'POSTPONED' : e.end.state === 'abandoned' ? 'ABANDONED' : (e.final?.phase ?? 'FULL_TIME');
    result = { eventId: e.id, status: status === 'postponed' ? 'postponed' : 'completed', voided, stats, phaseSysname: phase, endedAt, details: { scenario: s.name } };
  }
  return { event, odds, live, result };
}

/** Scenario events still of interest at `t`: all of them (a scenario is small and exact). */
export function scenarioAt(s: Scenario, t: number): ScenarioEvaluation[] {
  return s.events.map((e) => evaluateScenarioEvent(s, e, t));
}
