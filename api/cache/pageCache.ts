import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress as brotliCb, constants as zlib, gzip as gzipCb } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { CACHE_SCOPES, cacheVersionKey, type CacheScope } from '../../shared/platform/cache/versions';
import { execAll, key, redis } from '../../shared/platform/db/redis';
import { atTurnEnd } from '../../shared/platform/db/turn';
import { errorMessage } from '../../shared/platform/errorFields';
import { processMemo } from '../../shared/platform/processScope';
import { childLogger } from '../../shared/platform/logger';
import { ApiError } from '../errors';

const gzip = promisify(gzipCb);
const brotliCompress = promisify(brotliCb);
// Quality 5: about gzip's speed with smaller output; 11 (the default) takes ~0.4 s for a 187 KB page,
// which the first reader of each new page version would wait for.
const brotli = (body: Buffer) => brotliCompress(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
const log = () => childLogger({ component: 'page-cache' });

/**
 * Rendered pages of the read API, serialized once per cache entry. Two tiers:
 * - Redis, shared by every web process: `<prefix>:cache:page:<endpoint>:<hash of the normalized query>`
 *   holding `<versions>\n<json>`, expiring after CACHE_TTL_S;
 * - this process's memory, the same bytes (and their gzip form, made on first demand), bounded.
 * A page is served only while the versions it was rendered from are still current: each request
 * reads the scope versions from Redis (one round trip of a few bytes), so a writer's INCR shows on
 * the very next request. Concurrent misses of one page in a process render it once.
 */
export interface Page {
  /** 200, or 404 for a cached "not found" (a provider without a snapshot yet): both change only with the data. */
  status: number;
  body: Buffer;
  versions: string;
  expiresAt: number;
  /** The compressed forms and the entity tag, each made once per page (per process) on first demand. */
  gzipped?: Promise<Buffer>;
  brotli?: Promise<Buffer>;
  /** The compressed forms once made: sent without waiting on a promise. */
  made?: { gzip?: Buffer; br?: Buffer };
  etag?: string;
}

export type CacheOutcome = 'HIT' | 'MISS' | 'BYPASS';

const MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;
// In the process scope (shared/platform/processScope.ts): a test file with stores of its own starts empty.
const tier = processMemo(() => ({ pages: new Map<string, Page>(), bytes: 0 }));
const inFlight = new Map<string, Promise<Page>>();

export const cacheStats = { memoryHits: 0, redisHits: 0, misses: 0, bypasses: 0 };

function remember(pageKey: string, page: Page): void {
  const memory = tier();
  const old = memory.pages.get(pageKey);
  if (old) memory.bytes -= old.body.length;
  memory.pages.delete(pageKey);
  memory.pages.set(pageKey, page);
  memory.bytes += page.body.length;
  // Map iteration order is insertion order: the first entries are the least recently used.
  for (const [k, p] of memory.pages) {
    if (memory.bytes <= MEMORY_BUDGET_BYTES) break;
    memory.pages.delete(k);
    memory.bytes -= p.body.length;
  }
}

/** This process's copy of a page, if it is of these versions and not expired (counted as a memory hit). */
export function pageInMemory(k: string, versions: string): Page | undefined {
  const memory = tier().pages;
  const mem = memory.get(k);
  if (!mem || mem.versions !== versions || mem.expiresAt <= Date.now()) return undefined;
  cacheStats.memoryHits++;
  memory.delete(k); // most recently used last
  memory.set(k, mem);
  return mem;
}

/** Stable text of a validated query: keys sorted, list values deduplicated and sorted. */
export function normalizeQuery(query: Record<string, unknown>): string {
  const entries = Object.keys(query)
    .sort()
    .filter((k) => query[k] !== undefined)
    .map((k) => {
      const v = query[k];
      return [k, Array.isArray(v) ? [...new Set(v.map(String))].sort() : v];
    });
  return JSON.stringify(entries);
}

export function pageKey(endpoint: string, normalizedQuery: string): string {
  const hash = createHash('sha1').update(normalizedQuery).digest('base64url');
  return key('cache', 'page', endpoint, hash);
}

/**
 * The scope versions as of now: requests arriving in the same event-loop turn share one MGET,
 * sent after all of them arrived (with the turn's other Redis work: shared/platform/db/turn.ts),
 * so none can be answered with a version older than its arrival.
 */
let versionsRead: Promise<Map<CacheScope, string>> | undefined;

export function readVersions(): Promise<Map<CacheScope, string>> {
  versionsRead ??= new Promise((resolve, reject) => {
    atTurnEnd(() => {
      versionsRead = undefined;
      redis()
        .mget(...CACHE_SCOPES.map(cacheVersionKey))
        .then((values) => resolve(new Map(CACHE_SCOPES.map((s, i) => [s, values[i] ?? '0']))), reject);
    });
  });
  return versionsRead;
}

/** The versions of `scopes` from a read sent after the request arrived (`read`: one begun at its arrival), as one string (equal strings: the same data). */
export async function currentVersions(scopes: readonly CacheScope[], read: Promise<Map<CacheScope, string>> = readVersions()): Promise<string> {
  const all = await read;
  return scopes.map((s) => all.get(s)).join('.');
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express types res.locals through this global namespace
  namespace Express {
    interface Locals {
      /** The page cache's versions read begun when the request arrived (versionsAtArrival). */
      versionsRead?: Promise<Map<CacheScope, string>>;
    }
  }
}

/**
 * Begins the versions read of a GET as it arrives, in the same turn as its key check, so the two
 * travel in one round trip (shared/platform/db/turn.ts) and the cached page waits for no second one.
 */
export function versionsAtArrival(): RequestHandler {
  return (req, res, next) => {
    // One begun by the hot path (api/cache/hotReads.ts) is that of this request's arrival.
    if ((req.method === 'GET' || req.method === 'HEAD') && !res.locals.versionsRead) {
      const read = readVersions();
      read.catch(() => undefined); // a request that never reads a page (a 401, the detail view) leaves it unobserved
      res.locals.versionsRead = read;
    }
    next();
  };
}

/** Stored as `<versions> <status>\n<json>`. */
async function fromRedis(k: string, versions: string): Promise<Page | undefined> {
  const [raw, pttl] = await execAll(redis().multi().getBuffer(k).pttl(k), 'page read');
  if (!Buffer.isBuffer(raw) || typeof pttl !== 'number') return undefined;
  const nl = raw.indexOf(10);
  const [storedVersions, status] = raw.subarray(0, Math.max(0, nl)).toString().split(' ');
  if (nl < 0 || storedVersions !== versions) return undefined;
  return { status: Number(status), body: raw.subarray(nl + 1), versions, expiresAt: Date.now() + Math.max(0, pttl) };
}

/** The body to cache: the rendered page, or the error body of a 404 (any other error is thrown). */
export async function renderBody(render: () => Promise<unknown>): Promise<{ status: number; body: Buffer }> {
  try {
    return { status: 200, body: Buffer.from(JSON.stringify(await render())) };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { status: 404, body: Buffer.from(JSON.stringify(err.toBody())) };
    throw err;
  }
}

async function renderAndStore(k: string, versions: string, ttlS: number, render: () => Promise<unknown>): Promise<Page> {
  const { status, body } = await renderBody(render);
  const page: Page = { status, body, versions, expiresAt: Date.now() + ttlS * 1000 };
  remember(k, page);
  await redis()
    .set(k, Buffer.concat([Buffer.from(`${versions} ${status}\n`), body]), 'EX', ttlS)
    .catch((err: unknown) => log().warn({ err: errorMessage(err) }, 'page not stored in redis'));
  return page;
}

/**
 * The page for (endpoint, query) rendered from data at the scopes' current versions: from memory,
 * else Redis, else `render()` (once per process however many requests wait for it). When Redis is
 * unreachable the page is rendered for this request alone (never a 500 because of the cache).
 */
export async function cachedPage(
  endpoint: string,
  query: Record<string, unknown>,
  scopes: readonly CacheScope[],
  render: () => Promise<unknown>,
  /** How long a page is kept (CACHE_TTL_S); 0: not cached at all. */
  ttlS: number,
  /** The versions read begun when the request arrived (with its key check: one round trip for both), else one now. */
  versionsRead?: Promise<Map<CacheScope, string>>,
): Promise<{ page: Page; outcome: CacheOutcome }> {
  const bypass = async () => {
    cacheStats.bypasses++;
    return { page: { ...(await renderBody(render)), versions: '', expiresAt: 0 }, outcome: 'BYPASS' as const };
  };
  if (ttlS <= 0) return bypass();
  const k = pageKey(endpoint, normalizeQuery(query));
  let versions: string;
  try {
    versions = await currentVersions(scopes, versionsRead);
  } catch (err) {
    log().warn({ err: errorMessage(err) }, 'cache versions unavailable: rendering uncached');
    return bypass();
  }
  const mem = pageInMemory(k, versions);
  if (mem) return { page: mem, outcome: 'HIT' };
  const flightKey = `${k}|${versions}`;
  let pending = inFlight.get(flightKey);
  if (pending) return { page: await pending, outcome: 'HIT' };
  let outcome: CacheOutcome = 'HIT';
  pending = (async () => {
    const stored = await fromRedis(k, versions).catch(() => undefined);
    if (stored && stored.expiresAt > Date.now()) {
      cacheStats.redisHits++;
      remember(k, stored);
      return stored;
    }
    cacheStats.misses++;
    outcome = 'MISS';
    return renderAndStore(k, versions, ttlS, render);
  })();
  inFlight.set(flightKey, pending);
  try {
    return { page: await pending, outcome };
  } finally {
    inFlight.delete(flightKey);
  }
}

const COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip' | 'identity';

const encodingOf = new Map<string, Encoding>();

/** preferredEncoding of a header, remembered (clients send a handful of distinct values). */
function encodingFor(header: string | undefined): Encoding {
  if (header === undefined) return 'identity';
  let e = encodingOf.get(header);
  if (e === undefined) {
    e = preferredEncoding(header);
    if (encodingOf.size >= 256) encodingOf.clear();
    encodingOf.set(header, e);
  }
  return e;
}

/** The encoding to send for an Accept-Encoding header (pure): brotli, else gzip, unless refused with q=0. */
export function preferredEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : 'identity';
}

