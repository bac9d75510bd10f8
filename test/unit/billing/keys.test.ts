import { expect } from 'chai';
import { bearerKey, generateKey, hashKey, maskKeys, randomBase62 } from '../../../shared/domain/billing/keys';

describe('billing: keys', () => {
  it('happy: live and test keys carry 32 base62 characters after their mode prefix', () => {
    const live = generateKey('live');
    const test = generateKey('test');
    expect(live.plaintext).to.match(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(test.plaintext).to.match(/^sk_test_[0-9A-Za-z]{32}$/);
    expect(live.hash)
      .to.equal(hashKey(live.plaintext))
      .and.match(/^[0-9a-f]{64}$/);
    expect(live.prefix).to.equal(live.plaintext.slice(0, 14));
  });

  it('happy: base62 characters are spread evenly (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const c of randomBase62(62 * 400)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).to.equal(62);
    for (const n of counts.values()) expect(n).to.be.within(280, 520);
  });

  const headers: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    [`Bearer sk_live_${'a'.repeat(32)}`, true],
    [`bearer sk_test_${'B'.repeat(32)}`, true],
    [`Bearer  sk_live_${'a'.repeat(32)} `, true],
    [`Bearer sk_live_${'a'.repeat(31)}`, false],
    [`Bearer sk_live_${'a'.repeat(33)}`, false],
    [`Bearer sk_prod_${'a'.repeat(32)}`, false],
    [`Bearer sk_live_${'a'.repeat(31)}-`, false],
    [`Token sk_live_${'a'.repeat(32)}`, false],
    [`Bearer sk_live_${'a'.repeat(32)} extra`, false],
  ];
  for (const [header, ok] of headers) {
    it(`${ok ? 'happy' : 'error'}: Authorization ${JSON.stringify(header)} is ${ok ? 'a key' : 'refused'}`, () => {
      expect(bearerKey(header) !== undefined).to.equal(ok);
    });
  }

  it('security: keys in free text are masked', () => {
    const k = generateKey('live').plaintext;
    expect(maskKeys(`/v2/matches?api_key=${k}&x=1`)).to.equal('/v2/matches?api_key=sk_live_[redacted]&x=1');
  });

  describe('security: a key is masked in any encoding a URL or a header carries', () => {
    const live = generateKey('live').plaintext;
    const test = generateKey('test').plaintext;
    const secret = (k: string) => k.slice(8);
    const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
    /** Every character percent-encoded, upper- or lower-case hex. */
    const all = (k: string, lower = false) => [...k].map((c) => (lower ? pct(c).toLowerCase() : pct(c))).join('');
    /** Every other character encoded. */
    const mixed = (k: string) => [...k].map((c, i) => (i % 2 ? pct(c) : c)).join('');
    const cases: [string, string, string][] = [
      ['plain, in a query', `/v2/matches?api_key=${live}&x=1`, '/v2/matches?api_key=sk_live_[redacted]&x=1'],
      ['underscores encoded', `/v2/matches?api_key=${live.replace(/_/g, '%5F')}`, '/v2/matches?api_key=sk_live_[redacted]'],
      ['underscores encoded, lower-case hex', `/v2/matches?k=${live.replace(/_/g, '%5f')}`, '/v2/matches?k=sk_live_[redacted]'],
      ['one underscore encoded', `/v2/matches?k=sk_live%5F${secret(live)}`, '/v2/matches?k=sk_live_[redacted]'],
      ['every character encoded', `/v2/matches?k=${all(live)}`, '/v2/matches?k=sk_live_[redacted]'],
      ['every character encoded, lower-case hex', `/v2/matches?k=${all(test, true)}`, '/v2/matches?k=sk_test_[redacted]'],
      ['every other character encoded', `/v2/matches?k=${mixed(live)}&y=2`, '/v2/matches?k=sk_live_[redacted]&y=2'],
      ['encoded twice', `/v2/matches?k=${live.replace(/_/g, '%255F')}`, '/v2/matches?k=sk_live_[redacted]'],
      ['the secret part encoded twice', `/v2/matches?k=sk_live_${[...secret(live)].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join('')}`, '/v2/matches?k=sk_live_[redacted]'],
      ['as %u00XX', `/v2/matches?k=sk%u005Flive%u005F${secret(live)}`, '/v2/matches?k=sk_live_[redacted]'],
      ['in a path', `/v2/nope/${mixed(test)}/x`, '/v2/nope/sk_test_[redacted]/x'],
      ['two keys', `/v2/a?k=${live}&j=${all(test)}`, '/v2/a?k=sk_live_[redacted]&j=sk_test_[redacted]'],
      ['upper-case prefix', `/v2/a?k=SK_LIVE_${secret(live)}`, '/v2/a?k=sk_live_[redacted]'],
      ['followed by an encoded separator', `/v2/a?k=${live}%26x%3D1`, '/v2/a?k=sk_live_[redacted]%26x%3D1'],
      ['nothing shaped like a key', '/v2/matches?sk=1&live=2&q=sk_live', '/v2/matches?sk=1&live=2&q=sk_live'],
    ];
    for (const [name, text, masked] of cases) {
      it(name, () => {
        expect(maskKeys(text)).to.equal(masked);
        expect(maskKeys(text)).to.not.include(secret(live).slice(0, 8)).and.not.include(secret(test).slice(0, 8));
      });
    }
  });
});
