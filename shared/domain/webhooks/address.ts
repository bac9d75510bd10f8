/**
 * Where a webhook may be sent (pure): the endpoint URL's rules, and which IP addresses count as
 * the service's own network rather than the customer's. A URL that names or resolves to a
 * loopback, private, link-local, metadata or otherwise reserved address would let anyone make
 * the service call inside its own network (server-side request forgery), so such addresses are
 * refused unless the deployment allows them (WEBHOOK_ALLOW_PRIVATE, for local use and tests),
 * when the endpoint is saved and again at every attempt (a name may resolve elsewhere later).
 */

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

export const MAX_URL_LENGTH = 2000;

/** Names that are the host or its cloud's instance metadata whatever they resolve to. */
const INTERNAL_NAMES = [/^localhost$/i, /\.localhost$/i, /^metadata$/i, /^metadata\.google\.internal$/i];

const V4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseV4(text: string): number[] | null {
  const m = V4.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

const inV4 = (p: readonly number[], base: readonly number[], bits: number): boolean => {
  const value = (q: readonly number[]) => ((q[0] << 24) | (q[1] << 16) | (q[2] << 8) | q[3]) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value(p) & mask) >>> 0 === (value(base) & mask) >>> 0;
};

function classifyV4(p: readonly number[]): AddressKind {
  const table: [number[], number, AddressKind][] = [
    [[169, 254, 169, 254], 32, 'metadata'],
    [[0, 0, 0, 0], 8, 'unspecified'],
    [[10, 0, 0, 0], 8, 'private'],
    [[100, 64, 0, 0], 10, 'private'], // shared address space (carrier NAT; a cloud's metadata lives here too)
    [[127, 0, 0, 0], 8, 'loopback'],
    [[169, 254, 0, 0], 16, 'link-local'],
    [[172, 16, 0, 0], 12, 'private'],
    [[192, 0, 0, 0], 24, 'reserved'],
    [[192, 0, 2, 0], 24, 'reserved'],
    [[192, 88, 99, 0], 24, 'reserved'],
    [[192, 168, 0, 0], 16, 'private'],
    [[198, 18, 0, 0], 15, 'reserved'],
    [[198, 51, 100, 0], 24, 'reserved'],
    [[203, 0, 113, 0], 24, 'reserved'],
    [[224, 0, 0, 0], 4, 'multicast'],
    [[240, 0, 0, 0], 4, 'reserved'],
  ];
  for (const [base, bits, kind] of table) if (inV4(p, base, bits)) return kind;
  return 'public';
}

/** An IPv6 address as 8 groups, or null when it is not one (an embedded IPv4 tail is read). */
function parseV6(text: string): number[] | null {
  let s = text;
  if (s.includes('%')) s = s.slice(0, s.indexOf('%')); // a zone id names the interface, not the address
  if (!/^[0-9a-f:.]+$/i.test(s) || !s.includes(':')) return null;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    // An embedded IPv4 tail (::ffff:10.0.0.1) is the last two groups.
    const v4 = parseV4(s.slice(lastColon + 1));
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const known = head.length + rest.length;
  if (halves.length === 1 && known !== 8) return null;
  if (halves.length === 2 && known > 7) return null;
  const zeros = new Array<number>(8 - known).fill(0);
  return [...head.map((g) => parseInt(g, 16)), ...(halves.length === 2 ? zeros : []), ...rest.map((g) => parseInt(g, 16))];
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];

function classifyV6(g: readonly number[]): AddressKind {
  const allZero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (allZero(0, 8)) return 'unspecified';
  if (allZero(0, 7) && g[7] === 1) return 'loopback';
  if (allZero(0, 5) && g[5] === 0xffff) return classifyV4(v4Of(g[6], g[7])); // IPv4-mapped
  if (allZero(0, 6)) return 'reserved'; // IPv4-compatible (deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && allZero(2, 6)) return classifyV4(v4Of(g[6], g[7])); // NAT64
  if (g[0] === 0x2002) return classifyV4(v4Of(g[1], g[2])); // 6to4
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && allZero(2, 7) && g[7] === 0x254) return 'metadata';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private'; // unique local
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && (g[1] === 0x0db8 || g[1] === 0)) return 'reserved'; // documentation, Teredo
  if (g[0] === 0x0100 && allZero(1, 4)) return 'reserved'; // discard
  if (g[0] === 0x64 && g[1] === 0xff9b) return 'reserved'; // local-use NAT64
  return 'public';
}

/** What kind of address an IP literal is; null when the text is no IP address. */
export function classifyAddress(ip: string): AddressKind | null {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const v4 = parseV4(text);
  if (v4) return classifyV4(v4);
  const v6 = parseV6(text);
  return v6 ? classifyV6(v6) : null;
}

export const isIpLiteral = (host: string): boolean => classifyAddress(host) !== null;

/**
 * Why the addresses a host resolved to may not be called, or null when every one is public (or
 * private ones are allowed). The answer names neither the addresses nor which rule refused them:
 * told apart, a name that resolves inward and one that does not resolve at all would map the
 * service's own network for whoever saves endpoints.
 */
export function addressProblem(host: string, addresses: readonly string[], allowPrivate: boolean): string | null {
  const refused = `${host} does not resolve to a public address: webhooks are sent to public addresses only`;
  if (addresses.length === 0) return refused;
  if (allowPrivate) return null;
  return addresses.every((a) => classifyAddress(a) === 'public') ? null : refused;
}

export type UrlCheck = { ok: true; url: string; host: string } | { ok: false; message: string };

/**
 * The rules of an endpoint URL that need no lookup: an absolute http(s) URL of at most 2,000
 * characters, https when required (production), without credentials or a fragment, and a host
 * that is not a name of the machine itself or of its metadata service. An IP literal is judged
 * here too; a name is judged by what it resolves to (`addressProblem`).
 */
export function checkEndpointUrl(raw: string, opts: { requireHttps: boolean; allowPrivate: boolean }): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'must be an absolute URL (https://example.com/webhooks)' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: 'must be an http or https URL' };
  if (opts.requireHttps && url.protocol !== 'https:') return { ok: false, message: 'must be an https URL' };
  if (url.username || url.password) return { ok: false, message: 'must not carry a user name or password' };
  if (url.hash) return { ok: false, message: 'must not have a fragment (#...)' };
  const host = url.hostname;
  if (!host) return { ok: false, message: 'must name a host' };
  if (!opts.allowPrivate) {
    if (INTERNAL_NAMES.some((re) => re.test(host))) return { ok: false, message: `names ${host}, an address of the service's own network: webhooks are sent to public addresses only` };
    const kind = classifyAddress(host);
    if (kind !== null && kind !== 'public') return { ok: false, message: `is a ${kind} address: webhooks are sent to public addresses only` };
  }
  return { ok: true, url: url.toString(), host: host.startsWith('[') ? host.slice(1, -1) : host };
}
