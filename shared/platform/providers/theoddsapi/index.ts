import type { Logger } from 'pino';
import { EMPTY_STATS } from '../../../domain/stats';
import { getJson, ProviderHttpBodyError } from '../http';
import { isRecord } from '../../../domain/records';
import type { CallContext, FeedEvent, FeedLiveStats, FeedOdds, FeedResult, OddsProvider } from '../../../domain/providers/types';
import { QuotaExhaustedError } from '../../../domain/providers/types';
import { competitionOf, eventIdOf, oddsOf, PROVIDER, scoreOf, sportIdOf, type ApiOddsEvent, type ApiScoreEvent, type ApiSport } from './mapping';

export interface TheOddsApiOptions {
  baseUrl: string;
  apiKey: string;
  /** Sport keys to poll; `all` = every active sport we carry. */
  sports: string[];
  regions: string[];
  /** Requests kept in reserve: polling stops when the remaining quota would go below it. */
  quotaReserve: number;
  log?: Pick<Logger, 'info' | 'warn' | 'debug'>;
}

export interface QuotaState {
  remaining: number | null;
  used: number | null;
  last: number | null;
  at: Date | null;
}

const MARKETS = ['h2h', 'spreads', 'totals'];
/** While the quota is spent, only the free /sports endpoint is asked, at most this often. */
const QUOTA_RECHECK_MS = 60 * 60 * 1000;
const SPORTS_TTL_MS = 60 * 60 * 1000;

interface PollData {
  at: number;
  events: Map<string, FeedEvent>;
  odds: Map<string, FeedOdds>;
  scores: Map<string, ApiScoreEvent>;
}

/**
 * The Odds API v4: /sports (free), /sports/{sport}/odds (h2h, spreads, totals; costs markets x
 * regions), /sports/{sport}/scores?daysFrom=1 (costs 2). Everything is fetched by listEvents;
 * the other calls read that poll's answers. Quota headers are logged and respected: a poll that
 * would spend into the reserve is cut to what fits, and an exhausted quota stops polling (only
 * the free endpoint is asked, hourly) until it is renewed.
 */
export class TheOddsApiProvider implements OddsProvider {
  readonly name = PROVIDER;
  private readonly books = new Set<string>();
  readonly quota: QuotaState = { remaining: null, used: null, last: null, at: null };
  private sports?: { at: number; list: ApiSport[] };
  private exhaustedAt = 0;
  private data?: PollData;

  constructor(private readonly opts: TheOddsApiOptions) {}

  get bookmakers(): readonly string[] {
    return [...this.books];
  }

  private url(path: string, params: Record<string, string> = {}): URL {
    const u = new URL(path, this.opts.baseUrl.endsWith('/') ? this.opts.baseUrl : `${this.opts.baseUrl}/`);
    u.searchParams.set('apiKey', this.opts.apiKey);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u;
  }

