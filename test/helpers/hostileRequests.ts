import { COST_TABLE } from '../../shared/domain/billing/costs';
import { rng } from './fixtures';

/**
 * Seeded random and hostile HTTP requests against the API's own paths, as raw bytes: what a
 * careless or malicious client can send. Used by the fuzz test (bounded, asserts the contract)
 * and by `npm run bench:hostile` (latency of the same mix).
 */

export interface HostileRequest {
  kind: string;
  method: string;
  bytes: Buffer;
}

const PARAMS = [
  'sport',
  'status',
  'limit',
  'offset',
  'page',
  'date',
  'startDate',
  'endDate',
  'timezone',
  'locale',
  'minEdge',
  'competitionId',
  'regionId',
  'teamId',
  'market',
  'confidence',
  'search',
  'sort',
  'days',
  'wrap',
  'eventIds',
];
const HOSTILE_NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '$where', '$ne', 'sport[$ne]', '__proto__[x]', 'a[b][c]', '', '=', '&'];
const VALUES = [
  '',
  '1',
  '-1',
  '0',
  '99999999999999999999',
  '1e3',
  '0x10',
  ' 7',
  'NaN',
  'Infinity',
  'soccer',
  'SOCCER',
  'live',
  'upcoming',
  '2026-02-30',
  '2026-11-25',
  '2026-11-25T10:00:00Z',
  'Europe/Madrid',
  'Mars/Olympus',
  'en',
  'xx',
  'true',
  'null',
  '[]',
  '{}',
  '{"$gt":""}',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '%',
  '%ZZ',
  '%E0%A4%A',
  '%C3%A9',
  '%F0%9F%98%80',
  'a,b,,c',
  ',',
];
const SEGMENTS = ['123', '0', '-1', 'abc', '%2e%2e', '..', '%00', '%ZZ', '%C3%A9', 'x'.repeat(300), '999999999999999999999', '$where', '__proto__', '', ' '];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

export interface Known {
  /** A funded live key and a test key. */
  live: string;
  test: string;
  /** Ids of events that exist, so some requests reach the handlers' data. */
  eventIds: string[];
}

export function hostileRequests(seed: number, count: number, keys: Known): HostileRequest[] {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  // A stream (priced per minute) answers a valid request with a body that never ends: not in the mix.
  const paths = COST_TABLE.filter((r) => !('per' in r)).map((r) => r.path);
  const out: HostileRequest[] = [];
  for (let i = 0; i < count; i++) {
    const method = pick(METHODS);
    const [kind, target, headers] = makeOne(rand, pick, paths, keys);
    const rest = ` HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
    out.push({ kind, method, bytes: Buffer.concat([Buffer.from(`${method} `), target, Buffer.from(rest, 'latin1')]) });
  }
  return out;
}

function makeOne(rand: () => number, pick: <T>(xs: readonly T[]) => T, paths: string[], keys: Known): [string, Buffer, string[]] {
  const auth = pick([
    `Authorization: Bearer ${keys.live}`,
    `Authorization: Bearer ${keys.live}`,
    `Authorization: Bearer ${keys.test}`,
    '',
    'Authorization: Bearer sk_live_' + 'A'.repeat(32),
    'Authorization: Bearer nope',
    'Authorization: Basic YTpi',
    `Authorization: bearer  ${keys.live}  `,
  ]);
  const headers = auth ? [auth] : [];
  let path = pick(paths).replace(/\{[A-Za-z]+\}/g, () => (rand() < 0.5 && keys.eventIds.length ? pick(keys.eventIds) : pick(SEGMENTS)));
  const r = rand();
  if (r < 0.45) {
    // Parameters: known and unknown names, good and bad values, repeats, nesting.
    const n = Math.floor(rand() * 5);
    const parts: string[] = [];
    for (let j = 0; j < n; j++) parts.push(`${rand() < 0.7 ? pick(PARAMS) : pick(HOSTILE_NAMES)}=${pick(VALUES)}`);
    if (rand() < 0.2 && parts.length) parts.push(parts[0]);
    return ['parameters', Buffer.from(`${path}${parts.length ? `?${parts.join('&')}` : ''}`, 'latin1'), headers];
  }
  if (r < 0.6) {
    // Raw bytes a client library would have percent-encoded.
    const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 6) }, () => 0x80 + Math.floor(rand() * 0x80)));
    const where = rand() < 0.5 ? Buffer.concat([Buffer.from(`${path}/`), bytes]) : Buffer.concat([Buffer.from(`${path}?sport=`), bytes]);
    return ['raw bytes', where, headers];
  }
  if (r < 0.68) {
    // Oversize: a long query value or path, or a large header.
    const size = pick([9 * 1024, 17 * 1024, 40 * 1024, 70 * 1024]);
    if (rand() < 0.35) return ['oversize header', Buffer.from(path), [...headers, `X-Fill: ${'h'.repeat(size)}`]];
    return ['oversize line', Buffer.from(rand() < 0.5 ? `${path}?search=${'q'.repeat(size)}` : `${path}/${'p'.repeat(size)}`), headers];
  }
  if (r < 0.76) {
    // Malformed header lines.
    const bad = pick([
      'Bad Name: 1',
      'X-Ctl: a\x01b',
      'X-Nul: \x00',
      ': empty-name',
      'X-Obs-Fold: a\r\n folded',
      'Content-Length: -1',
      'Content-Length: 1, 2',
      'Transfer-Encoding: gzip, chunked',
      'Expect: 101-switch',
      'Host: a\r\nHost: b',
    ]);
    return ['malformed header', Buffer.from(path), [...headers, bad]];
  }
  if (r < 0.84) {
    // Path games: case, slashes, dot segments, encoded separators.
    path = pick([path.toUpperCase(), `${path}/`, `${path}//`, path.replace('/v2', '/v2/.'), path.replace('/v2/', '/v2/%2F'), `/${path}`, path.replace('/v2', '/V2'), `${path}#frag`, `${path}?`]);
    return ['path variants', Buffer.from(path, 'latin1'), headers];
  }
  // Plain requests, some to unknown paths.
  return ['plain', Buffer.from(rand() < 0.8 ? path : `/v2/${pick(SEGMENTS)}/${pick(SEGMENTS)}`, 'latin1'), headers];
}
