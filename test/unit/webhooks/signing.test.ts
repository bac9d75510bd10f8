import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { maskKeys } from '../../../shared/domain/billing/keys';
import { eventBody, eventIdOf } from '../../../shared/domain/webhooks/events';
import { newSecret, sign, signedHeaders } from '../../../shared/domain/webhooks/signing';

/** Our signatures as the specification's own library (standardwebhooks, which Svix's verify too) checks them. */
describe('webhooks: Standard Webhooks signatures', () => {
  const body = eventBody({ type: 'recommendation.created', timestamp: new Date('2026-11-21T12:00:00Z'), data: { id: 'r1', odds: 2.1 } });
  const id = eventIdOf('recommendation.created', 'r1');
  const nowS = () => Math.floor(Date.now() / 1000);

  it('happy: a body signed with the secret verifies with the standardwebhooks package', () => {
    const secret = newSecret();
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signedHeaders([secret], id, nowS(), body);
    expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
  });

  it('happy: the library and we compute the same signature', () => {
    const secret = newSecret();
    const at = new Date();
    expect(sign(secret, id, Math.floor(at.getTime() / 1000), body)).to.equal(new Webhook(secret).sign(id, at, body));
  });

  it('happy: after a rotation both secrets verify (two signatures, space-separated)', () => {
    const [fresh, old] = [newSecret(), newSecret()];
    const headers = signedHeaders([fresh, old], id, nowS(), body);
    expect(headers['webhook-signature'].split(' ')).to.have.length(2);
    expect(() => new Webhook(fresh).verify(body, headers)).not.to.throw();
    expect(() => new Webhook(old).verify(body, headers)).not.to.throw();
  });

  const refusals: [string, (h: Record<string, string>) => [string, Record<string, string>]][] = [
    ['a changed body', (h) => [body.replace('2.1', '9.1'), h]],
    ['another id', (h) => [body, { ...h, 'webhook-id': 'msg_other' }]],
    ['a timestamp moved by a second', (h) => [body, { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) + 1) }]],
    ['a timestamp an hour old (replayed)', () => [body, signedHeaders([secretA], id, nowS() - 3600, body)]],
  ];
  const secretA = newSecret();
  for (const [what, tamper] of refusals) {
    it(`error: ${what} does not verify`, () => {
      const [b, h] = tamper(signedHeaders([secretA], id, nowS(), body));
      expect(() => new Webhook(secretA).verify(b, h)).to.throw();
    });
  }

  it('error: another secret does not verify', () => {
    expect(() => new Webhook(newSecret()).verify(body, signedHeaders([secretA], id, nowS(), body))).to.throw();
  });

  it('happy: an event id is the same for the same subject, another for another, and needs no escaping', () => {
    expect(eventIdOf('recommendation.settled', 'r1@0')).to.equal(eventIdOf('recommendation.settled', 'r1@0'));
    expect(eventIdOf('recommendation.settled', 'r1@1')).not.to.equal(eventIdOf('recommendation.settled', 'r1@0'));
    expect(eventIdOf('recommendation.created', 'r1')).not.to.equal(eventIdOf('recommendation.settled', 'r1'));
    expect(id).to.match(/^msg_[a-z2-7]{32}$/);
  });

  describe('security: a secret in a log line is masked in any encoding', () => {
    const secret = newSecret();
    const pct = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
    const cases: [string, string][] = [
      ['plain', `POST /hook?s=${secret}&x=1`],
      ['in JSON', JSON.stringify({ secret })],
      ['underscore encoded', `?s=${secret.replace('_', '%5F')}`],
      ['every character encoded', `?s=${[...secret].map(pct).join('')}`],
      ['+ / = encoded', `?s=${encodeURIComponent(secret)}`],
      ['encoded twice', `?s=${encodeURIComponent(encodeURIComponent(secret))}`],
    ];
    for (const [what, text] of cases) {
      it(what, () => {
        const masked = maskKeys(text);
        expect(masked).to.include('whsec_[redacted]');
        expect(masked).not.to.include(secret.slice(6, 16));
        expect(masked).not.to.include(encodeURIComponent(secret.slice(6, 16)));
      });
    }
    it('happy: text without a secret is left as it is', () => expect(maskKeys('whsec and whsec- stay')).to.equal('whsec and whsec- stay'));
  });
});
