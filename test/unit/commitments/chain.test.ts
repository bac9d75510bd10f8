import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { canonicalize, canonicalNumber, CanonicalError } from '../../../shared/domain/commitments/canonical';
import { buildLinks, EMPTY_HEAD, GENESIS, linkHash, verifyLinks, verifyProof, type Commitment } from '../../../shared/domain/commitments/chain';
import { pickCommitment, recommendationCommitment, settlementCommitment } from '../../../shared/domain/commitments/records';

describe('commitments: canonical form', () => {
  const cases: [string, Parameters<typeof canonicalize>[0], string][] = [
    ['keys sorted, no whitespace', { b: 1, a: 'x', c: [true, null] }, '{"a":"x","b":1,"c":[true,null]}'],
    ['nested objects sorted too', { z: { y: 2, x: 1 } }, '{"z":{"x":1,"y":2}}'],
    ['undefined members left out, null kept', { a: undefined, b: null }, '{"b":null}'],
    ['numbers rounded to 6 decimals', { o: 1.23456789 }, '{"o":1.234568}'],
    ['trailing zeros dropped', { o: 2.5 }, '{"o":2.5}'],
    ['-0 is 0', { o: -0 }, '{"o":0}'],
    ['tiny numbers round to 0, never an exponent', { o: 1e-9 }, '{"o":0}'],
    ['negative half rounds away from zero', { o: -0.0000005 }, '{"o":-0.000001}'],
    ['dates as ISO UTC with milliseconds', { t: new Date(Date.UTC(2023, 0, 2, 3, 4, 5, 6)) }, '{"t":"2023-01-02T03:04:05.006Z"}'],
    ['strings JSON-escaped, non-ASCII kept as is', { s: 'Atlético "A"\n' }, '{"s":"Atlético \\"A\\"\\n"}'],
    ['array order kept', [3, 1, 2], '[3,1,2]'],
  ];
  for (const [name, input, out] of cases) it(`happy: ${name}`, () => expect(canonicalize(input)).to.equal(out));

  it('sad: non-finite and huge numbers, invalid dates are refused', () => {
    expect(() => canonicalNumber(NaN)).to.throw(CanonicalError);
    expect(() => canonicalNumber(Infinity)).to.throw(CanonicalError);
    expect(() => canonicalNumber(1e15)).to.throw(CanonicalError);
    expect(() => canonicalize({ t: new Date(NaN) })).to.throw(CanonicalError);
  });

  it('happy: key order of the input does not change the string', () => {
    expect(canonicalize({ a: 1, b: { c: 2, d: 3 } })).to.equal(canonicalize({ b: { d: 3, c: 2 }, a: 1 }));
  });
});

const rec = (id: string, odds = 2.1) => ({
  _id: id,
  sportId: 1,
  betTypeSysname: 'SOCCER_MATCH_RESULT',
  line: null,
  code: '1',
  outcome: 'Home',
  bookmaker: 'Pinnacle',
  odds,
  probability: 0.5,
  fairOdds: 2,
  confidence: 'Medium',
  edgePercentage: 5,
  kellyFraction: 0.0119047619,
  createdAt: new Date('2023-01-01T10:00:00.000Z'),
});
const event = { id: 'e1', home: 'Arsenal', away: 'Chelsea', competition: 'Premier League', startAt: new Date('2023-01-02T15:00:00.000Z') };
const items = (n: number): Commitment[] => Array.from({ length: n }, (_, i) => recommendationCommitment(rec(`r${i}`), event));

