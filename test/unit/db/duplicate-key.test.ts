import { expect } from 'chai';
import { isDuplicateKey } from '../../../shared/platform/db/duplicateKey';

describe('isDuplicateKey: the one check that a write failed only on an existing unique key', () => {
  const cases: [string, unknown, boolean][] = [
    ['a single write refused by a unique index', { code: 11000 }, true],
    ['another server error', { code: 121 }, false],
    ['a bulk write whose every error is a duplicate', { code: 11000, writeErrors: [{ code: 11000 }, { code: 11000 }] }, true],
    ['a bulk write with one other error among duplicates', { code: 11000, writeErrors: [{ code: 11000 }, { code: 121 }] }, false],
    ['a bulk write error given as one object', { writeErrors: { code: 11000 } }, true],
    ['write errors without a top-level code', { writeErrors: [{ code: 11000 }] }, true],
    ['a network error', new Error('connection reset'), false],
    ['nothing', undefined, false],
    ['null', null, false],
  ];
  for (const [what, err, expected] of cases) it(`${expected ? 'happy' : 'error'}: ${what} -> ${expected}`, () => expect(isDuplicateKey(err)).to.equal(expected));
});
