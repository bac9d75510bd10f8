import { expect } from 'chai';
import { preferredEncoding, type Encoding } from '../../../api/cache/pageCache';

describe('the encoding a page is sent in (Accept-Encoding)', () => {
  const cases: [string | undefined, Encoding][] = [
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['BR , GZIP', 'br'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=0.5', 'br'],
  ];
  for (const [header, expected] of cases) {
    it(`happy: ${JSON.stringify(header)} -> ${expected}`, () => expect(preferredEncoding(header)).to.equal(expected));
  }
});