describe('commitments: records', () => {
  it('happy: a recommendation record holds what the customer sees, canonically', () => {
    const c = recommendationCommitment(rec('r1'), event);
    expect(c).to.include({ kind: 'recommendation', recordId: 'r1' });
    expect(JSON.parse(c.record)).to.deep.equal({
      v: 1,
      type: 'recommendation',
      id: 'r1',
      event: { id: 'e1', home: 'Arsenal', away: 'Chelsea', competition: 'Premier League', startAt: '2023-01-02T15:00:00.000Z' },
      sportId: 1,
      market: { type: 'SOCCER_MATCH_RESULT', line: null },
      outcome: { code: '1', name: 'Home' },
      bookmaker: 'Pinnacle',
      odds: 2.1,
      probability: 0.5,
      fairOdds: 2,
      confidence: 'Medium',
      edgePercentage: 5,
      kellyFraction: 0.011905,
      createdAt: '2023-01-01T10:00:00.000Z',
    });
    expect(c.record).to.equal(canonicalize(JSON.parse(c.record)));
  });

  it('happy: a settlement is its own record keyed by bet and result version; a correction is another key', () => {
    const s1 = settlementCommitment('recommendation', { _id: 'r1', result: 'won', resultDetail: 'won', returnPerUnit: 2.1, settledVersion: 0, settlementDate: new Date('2023-01-02T17:00:00Z') });
    const s2 = settlementCommitment('recommendation', { _id: 'r1', result: 'lost', resultDetail: 'lost', returnPerUnit: 0, settledVersion: 1, settlementDate: new Date('2023-01-03T09:00:00Z') });
    expect(s1).to.include({ kind: 'recommendation-settlement', recordId: 'r1@v0' });
    expect(s2.recordId).to.equal('r1@v1');
    expect(JSON.parse(s1.record)).to.include({ type: 'recommendation-settlement', result: 'won', closingOdds: null, clv: null });
    const p = settlementCommitment('pick', { _id: 'p1', result: 'push', settledVersion: 0 });
    expect(p.kind).to.equal('pick-settlement');
    expect(JSON.parse(p.record)).to.not.have.property('clv');
  });

  it('happy: a pick record lists its legs', () => {
    const c = pickCommitment(
      {
        _id: 'pick-1',
        pickType: 'single',
        legs: [{ recommendationId: 'r1', eventId: 'e1', market: 'SOCCER_MATCH_RESULT', outcome: 'Home', code: '1', point: null, bookmaker: 'Pinnacle', odds: 2.1 }],
        totalOdds: 2.1,
        probability: 0.5,
        confidence: 'Medium',
        edgePercentage: 5,
        kellyFraction: 0.01,
        startsAt: event.startAt,
      },
      new Date('2023-01-01T10:00:00Z'),
    );
    expect(JSON.parse(c.record).legs[0]).to.include({ recommendationId: 'r1', odds: 2.1 });
  });
});

describe('commitments: chain', () => {
  it('happy: a link is SHA-256 of the previous hash and the record (UTF-8), link 0 after 64 zeros', () => {
    expect(GENESIS).to.equal('0'.repeat(64));
    const expected = createHash('sha256')
      .update(Buffer.from(`${GENESIS}{"a":"é"}`, 'utf8'))
      .digest('hex');
    expect(linkHash(GENESIS, '{"a":"é"}')).to.equal(expected);
  });

  it('happy: built links verify and lead to the head; appending continues from a head', () => {
    const first = buildLinks(EMPTY_HEAD, items(3));
    const check = verifyLinks(first);
    expect(check).to.deep.equal({ ok: true, head: { hash: first[2].hash, length: 3 } });
    const more = buildLinks(check.ok ? check.head : EMPTY_HEAD, items(5).slice(3));
    expect(more.map((l) => l.seq)).to.deep.equal([3, 4]);
    expect(verifyLinks([...first, ...more])).to.deep.equal({ ok: true, head: { hash: more[1].hash, length: 5 } });
    expect(verifyLinks([])).to.deep.equal({ ok: true, head: EMPTY_HEAD });
  });

  const tampers: [string, (l: ReturnType<typeof buildLinks>) => void, number, RegExp][] = [
    ['an edited record', (l) => (l[2].record = l[2].record.replace('2.1', '2.2')), 2, /does not recompute/],
    ['an edited record with its hash recomputed', (l) => ((l[2].record = l[2].record.replace('2.1', '2.2')), (l[2].hash = linkHash(l[2].prevHash, l[2].record))), 3, /prevHash/],
    ['a removed link', (l) => l.splice(1, 1), 2, /expected seq 1/],
    ['swapped links', (l) => ([l[1], l[2]] = [l[2], l[1]]), 2, /expected seq 1/],
  ];
  for (const [name, tamper, seq, problem] of tampers) {
    it(`sad: ${name} is caught at the first bad link`, () => {
      const links = buildLinks(EMPTY_HEAD, items(5));
      tamper(links);
      const check = verifyLinks(links);
      expect(check.ok).to.equal(false);
      if (!check.ok) {
        expect(check.seq).to.equal(seq);
        expect(check.problem).to.match(problem);
      }
    });
  }

  it('happy: a proof (the link, the later records) recomputes the head; sad: any change to it does not', () => {
    const links = buildLinks(EMPTY_HEAD, items(6));
    const head = { hash: links[5].hash, length: 6 };
    const proof = () => ({ link: { ...links[2] }, path: links.slice(3).map((l) => ({ seq: l.seq, record: l.record, hash: l.hash })), head: { ...head } });
    expect(verifyProof(proof())).to.deep.equal({ ok: true, head });
    const edited = proof();
    edited.link.record = edited.link.record.replace('2.1', '1.9');
    expect(verifyProof(edited)).to.deep.include({ ok: false, seq: 2 });
    const laterEdited = proof();
    laterEdited.path[1].record += ' ';
    expect(verifyProof(laterEdited)).to.deep.include({ ok: false, seq: 4 });
    const short = proof();
    short.path.pop();
    expect(verifyProof(short).ok).to.equal(false);
    const otherHead = proof();
    otherHead.head.hash = GENESIS;
    expect(verifyProof(otherHead).ok).to.equal(false);
    const last = { link: { ...links[5] }, path: [], head };
    expect(verifyProof(last)).to.deep.equal({ ok: true, head });
  });
});
