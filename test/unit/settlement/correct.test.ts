import { expect } from 'chai';
import { changedFields, CorrectionInputError, parseCorrection, STATS_OPTIONS } from '../../../shared/app/settlement/correct';
import { EMPTY_STATS } from '../../../shared/domain/stats';

describe('result correction input (pure)', () => {
  it('has one option per EventStats field, kebab-cased', () => {
    expect(Object.values(STATS_OPTIONS).sort()).to.deep.equal(Object.keys(EMPTY_STATS).sort());
    expect(STATS_OPTIONS['home-goals-first-half']).to.equal('homeGoalsFirstHalf');
    expect(STATS_OPTIONS['away-yellow-cards']).to.equal('awayYellowCards');
  });

  it('happy: whole numbers, null and the void flag', () => {
    expect(parseCorrection('e1', { 'home-goals': '1', 'away-corners': 'null', 'home-red-cards': '0', void: 'false' })).to.deep.equal({
      eventId: 'e1',
      stats: { homeGoals: 1, awayCorners: null, homeRedCards: 0 },
      voided: false,
    });
    expect(parseCorrection('e1', { void: 'true' })).to.deep.equal({ eventId: 'e1', stats: {}, voided: true });
  });

  const bad: [Record<string, string>, string, RegExp][] = [
    [{ 'home-goals': '-1' }, 'home-goals', /whole number >= 0 or null \(got "-1"\)/],
    [{ 'away-goals': 'abc' }, 'away-goals', /got "abc"/],
    [{ 'home-corners': '1.5' }, 'home-corners', /got "1.5"/],
    [{ 'home-corners': '' }, 'home-corners', /got ""/],
    [{ 'home-corners': 'NULL' }, 'home-corners', /got "NULL"/],
    [{ 'home-goals': '1e3' }, 'home-goals', /got "1e3"/],
    [{ void: 'yes' }, 'void', /must be true or false/],
    [{}, 'event', /nothing to correct/],
  ];
  for (const [raw, argument, message] of bad) {
    it(`error: ${JSON.stringify(raw)} names --${argument}`, () => {
      let err: unknown;
      try {
        parseCorrection('e1', raw);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(CorrectionInputError);
      expect((err as CorrectionInputError).argument).to.equal(argument);
      expect((err as Error).message).to.match(message);
    });
  }

  it('error: a missing event id names --event', () => {
    expect(() => parseCorrection(undefined, { 'home-goals': '1' })).to.throw(CorrectionInputError, /event: is required/);
  });

  it('changedFields: only fields whose value differs (missing and null are the same)', () => {
    expect(changedFields({ homeGoals: 2, awayGoals: 1 }, { homeGoals: 1, awayGoals: 1 })).to.deep.equal(['homeGoals']);
    expect(changedFields({ homeGoals: 2 }, { homeCorners: null })).to.deep.equal([]);
    expect(changedFields(null, { homeGoals: 0 })).to.deep.equal(['homeGoals']);
  });
});
