import { expect } from 'chai';
import { bodyAgreesWithRow, bodyFieldsOf, bodyHash, parseBody, storedBodyFields } from '../../../shared/domain/listing/bodies';

const START = new Date('2026-11-26T18:00:00Z');
const name = (en: string) => ({ en, es: en, pt: en });
const EVENT = {
  _id: '7',
  sportId: 1,
  competitionId: 10,
  regionId: 2,
  homeTeam: { id: 1, name: name('Home') },
  awayTeam: { id: 2, name: name('Away') },
  competition: { id: 10, name: name('League') },
  region: { id: 2, name: name('Region') },
  startDateTime: START,
  status: 'live',
  stats: null,
  dataSource: 'simulated',
  // Not held by a body: nothing the list forms read.
  closingLine: { capturedAt: START, markets: [] },
  createdAt: START,
};
const MARKETS = [{ id: '7-SOCCER_MATCH_RESULT', betTypeSysname: 'SOCCER_MATCH_RESULT', line: null, betItems: [{ id: 'a', code: '1', price: 2.1, isAvailable: true, bookPrices: { b1: 2.1 } }] }];
const PRICES = { dataSource: 'simulated', markets: MARKETS, previous: [], movedAt: new Date(START.getTime() + 60_000), oddsUpdatedAt: null, analysisVersion: 3 };
const LIVE = {
  homeGoals: 1,
  awayGoals: 0,
  phaseSysname: 'FIRST_HALF',
  isLive: true,
  isInPlay: true,
  elapsedSeconds: 600,
  elapsedAt: new Date(START.getTime() + 600_000),
  clockRate: 1,
  liveDataJson: {},
};

describe('listing bodies (pure)', () => {
  it('happy: a write sets only the fields a body holds, each as JSON under its part', () => {
    const fields = bodyFieldsOf('e', EVENT);
    const names = fields.filter((_, i) => i % 2 === 0);
    expect(names).to.include.members(['e:status', 'e:homeTeam', 'e:startDateTime', 'e:stats']);
    expect(names).to.not.include('e:closingLine');
    expect(names).to.not.include('e:createdAt');
    expect(bodyFieldsOf('p', { analysisRequestedVersion: 4 }), 'a prices write of nothing a form reads').to.deep.equal([]);
    expect(bodyFieldsOf('l', { homeGoals: undefined }), 'an undefined value is not a field').to.deep.equal([]);
  });

  it('happy: a body written from the store reads back as the event, its prices (dates as dates) and its live data', () => {
    const parsed = parseBody(bodyHash(12, storedBodyFields(EVENT, PRICES, LIVE)));
    expect(parsed?.v).to.equal(12);
    const body = parsed!.body;
    expect(body.event.startDateTime).to.be.instanceOf(Date);
    expect(body.event.startDateTime.getTime()).to.equal(START.getTime());
    expect(body.event.homeTeam).to.deep.equal(EVENT.homeTeam);
    expect(body.prices?.markets).to.deep.equal(MARKETS);
    expect(body.prices?.movedAt).to.deep.equal(PRICES.movedAt);
    expect(body.prices).to.not.have.property('analysisVersion');
    expect(body.live?.elapsedAt).to.deep.equal(LIVE.elapsedAt);
    expect(body.live).to.not.have.property('liveDataJson');
  });

  it('happy: no prices document, no live data: those parts are null', () => {
    const body = parseBody(bodyHash(3, storedBodyFields(EVENT, null, null)))!.body;
    expect(body.prices).to.equal(null);
    expect(body.live).to.equal(null);
  });

  const cases: { name: string; hash: Record<string, string> }[] = [
    { name: 'no version', hash: Object.fromEntries(Object.entries(bodyHash(1, bodyFieldsOf('e', EVENT))).filter(([k]) => k !== 'v')) },
    { name: 'a version that is not a number', hash: { ...bodyHash(1, bodyFieldsOf('e', EVENT)), v: 'x' } },
    { name: 'prices and live data but no event document (a partial write found nothing to merge into)', hash: bodyHash(1, [...bodyFieldsOf('p', PRICES), ...bodyFieldsOf('l', LIVE)]) },
    { name: 'an event without its start', hash: bodyHash(1, bodyFieldsOf('e', { ...EVENT, startDateTime: undefined })) },
    { name: 'an event without its teams', hash: bodyHash(1, bodyFieldsOf('e', { ...EVENT, homeTeam: undefined })) },
    { name: 'nothing', hash: {} },
  ];
  for (const c of cases) {
    it(`error: not a body: ${c.name}`, () => {
      expect(parseBody(c.hash)).to.equal(null);
    });
  }

  it("happy: a body agrees with its row when status, sport, competition, region and start are the row's; any one moved, it does not", () => {
    const event = parseBody(bodyHash(1, bodyFieldsOf('e', EVENT)))!.body.event;
    const row = { s: 1, c: 10, r: 2, st: 'live', t: START.getTime() };
    expect(bodyAgreesWithRow(event, row)).to.equal(true);
    for (const moved of [{ st: 'completed' }, { s: 2 }, { c: 11 }, { r: 3 }, { t: START.getTime() + 1 }]) expect(bodyAgreesWithRow(event, { ...row, ...moved }), JSON.stringify(moved)).to.equal(false);
  });
});
