import { expect } from 'chai';
import { CHANGE_KINDS, ChangeEncodingError, compareChangeIds, decodeChange, encodeChange, ENTRY_FIELDS, isChangeId, type Change } from '../../../shared/domain/feed/changes';

const at = new Date('2026-11-26T15:00:00.123Z');

describe('change feed encoding: a change as a stream entry and back', () => {
  it('happy: every kind comes back with its event, date, data, provider and batch id', () => {
    for (const kind of CHANGE_KINDS) {
      const change: Change = { eventId: '7100001', kind, at, data: { prices: { '1': 2.1, X: 3.4 }, status: 'live', list: [1, null, 'é'] }, provider: 'simulated' };
      const fields = encodeChange(change, 'poll-simulated-42');
      expect(fields.filter((_, i) => i % 2 === 0)).to.deep.equal([...ENTRY_FIELDS]);
      expect(decodeChange(fields)).to.deep.equal({ change, poll: 'poll-simulated-42' });
    }
  });

  it('happy: the fields are plain text a reader in any language parses (epoch ms, JSON)', () => {
    const fields = encodeChange({ eventId: '1', kind: 'score', at, data: { home: 2, away: 1 } }, 'b1');
    expect(fields).to.deep.equal(['eventId', '1', 'kind', 'score', 'at', String(at.getTime()), 'data', '{"home":2,"away":1}', 'provider', '', 'poll', 'b1']);
  });

  it('happy: a recommendation the AI worker inserted is a change of its own kind, its fields kept as JSON', () => {
    const change: Change = { eventId: '7100001', kind: 'recommendation', at, data: { recommendationId: 'r1', betItemId: 'b9', odds: 2.35, confidence: 'high', edgePercentage: 4.2 }, provider: 'ai' };
    const fields = encodeChange(change, 'ai-7100001-1');
    expect(fields.slice(0, 4)).to.deep.equal(['eventId', '7100001', 'kind', 'recommendation']);
    expect(decodeChange(fields)).to.deep.equal({ change, poll: 'ai-7100001-1' });
  });

  it('happy: no provider reads back as none, undefined data as null, a Date in data as its ISO text', () => {
    expect(decodeChange(encodeChange({ eventId: '1', kind: 'settled', at, data: undefined }, 'b')).change).to.deep.equal({ eventId: '1', kind: 'settled', at, data: null });
    expect(decodeChange(encodeChange({ eventId: '1', kind: 'closing', at, data: { capturedAt: at } }, 'b')).change.data).to.deep.equal({ capturedAt: at.toISOString() });
  });

  it('error: a change the stream could not give back is refused when encoded', () => {
    const bad: unknown[] = [
      { eventId: '', kind: 'price', at, data: 1 },
      { eventId: '1', kind: 'odds', at, data: 1 },
      { eventId: '1', kind: 'price', at: new Date('nope'), data: 1 },
      { eventId: '1', kind: 'price', at: at.getTime(), data: 1 },
    ];
    for (const change of bad) expect(() => encodeChange(change as Change, 'b'), JSON.stringify(change)).to.throw(ChangeEncodingError);
    expect(() => encodeChange({ eventId: '1', kind: 'price', at, data: 1 }, '')).to.throw(ChangeEncodingError);
  });

  it('error: an entry with an unknown kind, a bad date or data that is not JSON is not decoded', () => {
    const good = encodeChange({ eventId: '1', kind: 'price', at, data: 1 }, 'b');
    const withField = (name: string, value: string) => good.map((v, i) => (i % 2 === 1 && good[i - 1] === name ? value : v));
    expect(() => decodeChange(withField('kind', 'odds'))).to.throw(ChangeEncodingError, /unknown kind/);
    expect(() => decodeChange(withField('at', '2026-11-26'))).to.throw(ChangeEncodingError, /invalid at/);
    expect(() => decodeChange(withField('data', '{oops'))).to.throw(ChangeEncodingError, /not JSON/);
    expect(() => decodeChange(withField('eventId', ''))).to.throw(ChangeEncodingError, /eventId/);
    expect(() => decodeChange([])).to.throw(ChangeEncodingError);
  });

  it('happy: entry ids order by number, not as text', () => {
    expect(compareChangeIds('9-0', '10-0')).to.equal(-1);
    expect(compareChangeIds('5-10', '5-2')).to.equal(1);
    expect(compareChangeIds('1764169200000-3', '1764169200000-3')).to.equal(0);
    expect(compareChangeIds('18446744073709551615-0', '18446744073709551614-9')).to.equal(1);
  });

  it('error: only a complete <ms>-<seq> id is a position to resume from', () => {
    expect(isChangeId('1764169200000-0')).to.equal(true);
    for (const id of ['', '1764169200000', '-', '+', '(1-0', '1-0-0', 'a-1', '1-']) expect(isChangeId(id), id).to.equal(false);
    expect(() => compareChangeIds('1', '1-0')).to.throw(ChangeEncodingError);
  });
});