/** The page's entity tag: weak (its gzip and brotli forms are the same entity), from the identity bytes. */
const etagOf = (page: Page) => (page.etag ??= `W/"${createHash('sha1').update(page.body).digest('base64url')}"`);

/** Whether If-None-Match names this tag (weak comparison, as RFC 9110 asks for If-None-Match). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/**
 * Sends a rendered page: the same bytes for every request, its gzip or brotli form made once per
 * page when first asked for. A 200 page carries its ETag; a request naming it in If-None-Match gets
 * 304 without a body (still a served request: docs/metering.md says what it costs).
 */
export function sendPage(req: IncomingMessage, res: ServerResponse, page: Page, outcome: CacheOutcome, extra?: Record<string, string>): Promise<void> | undefined {
  const headers: Record<string, string | number> = { ...extra, 'Content-Type': 'application/json; charset=utf-8', 'X-Cache': outcome, Vary: 'Accept-Encoding' };
  if (page.status === 200) {
    headers.ETag = etagOf(page);
    if (matches(req.headers['if-none-match'], headers.ETag)) {
      res.writeHead(304, { ...extra, ETag: headers.ETag, 'X-Cache': outcome, Vary: 'Accept-Encoding' });
      res.end();
      return;
    }
  }
  const encoding = page.body.length >= COMPRESS_MIN_BYTES ? encodingFor(req.headers['accept-encoding']) : 'identity';
  if (encoding === 'identity') return write(res, page.status, headers, page.body);
  headers['Content-Encoding'] = encoding;
  const made = page.made?.[encoding];
  // The headers go out in one writeHead: nothing set before it on the hot path (Node's fast path).
  if (made) return write(res, page.status, headers, made);
  const making = encoding === 'br' ? (page.brotli ??= brotli(page.body)) : (page.gzipped ??= gzip(page.body));
  return making.then((bytes) => {
    (page.made ??= {})[encoding] = bytes;
    write(res, page.status, headers, bytes);
  });
}

function write(res: ServerResponse, status: number, headers: Record<string, string | number>, body: Buffer): undefined {
  headers['Content-Length'] = body.length;
  res.writeHead(status, headers);
  res.end(body);
  return undefined;
}

/** Validated query in, cached JSON out: the whole of a cached read handler. */
export async function sendCached(
  req: Request,
  res: Response,
  endpoint: string,
  query: Record<string, unknown>,
  scopes: readonly CacheScope[],
  render: () => Promise<unknown>,
  ttlS: number,
): Promise<void> {
  const { page, outcome } = await cachedPage(endpoint, query, scopes, render, ttlS, res.locals.versionsRead);
  await sendPage(req, res, page, outcome);
}
