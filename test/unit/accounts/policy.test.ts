import { expect } from 'chai';
import { clearedSessionCookie, isSecureContext, sessionCookie, sessionIdFromCookieHeader } from '../../../shared/domain/accounts/cookies';
import { isEmail, normalizeEmail } from '../../../shared/domain/accounts/email';
import { dummyHash, hashPassword, verifyPassword } from '../../../shared/domain/accounts/passwordHash';
import { commonPasswords, passwordProblem } from '../../../shared/domain/accounts/passwordPolicy';
import { aggregateUsage, usageSince, usageTotals } from '../../../shared/domain/accounts/usage';
import { purchaseId } from '../../../shared/app/billing/purchase';

describe('accounts: pure rules', () => {
  const emails: [unknown, boolean][] = [
    ['dev@example.com', true],
    ['  Dev.Name+tag@Example.CO.uk ', true],
    ['a@b.io', true],
    ['no-at-sign.example.com', false],
    ['two@@example.com', false],
    ['a@localhost', false],
    ['a b@example.com', false],
    ['a@-bad.com', false],
    [`${'x'.repeat(65)}@example.com`, false],
    [`a@${'x'.repeat(250)}.com`, false],
    ['', false],
    [42, false],
    [null, false],
  ];
  for (const [email, ok] of emails) it(`happy: ${JSON.stringify(email)} is ${ok ? '' : 'not '}an e-mail address`, () => expect(isEmail(email)).to.equal(ok));

  it('happy: e-mails are normalised by trimming and lower-casing', () => {
    expect(normalizeEmail('  Dev@Example.COM ')).to.equal('dev@example.com');
  });

  const passwords: [unknown, RegExp | undefined][] = [
    ['correct-kettle-orbit-42', undefined],
    ['ünïcödé-pässwörd', undefined],
    ['short', /at least 12/],
    ['elevenchars', /at least 12/],
    ['🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂', /at least 12/], // 11 code points, 22 UTF-16 units
    ['x'.repeat(257), /at most 256/],
    ['passwordpassword', /too common/],
    ['PasswordPassword', /too common/],
    ['qwertyuiop123', /too common/],
    ['aaaabbbbaaaabbbb', /repetitive/],
    [12345678901234, /string/],
    [undefined, /string/],
  ];
  for (const [pw, problem] of passwords) {
    it(`${problem ? 'error' : 'happy'}: password ${JSON.stringify(pw)?.slice(0, 24)} ${problem ? `is refused (${problem.source})` : 'is accepted'}`, () => {
      const p = passwordProblem(pw);
      if (problem) expect(p).to.match(problem);
      else expect(p).to.equal(undefined);
    });
  }

  it('error: the e-mail itself is not a password', () => expect(passwordProblem('Dev.Person@Example.com', 'dev.person@example.com')).to.match(/e-mail/));

  it('happy: the common-passwords list is loaded from the repository, lower-cased, only entries the length rule lets through', () => {
    const list = commonPasswords();
    expect(list.size).to.be.above(100);
    for (const p of list) expect(p.length, p).to.be.at.least(12);
  });

  it('happy: scrypt hashes verify, salted per password, and a wrong password or a malformed stored value does not', async () => {
    const a = await hashPassword('correct-kettle-orbit-42');
    const b = await hashPassword('correct-kettle-orbit-42');
    expect(a).to.match(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).to.not.equal(b);
    expect(await verifyPassword('correct-kettle-orbit-42', a)).to.equal(true);
    expect(await verifyPassword('correct-kettle-orbit-43', a)).to.equal(false);
    expect(await verifyPassword('x', 'plain-text')).to.equal(false);
    expect(await verifyPassword('anything-at-all', await dummyHash())).to.equal(false);
  });

  const cookies: [string, boolean, string][] = [
    ['abc', false, 'odds_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax'],
    ['abc', true, 'odds_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure'],
  ];
  for (const [value, secure, header] of cookies) it(`happy: the session cookie ${secure ? 'over https' : 'over http'}`, () => expect(sessionCookie(value, 60, { secure })).to.equal(header));

  it('happy: clearing the cookie expires it at once', () => expect(clearedSessionCookie({ secure: false })).to.equal('odds_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax'));

  const id = 'A'.repeat(43);
  const headers: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    [`odds_session=${id}`, id],
    [`theme=dark; odds_session=${id}; other=1`, id],
    [`odds_session=${id}; odds_session=${'B'.repeat(43)}`, id],
    ['odds_session=short', undefined],
    ['odds_session=<script>alert(1)</script>xxxxxxxxxxxxxx', undefined],
    [`xodds_session=${id}`, undefined],
  ];
  for (const [header, want] of headers) it(`happy: session id of Cookie ${JSON.stringify(header)?.slice(0, 40)}`, () => expect(sessionIdFromCookieHeader(header)).to.equal(want));

  it('happy: Secure when the request is https or PUBLIC_URL is', () => {
    expect(isSecureContext(false, '')).to.equal(false);
    expect(isSecureContext(true, '')).to.equal(true);
    expect(isSecureContext(false, 'https://odds.example.com')).to.equal(true);
    expect(isSecureContext(false, 'http://localhost:3000')).to.equal(false);
  });

  it('happy: usage per UTC day and endpoint: refunds cancel debits, rows without a billed request dropped, sorted', () => {
    const at = (s: string) => new Date(s);
    const rows = aggregateUsage([
      { at: at('2025-03-02T10:00:00Z'), kind: 'debit', delta: -1, endpoint: 'GET /v2/matches' },
      { at: at('2025-03-01T23:59:59Z'), kind: 'debit', delta: -10, endpoint: 'GET /v2/ai/featured-picks' },
      { at: at('2025-03-02T10:00:01Z'), kind: 'debit', delta: -1, endpoint: 'GET /v2/matches' },
      { at: at('2025-03-02T10:00:02Z'), kind: 'debit', delta: -2, endpoint: 'GET /v2/matches/live' },
      { at: at('2025-03-02T10:00:03Z'), kind: 'refund', delta: 2, endpoint: 'GET /v2/matches/live' },
      { at: at('2025-03-02T10:00:04Z'), kind: 'purchase', delta: 20000, endpoint: null },
      { at: at('2025-03-02T10:00:05Z'), kind: 'debit', delta: -1 },
    ]);
    expect(rows).to.deep.equal([
      { day: '2025-03-01', endpoint: 'GET /v2/ai/featured-picks', requests: 1, credits: 10 },
      { day: '2025-03-02', endpoint: 'GET /v2/matches', requests: 2, credits: 2 },
    ]);
    expect(usageTotals(rows)).to.deep.equal({ requests: 3, credits: 12 });
  });

  it('happy: usage of N days starts at the UTC midnight N-1 days before today', () => {
    expect(usageSince(1, new Date('2025-03-02T15:00:00Z')).toISOString()).to.equal('2025-03-02T00:00:00.000Z');
    expect(usageSince(7, new Date('2025-03-02T15:00:00Z')).toISOString()).to.equal('2025-02-24T00:00:00.000Z');
  });

  it('happy: a purchase id comes from the client key when sent, else from what is bought and the 10-minute window', () => {
    const t = Date.UTC(2025, 0, 1, 12, 0, 0);
    expect(purchaseId('acct_a', 'p', 'k1', t)).to.equal(purchaseId('acct_a', 'other', 'k1', t + 3600000));
    expect(purchaseId('acct_a', 'p', 'k1', t)).to.not.equal(purchaseId('acct_b', 'p', 'k1', t));
    expect(purchaseId('acct_a', 'p', undefined, t)).to.equal(purchaseId('acct_a', 'p', undefined, t + 60000));
    expect(purchaseId('acct_a', 'p', undefined, t)).to.not.equal(purchaseId('acct_a', 'p', undefined, t + 600000));
    expect(purchaseId('acct_a', 'p', undefined, t)).to.not.equal(purchaseId('acct_a', 'q', undefined, t));
  });
});
