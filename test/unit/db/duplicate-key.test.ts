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
    [
      "mongoose's insertMany error: each write error copied to a plain object, its code under err",
      {
        code: 11000,
        writeErrors: [
          { err: { index: 0, code: 11000 }, index: 0 },
          { err: { index: 2, code: 11000 }, index: 2 },
        ],
      },
      true,
    ],
    [
      "mongoose's insertMany error with another error among duplicates",
      {
        code: 11000,
        writeErrors: [
          { err: { code: 11000 }, index: 0 },
          { err: { code: 121 }, index: 1 },
        ],
      },
      false,
    ],
    ['a network error', new Error('connection reset'), false],
    ['nothing', undefined, false],
    ['null', null, false],
  ];
  for (const [what, err, expected] of cases) it(`${expected ? 'happy' : 'error'}: ${what} -> ${expected}`, () => expect(isDuplicateKey(err)).to.equal(expected));
});
