import { expect } from 'chai';
import { addressProblem, checkEndpointUrl, classifyAddress, type AddressKind } from '../../../shared/domain/webhooks/address';

describe('webhooks: where a webhook may be sent', () => {
  const kinds: [string, AddressKind | null][] = [
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.100.100.200', 'private'],
    ['169.254.169.254', 'metadata'],
    ['169.254.10.1', 'link-local'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fc00::1', 'private'],
    ['fdab:1:2::3', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['example.com', null],
    ['1.2.3', null],
    ['256.1.1.1', null],
    ['1:2:3:4:5:6:7:8:9', null],
    ['1::2::3', null],
  ];
  for (const [ip, kind] of kinds) it(`${kind === 'public' || kind === null ? 'happy' : 'security'}: ${ip} is ${kind ?? 'no IP address'}`, () => expect(classifyAddress(ip)).to.equal(kind));

  const urls: [string, { requireHttps?: boolean; allowPrivate?: boolean }, string | null][] = [
    ['https://hooks.example.com/odds', {}, null],
    ['http://hooks.example.com/odds', {}, null],
    ['http://hooks.example.com/odds', { requireHttps: true }, 'must be an https URL'],
    ['ftp://hooks.example.com/', {}, 'must be an http or https URL'],
    ['not a url', {}, 'must be an absolute URL'],
    ['https://user:pw@hooks.example.com/', {}, 'must not carry a user name or password'],
    ['https://hooks.example.com/#x', {}, 'must not have a fragment'],
    ['http://127.0.0.1:8080/hook', {}, 'is a loopback address'],
    ['http://127.0.0.1:8080/hook', { allowPrivate: true }, null],
    ['http://0x7f.1/hook', {}, 'is a loopback address'],
    ['http://2130706433/hook', {}, 'is a loopback address'],
    ['http://[::ffff:169.254.169.254]/', {}, 'is a metadata address'],
    ['http://169.254.169.254/latest/meta-data', {}, 'is a metadata address'],
    ['http://localhost:3000/', {}, 'names localhost'],
    ['http://metadata.google.internal/', {}, 'names metadata.google.internal'],
    [`https://example.com/${'a'.repeat(2000)}`, {}, 'must be at most 2000 characters'],
  ];
  for (const [url, opts, problem] of urls) {
    it(`${problem ? 'error' : 'happy'}: ${url.slice(0, 60)} ${problem ? `-> ${problem}` : 'is accepted'}`, () => {
      const r = checkEndpointUrl(url, { requireHttps: opts.requireHttps ?? false, allowPrivate: opts.allowPrivate ?? false });
      if (problem === null) expect(r.ok, JSON.stringify(r)).to.equal(true);
      else expect(r.ok ? '' : r.message).to.include(problem);
    });
  }

  it('security: a name is refused when any address it resolves to is not public, unless allowed; the refusal tells nothing of the address', () => {
    expect(addressProblem('a.example', ['93.184.216.34'], false)).to.equal(null);
    const inward = addressProblem('a.example', ['93.184.216.34', '10.0.0.7'], false);
    expect(inward).to.equal('a.example does not resolve to a public address: webhooks are sent to public addresses only');
    expect(addressProblem('a.example', ['::1'], false)).to.equal(inward);
    // A name that resolves nowhere gets the same answer: the two cannot be told apart.
    expect(addressProblem('a.example', [], false)).to.equal(inward);
    expect(addressProblem('a.example', ['10.0.0.7'], true)).to.equal(null);
    expect(addressProblem('a.example', [], true)).to.equal(inward);
  });
});
