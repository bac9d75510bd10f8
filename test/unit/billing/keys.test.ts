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
});