  private readQuota(headers: Headers): void {
    const num = (h: string) => {
      const v = headers.get(h);
      return v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);
    };
    const remaining = num('x-requests-remaining');
    if (remaining === null) return;
    this.quota.remaining = remaining;
    this.quota.used = num('x-requests-used');
    this.quota.last = num('x-requests-last');
    this.quota.at = new Date();
    this.opts.log?.debug({ provider: PROVIDER, quota: { remaining, used: this.quota.used, last: this.quota.last } }, 'the odds api quota');
  }

  private async get<T>(path: string, params: Record<string, string>, signal: AbortSignal): Promise<T> {
    try {
      const res = await getJson<T>(this.url(path, params), signal);
      this.readQuota(res.headers);
      return res.body;
    } catch (err) {
      if (err instanceof ProviderHttpBodyError) {
        const code = isRecord(err.body) ? err.body.error_code : undefined;
        if (code === 'OUT_OF_USAGE_CREDITS') {
          this.quota.remaining = 0;
          this.exhaustedAt = Date.now();
          throw new QuotaExhaustedError(`${PROVIDER}: usage quota exhausted`);
        }
      }
      throw err;
    }
  }

  private spendable(): number {
    return this.quota.remaining === null ? Infinity : this.quota.remaining - this.opts.quotaReserve;
  }

  private async sportList(signal: AbortSignal): Promise<ApiSport[]> {
    if (!this.sports || Date.now() - this.sports.at > SPORTS_TTL_MS) {
      this.sports = { at: Date.now(), list: await this.get<ApiSport[]>('v4/sports', {}, signal) };
    }
    return this.sports.list;
  }

  async listEvents(ctx: CallContext): Promise<FeedEvent[]> {
    if (this.spendable() <= 0) {
      if (Date.now() - this.exhaustedAt < QUOTA_RECHECK_MS) throw new QuotaExhaustedError(`${PROVIDER}: quota exhausted (${this.quota.remaining} left, reserve ${this.opts.quotaReserve})`);
      // The free endpoint refreshes the quota headers: a renewed plan resumes polling.
      this.sports = undefined;
      await this.sportList(ctx.signal);
      if (this.spendable() <= 0) {
        this.exhaustedAt = Date.now();
        throw new QuotaExhaustedError(`${PROVIDER}: quota exhausted (${this.quota.remaining} left, reserve ${this.opts.quotaReserve})`);
      }
    }
    const sports = await this.sportList(ctx.signal);
    // Only the sports we carry, each with our id for it.
    const carried = (s: ApiSport) => {
      const sportId = sportIdOf(s.key, s.group);
      return sportId === undefined ? [] : [{ sport: s, sportId }];
    };
    const wanted = this.opts.sports.includes('all')
      ? sports.filter((s) => s.active && !s.has_outrights).flatMap(carried)
      : this.opts.sports.flatMap((k) => {
          const s = sports.find((x) => x.key === k);
          return s?.active ? carried(s) : [];
        });
    const perSport = MARKETS.length * this.opts.regions.length + 2;
    const data: PollData = { at: ctx.at.getTime(), events: new Map(), odds: new Map(), scores: new Map() };
    let polled = 0;
    for (const { sport, sportId } of wanted) {
      if (this.spendable() < perSport) {
        this.opts.log?.warn({ provider: PROVIDER, remaining: this.quota.remaining, reserve: this.opts.quotaReserve, skipped: wanted.length - polled }, 'quota too low for every sport: poll cut short');
        if (polled === 0) {
          this.exhaustedAt = Date.now();
          throw new QuotaExhaustedError(`${PROVIDER}: quota exhausted (${this.quota.remaining} left, reserve ${this.opts.quotaReserve})`);
        }
        break;
      }
      const competition = competitionOf(sport.key, sport.title);
      const oddsList = await this.get<ApiOddsEvent[]>(
        `v4/sports/${encodeURIComponent(sport.key)}/odds`,
        { regions: this.opts.regions.join(','), markets: MARKETS.join(','), oddsFormat: 'decimal', dateFormat: 'iso' },
        ctx.signal,
      );
      const scores = await this.get<ApiScoreEvent[]>(`v4/sports/${encodeURIComponent(sport.key)}/scores`, { daysFrom: '1', dateFormat: 'iso' }, ctx.signal);
      polled++;
      const base = (id: string, commence: string, home: string, away: string): FeedEvent => ({
        eventId: eventIdOf(id),
        providerEventId: id,
        sportId,
        competition,
        homeTeam: { name: home, regionCode: competition.regionCode },
        awayTeam: { name: away, regionCode: competition.regionCode },
        startDateTime: new Date(commence),
        status: Date.parse(commence) <= ctx.at.getTime() ? 'live' : 'upcoming',
        voided: false,
        startedAt: Date.parse(commence) <= ctx.at.getTime() ? new Date(commence) : null,
        endedAt: null,
        lineups: null,
      });
      for (const ev of oddsList) {
        const fe = base(ev.id, ev.commence_time, ev.home_team, ev.away_team);
        data.events.set(fe.eventId, fe);
        const odds = oddsOf(sportId, ev);
        odds.bookmakers.forEach((b) => this.books.add(b));
        data.odds.set(fe.eventId, odds);
      }
      for (const sc of scores) {
        const id = eventIdOf(sc.id);
        data.scores.set(id, sc);
        const fe = data.events.get(id) ?? base(sc.id, sc.commence_time, sc.home_team, sc.away_team);
        if (sc.completed) {
          fe.status = 'completed';
          fe.startedAt = new Date(sc.commence_time);
          fe.endedAt = sc.last_update ? new Date(sc.last_update) : null;
        } else if (sc.scores) {
          fe.status = 'live';
          fe.startedAt = new Date(sc.commence_time);
        }
        data.events.set(id, fe);
      }
    }
    this.opts.log?.info(
      { provider: PROVIDER, sports: polled, events: data.events.size, quota: { remaining: this.quota.remaining, used: this.quota.used, last: this.quota.last } },
      'the odds api polled',
    );
    this.data = data;
    return [...data.events.values()];
  }

  private pollData(ctx: CallContext): PollData {
    if (!this.data || this.data.at !== ctx.at.getTime()) throw new Error(`${PROVIDER}: listEvents must run first in a poll`);
    return this.data;
  }

  async fetchOdds(ctx: CallContext, events: FeedEvent[]): Promise<FeedOdds[]> {
    const d = this.pollData(ctx);
    return events.map((e) => d.odds.get(e.eventId)).filter((o): o is FeedOdds => Boolean(o));
  }

  async fetchLiveStats(ctx: CallContext, events: FeedEvent[]): Promise<FeedLiveStats[]> {
    const d = this.pollData(ctx);
    const out: FeedLiveStats[] = [];
    for (const e of events) {
      const sc = d.scores.get(e.eventId);
      if (e.status !== 'live') continue;
      const { home, away } = sc ? scoreOf(sc) : { home: null, away: null };
      out.push({
        eventId: e.eventId,
        stats: { ...EMPTY_STATS, homeGoals: home, awayGoals: away },
        phaseSysname: 'IN_PROGRESS',
        // The API has no game clock: wall seconds since the scheduled start.
        elapsedSeconds: Math.max(0, Math.floor((ctx.at.getTime() - e.startDateTime.getTime()) / 1000)),
        isLive: true,
        isInPlay: true,
        referenceTime: sc?.last_update ? new Date(sc.last_update) : ctx.at,
        details: { source: PROVIDER, scores: sc?.scores ?? null },
      });
    }
    return out;
  }

  async fetchResults(ctx: CallContext, events: FeedEvent[]): Promise<FeedResult[]> {
    const d = this.pollData(ctx);
    const out: FeedResult[] = [];
    for (const e of events) {
      const sc = d.scores.get(e.eventId);
      if (!sc?.completed) continue;
      const { home, away } = scoreOf(sc);
      out.push({
        eventId: e.eventId,
        status: 'completed',
        voided: false,
        stats: { ...EMPTY_STATS, homeGoals: home, awayGoals: away },
        phaseSysname: 'FULL_TIME',
        endedAt: e.endedAt,
        details: { source: PROVIDER, scores: sc.scores },
      });
    }
    return out;
  }
}
