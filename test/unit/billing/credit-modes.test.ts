import { expect } from 'chai';
import { creditModeOfGateway, ledgerOf, ownerOfLedger } from '../../../shared/domain/billing/creditModes';
import { newId } from '../../../shared/domain/billing/keys';
import { windowCredited } from '../../../shared/app/billing/recharge';

describe('credit modes: test money is test money (pure)', () => {
  it('happy: the test gateway sells test credits, any real gateway live credits', () => {
    expect(creditModeOfGateway('test')).to.equal('test');
    expect(creditModeOfGateway('stripe')).to.equal('live');
  });

  it("happy: live credits are on the account's own ledger, test credits on one apart, and each ledger names its owner", () => {
    const accountId = newId('acct');
    expect(ledgerOf(accountId, 'live')).to.equal(accountId);
    expect(ledgerOf(accountId, 'test')).to.not.equal(accountId);
    for (const mode of ['live', 'test'] as const) expect(ownerOfLedger(ledgerOf(accountId, mode))).to.deep.equal({ accountId, mode });
  });

  it("edge: no account id is another account's test ledger (account ids hold no colon)", () => {
    for (let i = 0; i < 200; i++) expect(newId('acct')).to.not.include(':');
    expect(ownerOfLedger('acct_demo')).to.deep.equal({ accountId: 'acct_demo', mode: 'live' });
  });

  it('happy: the recharge sweep leaves a window alone once its charge is credited (a test-gateway recharge leaves the live balance low in it), never before', () => {
    const a = (status: string, credited = false) => ({ status, credited });
    const cases: [ReturnType<typeof a> | null, ReturnType<typeof a> | null, boolean][] = [
      [null, null, false],
      [a('pending'), null, false],
      [a('charging'), null, false],
      [a('succeeded'), null, false], // charged, the credit not yet written: the sweep re-queues it
      [a('succeeded', true), null, true],
      [a('declined'), null, false],
      [a('declined'), a('declined'), false],
      [a('declined'), a('succeeded', true), true],
    ];
    for (const [first, second, credited] of cases) expect(windowCredited(first, second), JSON.stringify([first, second])).to.equal(credited);
  });
});
