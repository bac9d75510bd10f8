import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { renderPick, renderRecommendation } from '../../../api/render/ai';
import { aiComponents } from '../../../api/schemas/ai';
import { detailStats } from '../../../api/render/detail';
import { renderListEvent, renderLiveBetItem, renderLiveMarkets, renderTrendingEvent, type ListedEvent } from '../../../api/render/events';
import { isLocalizedText, localizeDeep } from '../../../api/render/localize';
import { LIST_MARKET_TYPES, lineFromId, marketCaption, outcomeCaption, renderMarket } from '../../../api/render/markets';
import { marketType } from '../../../shared/domain/markets/catalog';
import { eventDoc } from '../../helpers/fixtures';

describe('read forms (api/render)', () => {
  describe('market and outcome names', () => {
    // sysname, code, line, locale, outcome caption
    const rows: [string, string, number | null, 'en' | 'es' | 'pt', string][] = [
      ['SOCCER_MATCH_RESULT', '1', null, 'en', 'Home'],
      ['SOCCER_MATCH_RESULT', 'X', null, 'es', 'Empate'],
      ['SOCCER_MATCH_RESULT', '2', null, 'pt', 'Fora'],
      ['SOCCER_UNDER_OVER', 'O', 2.5, 'en', 'Over 2.5'],
      ['SOCCER_UNDER_OVER', 'U', 2.5, 'es', 'Menos de 2.5'],
      ['SOCCER_ASIAN_HANDICAP', '1', -0.5, 'en', 'Home -0.5'],
      ['SOCCER_ASIAN_HANDICAP', '2', -0.5, 'pt', 'Fora +0.5'],
      ['SOCCER_BOTH_TEAMS_TO_SCORE', 'Y', null, 'pt', 'Sim'],
      ['BASKETBALL_TOTAL_POINTS', 'O', 221.5, 'es', 'Más de 221.5'],
    ];
    for (const [sysname, code, line, locale, caption] of rows) {
      it(`${sysname} ${code}${line === null ? '' : ` @${line}`} in ${locale}: "${caption}"`, () => {
        expect(outcomeCaption(marketType(sysname), code, line, locale)).to.equal(caption);
      });
    }

    it('market names are localized, with the line when asked for', () => {
      expect(marketCaption('SOCCER_UNDER_OVER', 'es')).to.equal('Total de Goles Más/Menos');
      expect(marketCaption('SOCCER_UNDER_OVER', 'pt', 2.5, true)).to.equal('Total de Gols Mais/Menos 2.5');
      expect(marketCaption('SOCCER_ASIAN_HANDICAP', 'en', -0.25, true)).to.equal('Asian Handicap -0.25');
      expect(marketCaption('SOCCER_MATCH_RESULT', 'en', null, true)).to.equal('Match Result');
    });

    it('an unknown market keeps its source caption or its code', () => {
      expect(marketCaption('DARTS_180S', 'es', null, true, 'Total 180s')).to.equal('Total 180s');
      expect(outcomeCaption(marketType('DARTS_180S'), 'O', 3.5, 'es', { en: 'Over', es: 'Más' })).to.equal('Más');
      expect(outcomeCaption(undefined, 'O', null, 'en')).to.equal('O');
    });

    it('lines are read back from catalog market and bet item ids', () => {
      expect(lineFromId('123-SOCCER_UNDER_OVER@2.5')).to.equal(2.5);
      expect(lineFromId('123-SOCCER_ASIAN_HANDICAP@-0.25-1')).to.equal(-0.25);
      expect(lineFromId('123-SOCCER_MATCH_RESULT-1')).to.equal(null);
      expect(lineFromId(undefined)).to.equal(null);
    });

    it('a bet item carries caption, instanceCaption and two-decimal oddsText; the detail form adds ids', () => {
      const m = { id: '9-SOCCER_UNDER_OVER@2.5', betTypeSysname: 'SOCCER_UNDER_OVER', line: 2.5, betItems: [{ id: '9-SOCCER_UNDER_OVER@2.5-O', code: 'O', price: 1.9, isAvailable: false }] };
      expect(renderMarket(m, '9', 'en')).to.deep.equal({
        id: m.id,
        betTypeSysname: 'SOCCER_UNDER_OVER',
        caption: 'Total Goals Over/Under',
        line: 2.5,
        betItems: [{ id: '9-SOCCER_UNDER_OVER@2.5-O', code: 'O', caption: 'Over 2.5', instanceCaption: '2.5', price: 1.9, oddsText: '1.90', isAvailable: false }],
      });
      const detail = renderMarket(m, '9', 'en', { detail: true });
      expect(detail.eventId).to.equal('9');
      expect(detail.betItems[0].marketId).to.equal(m.id);
    });
  });

  describe('event forms', () => {
    const base = (status: 'upcoming' | 'live' | 'completed') => eventDoc({ id: '77', start: '2024-06-01T18:00:00Z', status }) as unknown as ListedEvent;

    it('list form: completed events carry the final stats object, upcoming and live none', () => {
      expect(renderListEvent(base('completed'), 'en').stats).to.deep.equal({
        homeGoals: 2,
        awayGoals: 1,
        homeCorners: 7,
        awayCorners: 3,
        homeYellowCards: 2,
        awayYellowCards: 3,
        phase: 'FT',
      });
      expect(renderListEvent(base('upcoming'), 'en')).to.not.have.property('stats');
      expect(renderListEvent(base('live'), 'en')).to.not.have.property('stats');
    });

    it('list form: a completed event without reported stats still has the object, counts null', () => {
      const e = { ...base('completed'), stats: null };
      expect(renderListEvent(e, 'en').stats).to.deep.equal({
        homeGoals: null,
        awayGoals: null,
        homeCorners: null,
        awayCorners: null,
        homeYellowCards: null,
        awayYellowCards: null,
        phase: null,
      });
    });

    it('list form: only the main markets; trending: only soccer match result and over/under', () => {
      const e = base('upcoming');
      const list = renderListEvent(e, 'en').markets.map((m) => m.betTypeSysname);
      expect([...new Set(list)]).to.deep.equal(['SOCCER_MATCH_RESULT', 'SOCCER_UNDER_OVER']);
      const trending = renderTrendingEvent(e, 'en');
      expect(Object.keys(trending)).to.deep.equal(['id', 'competitionId', 'startDateTime', 'status', 'views', 'sport', 'homeTeam', 'awayTeam', 'competition', 'region', 'markets']);
      expect(trending.sport).to.deep.equal({ name: 'Soccer' });
      const nba = eventDoc({ id: '78', start: '2024-06-01T18:00:00Z', competition: { _id: 20, regionId: 3, sportId: 2, priority: 95, name: { en: 'NBA' } } as never }) as unknown as ListedEvent;
      expect(renderTrendingEvent(nba, 'en').markets).to.deep.equal([]);
      expect(renderListEvent(nba, 'en').markets.map((m) => m.betTypeSysname)).to.deep.equal(['BASKETBALL_MONEYLINE', 'BASKETBALL_SPREAD', 'BASKETBALL_TOTAL_POINTS']);
      expect([...LIST_MARKET_TYPES]).to.include('HANDBALL_MATCH_RESULT');
    });

    it('list form: names in the requested locale, English where a translation is missing', () => {
      const e = { ...base('upcoming'), homeTeam: { id: 1, name: { en: 'Atlético Madrid', es: 'Atlético de Madrid' } }, awayTeam: { id: 2, name: { en: 'Sevilla' } } };
      const es = renderListEvent(e, 'es');
      expect(es.homeTeam.name).to.equal('Atlético de Madrid');
      expect(es.awayTeam.name).to.equal('Sevilla');
      expect(es.region.caption).to.equal('Inglaterra');
      expect(es.sport.name).to.equal('Fútbol');
      expect(renderListEvent(e, 'pt').homeTeam.name).to.equal('Atlético Madrid');
    });

    it('detail stats: null before kickoff, counts once started, null for a postponed event without data', () => {
      expect(detailStats(base('upcoming'))).to.equal(null);
      expect(detailStats(base('live'))).to.include({ homeGoals: 1, awayGoals: 0, phase: '2H' });
      expect(detailStats({ ...base('live'), stats: null })).to.include({ homeGoals: null });
      expect(detailStats({ ...base('upcoming'), status: 'postponed', stats: null })).to.equal(null);
    });

    it('live bet items: names from the catalog, timestamps as epoch-millisecond strings', () => {
      const item = renderLiveBetItem(
        { betItemId: '5-SOCCER_UNDER_OVER@2.5-O', marketSysname: 'SOCCER_UNDER_OVER', marketCaption: 'O/U', code: 'O', caption: 'Over', price: 2.3, timestamp: new Date(1717264800000) },
        'es',
      );
      expect(item).to.deep.equal({
        betItemId: '5-SOCCER_UNDER_OVER@2.5-O',
        marketSysname: 'SOCCER_UNDER_OVER',
        marketCaption: 'Total de Goles Más/Menos 2.5',
        code: 'O',
        caption: 'Más de 2.5',
        price: 2.3,
        priceChange: 0,
        isAvailable: true,
        timestamp: '1717264800000',
      });
    });

    it('live odds markets: display name and translated captions, missing priceChange is null', () => {
      const [m] = renderLiveMarkets([{ marketId: '5-SOCCER_UNDER_OVER@3.5', marketSysname: 'SOCCER_UNDER_OVER', marketCaption: 'Goals', betItems: [{ code: 'U', price: 1.3 }] }], 'pt');
      expect(m).to.deep.equal({
        marketId: '5-SOCCER_UNDER_OVER@3.5',
        marketSysname: 'SOCCER_UNDER_OVER',
        marketCaption: 'Goals',
        marketDisplayName: 'Total de Gols Mais/Menos 3.5',
        line: 3.5,
        betItems: [{ code: 'U', translatedCaption: 'Menos de 3.5', price: 1.3, priceChange: null, isAvailable: true }],
      });
    });
  });

  describe('AI documents', () => {
    it('localizeDeep serves every stored {en, es, pt} inside free-form documents in one locale', () => {
      const doc = { a: { en: 'Home', es: 'Local' }, list: [{ en: 'x', pt: 'y' }], at: new Date('2024-01-01T00:00:00Z'), n: 3, nested: { en: 'E', extra: 1 }, _id: 'gone' };
      expect(localizeDeep(doc, 'es')).to.deep.equal({ a: 'Local', list: ['x'], at: '2024-01-01T00:00:00.000Z', n: 3, nested: { en: 'E', extra: 1 } });
      expect(isLocalizedText({ en: 'a', fr: 'b' })).to.equal(false);
    });

    const storedRec = {
      _id: 'r1',
      eventId: '1',
      marketId: 'm',
      betItemId: 'b',
      betTypeSysname: 'SOCCER_UNDER_OVER',
      code: 'O',
      line: 2.5,
      outcome: 'Over 2.5',
      bookmaker: 'simulated',
      odds: 2,
      probability: 0.55,
      fairOdds: 1.82,
      confidence: 'High',
      edgePercentage: 5,
      kellyFraction: 0.02,
      rationale: [{ en: 'Because', es: 'Porque' }],
      eventStartAt: new Date('2030-08-10T14:00:00Z'),
      createdAt: new Date('2030-08-09T10:00:00Z'),
    };
    const leg = {
      recommendationId: 'r2',
      eventId: '7',
      betItemId: '7-SOCCER_MATCH_RESULT-1',
      market: 'SOCCER_MATCH_RESULT',
      outcome: 'Home',
      code: '1',
      bookmaker: 'b',
      odds: 1.8,
      edgePercentage: 4,
      confidence: 'Low' as const,
    };
    const storedPick = {
      _id: 'p',
      pickType: 'single' as const,
      legs: [leg],
      totalOdds: 1.8,
      edgePercentage: 4,
      confidence: 'Low' as const,
      kellyFraction: 0.01,
      featuredOrder: 1,
      featuredDate: '2030-08-10',
      startsAt: new Date('2030-08-10T14:00:00Z'),
      event: {
        id: '7',
        homeTeam: { id: 1, name: { en: 'Home FC', pt: 'Casa FC' } },
        awayTeam: { id: 2, name: { en: 'Away FC' } },
        startDateTime: '2030-08-10T14:00:00.000Z',
        competition: { caption: { en: 'Premier League' } },
        competitionId: 10,
        status: 'upcoming',
        league: { en: 'Premier League', pt: 'Premier League PT' },
      },
      matchSimulation: { iterations: 10, note: { en: 'Even', pt: 'Equilibrado' } },
    };
    const schemas = new Ajv({ strict: false, allErrors: true });
    addFormats(schemas);
    const check = (name: 'Recommendation' | 'Pick', body: unknown) => {
      const validate = schemas.compile({ $ref: `#/components/schemas/${name}`, components: { schemas: aiComponents } });
      expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
    };

    it('happy: a recommendation has every field of its one schema; outcome from the catalog when the AI wording is not stored; instants in UTC', () => {
      const rec = renderRecommendation(storedRec, 'es');
      expect(Object.keys(rec).sort()).to.deep.equal([...aiComponents.Recommendation.required].sort());
      expect(rec).to.include({ outcome: 'Más de 2.5', settled: false, result: null, actualReturn: null, eventStartAt: '2030-08-10T14:00:00.000Z', createdAt: '2030-08-09T10:00:00.000Z' });
      expect(rec.rationale).to.deep.equal(['Porque']);
      check('Recommendation', rec);
      const worded = renderRecommendation({ ...storedRec, outcomeLocalized: { en: 'Over 2.5', es: 'Más de 2,5', pt: 'Mais de 2,5' } }, 'pt');
      expect(worded.outcome).to.equal('Mais de 2,5');
    });

    it("happy: a pick's legs carry recommendationId, eventId and betItemId; the event is localized with commenceTime in the zone", () => {
      const pick = renderPick(storedPick, 'pt', 'America/Sao_Paulo');
      expect(pick.recommendations[0]).to.deep.equal({
        recommendationId: 'r2',
        eventId: '7',
        betItemId: '7-SOCCER_MATCH_RESULT-1',
        market: 'SOCCER_MATCH_RESULT',
        outcome: 'Casa',
        bookmaker: 'b',
        odds: 1.8,
        point: null,
        edgePercentage: 4,
        confidence: 'Low',
        result: null,
      });
      expect(pick.event).to.deep.equal({
        id: '7',
        homeTeam: { id: 1, name: 'Casa FC' },
        awayTeam: { id: 2, name: 'Away FC' },
        commenceTime: '2030-08-10T11:00:00.000-03:00',
        startDateTime: '2030-08-10T14:00:00.000Z',
        competition: { caption: 'Premier League' },
        competitionId: 10,
        status: 'upcoming',
        league: 'Premier League PT',
      });
      expect(pick).to.include({ startsAt: '2030-08-10T14:00:00.000Z', featuredDate: '2030-08-10', eventNews: null, analysisInsight: null });
      expect(pick.matchSimulation).to.deep.equal({ iterations: 10, note: 'Equilibrado' });
      expect(Object.keys(pick).sort()).to.deep.equal([...aiComponents.Pick.required].sort());
      check('Pick', pick);
      expect(renderPick(storedPick, 'en', 'UTC').event.commenceTime).to.equal('2030-08-10T14:00:00.000Z');
      const worded = renderPick({ ...storedPick, legs: [{ ...leg, outcomeLocalized: { en: 'Home FC', pt: 'Casa FC' } }] }, 'pt', 'UTC');
      expect(worded.recommendations[0].outcome).to.equal('Casa FC');
    });
  });
});
