import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { key, redis } from '../../shared/platform/db/redis';
import { errorMessage } from '../../shared/platform/errorFields';
import { childLogger } from '../../shared/platform/logger';
import { ApiError } from '../errors';
import { normalizeQuery } from './pageCache';

/**
 * What test keys read: data delayed by D = TEST_KEY_SNAPSHOT_S seconds, per data version, not per
 * URL (docs/metering.md, "What test keys are for"). Each answer (a path with its validated query
 * and parameters) keeps a chain of renderings in Redis, each with the time its data became
 * current (`dataFrom`): the time it was rendered, or, for a page of the page cache, the time the
 * data versions it was rendered from became current (shared/platform/cache/versions.ts), earlier
 * when nothing changed since. A test key is served the newest rendering whose data is at least D
 * old (`Age`: how old, `X-Data-Delayed: true`), never a younger one:
 * - an answer rendered from data versions current for D already is served at once, whatever URL
 *   first asks for it (nothing changed in D: the data is as old as the delay);
 * - otherwise, with no rendering ripe yet (an answer never asked before, data just changed), the
 *   answer is a 503 `test_data_pending` with `Retry-After` the seconds until its rendering ripens;
 * - a new rendering is made after answering once the newest is D/2 old, so the data a test key
 *   reads stays between D and about 1.5 D old while it keeps asking.
 * Shared by every web process; only answers under 400 are kept (an error is answered as rendered).
 */
export interface Rendering {
  status: number;
  contentType: string;
  body: Buffer;
  /** Epoch ms of the rendering. */
  at: number;
  /** Epoch ms since which the data it shows has been current (<= at). */
  dataFrom: number;
  /** Headers of its own (a text answer's). */
  headers?: Record<string, string>;
}

/** Renderings kept this many delays after the last one was added (a chain no one asks for goes). */
const KEEP_DELAYS = 3;
/** At most this many renderings per answer. */
const MAX_CHAIN = 6;

const log = () => childLogger({ component: 'test-snapshots' });

/** The answer's chain: the route's path with its validated query and parameters (objects of the validators). */
export function renderingsKey(path: string, query: unknown, params: unknown): string {
  const text = (o: unknown) => normalizeQuery(typeof o === 'object' && o !== null ? Object.fromEntries(Object.entries(o)) : {});
  const hash = createHash('sha1')
    .update(`${text(query)}|${text(params)}`)
    .digest('base64url');
  return key('test-renderings', path, hash);
}

/** The lock of a chain's next rendering (one per half delay across processes). */
const nextLockKey = (k: string) => `${k}:next`;

interface Entry {
  field: string;
  dataFrom: number;
  at: number;
}

/** A chain's renderings by their field names, `<dataFrom>-<at>` (no body read). */
async function entriesOf(k: string): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const field of await redis().hkeys(k)) {
    const m = /^(\d+)-(\d+)$/.exec(field);
    if (m) out.push({ field, dataFrom: Number(m[1]), at: Number(m[2]) });
  }
  return out;
}

/** The newest entry whose data is at least `delayMs` old at `now`. */
function newestRipe(entries: readonly Entry[], now: number, delayMs: number): Entry | undefined {
  let best: Entry | undefined;
  for (const e of entries) if (e.dataFrom <= now - delayMs && (!best || e.dataFrom > best.dataFrom || (e.dataFrom === best.dataFrom && e.at > best.at))) best = e;
  return best;
}

async function readRendering(k: string, e: Entry): Promise<Rendering | undefined> {
  const raw = await redis().hgetBuffer(k, e.field);
  if (!raw) return undefined;
  const nl = raw.indexOf(10);
  const head: unknown = JSON.parse(raw.subarray(0, nl).toString());
  if (typeof head !== 'object' || head === null || !('status' in head && typeof head.status === 'number' && 'contentType' in head && typeof head.contentType === 'string')) return undefined;
  const headers =
    'headers' in head && typeof head.headers === 'object' && head.headers !== null
      ? Object.fromEntries(Object.entries(head.headers).filter((x): x is [string, string] => typeof x[1] === 'string'))
      : undefined;
  return { status: head.status, contentType: head.contentType, headers, at: e.at, dataFrom: e.dataFrom, body: raw.subarray(nl + 1) };
}

/**
 * Adds a rendering to its chain and drops what no request will be served again: renderings
 * superseded by a newer ripe one, one of the same data kept (the newest), at most MAX_CHAIN.
 */
async function keep(k: string, r: Rendering, delayMs: number): Promise<void> {
  const header = Buffer.from(`${JSON.stringify({ status: r.status, contentType: r.contentType, ...(r.headers && Object.keys(r.headers).length ? { headers: r.headers } : {}) })}\n`);
  const field = `${r.dataFrom}-${r.at}`;
  const now = Date.now();
  const all = [...(await entriesOf(k)).filter((e) => e.field !== field), { field, dataFrom: r.dataFrom, at: r.at }];
  const ripe = newestRipe(all, now, delayMs);
  const sameData = new Map<number, Entry>();
  for (const e of all) {
    const seen = sameData.get(e.dataFrom);
    if (!seen || e.at > seen.at) sameData.set(e.dataFrom, e);
  }
  const kept = all
    .filter((e) => sameData.get(e.dataFrom) === e && !(ripe && e.dataFrom < ripe.dataFrom))
    .sort((a, b) => b.dataFrom - a.dataFrom)
    .slice(0, MAX_CHAIN);
  const drop = all.filter((e) => !kept.includes(e)).map((e) => e.field);
  const multi = redis().multi();
  if (kept.some((e) => e.field === field)) multi.hset(k, field, Buffer.concat([header, r.body]));
  if (drop.length) multi.hdel(k, ...drop);
  multi.pexpire(k, Math.max(KEEP_DELAYS * delayMs, 10_000));
  await multi.exec();
}

export type TestAnswer =
  /** A rendering old enough: send it (sendRendering). */
  | { kind: 'rendering'; rendering: Rendering }
  /** An error the handler rendered (a cached 404): sent as it is, not kept. */
  | { kind: 'error'; rendering: Rendering }
  /** No rendering old enough yet: the 503 (pendingError). */
  | { kind: 'pending'; retryAfterS: number }
  /** The handler sent its answer itself (a redirect). */
  | { kind: 'sent' };

/** Renders the answer for a test key: undefined when the handler sent it itself. */
export type Render = (mode: 'inline' | 'background') => Promise<Rendering | undefined>;

/** What a test key is answered for chain `k` with a delay of `delayS` seconds (> 0). */
export async function testKeyAnswer(k: string, delayS: number, render: Render): Promise<TestAnswer> {
  const delayMs = delayS * 1000;
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Date.now();
    const entries = await entriesOf(k);
    const ripe = newestRipe(entries, now, delayMs);
    if (ripe) {
      const rendering = await readRendering(k, ripe);
      if (!rendering) continue; // dropped meanwhile by a newer ripe one: read the chain again
      renderNextIfDue(k, entries, now, delayMs, render);
      return { kind: 'rendering', rendering };
    }
    if (entries.length) return { kind: 'pending', retryAfterS: secondsUntil(Math.min(...entries.map((e) => e.dataFrom)) + delayMs, now) };
    break;
  }
  // Nothing kept: render it now (a page of the page cache is rendered once however many ask).
  // Its data may already be old enough: a data version that has not changed for the delay.
  const rendering = await render('inline');
  if (!rendering) return { kind: 'sent' };
  if (rendering.status >= 400) return { kind: 'error', rendering };
  await keep(k, rendering, delayMs);
  const now = Date.now();
  if (rendering.dataFrom <= now - delayMs) return { kind: 'rendering', rendering };
  return { kind: 'pending', retryAfterS: secondsUntil(rendering.dataFrom + delayMs, now) };
}

const secondsUntil = (ms: number, now: number) => Math.max(1, Math.ceil((ms - now) / 1000));

/** After answering: the chain's next rendering, when its newest is half a delay old, once across processes. */
function renderNextIfDue(k: string, entries: readonly Entry[], now: number, delayMs: number, render: Render): void {
  const newest = Math.max(...entries.map((e) => e.at));
  if (newest > now - delayMs / 2) return;
  void (async () => {
    if ((await redis().set(nextLockKey(k), '1', 'PX', Math.max(1000, Math.floor(delayMs / 2)), 'NX')) !== 'OK') return;
    const rendering = await render('background');
    if (rendering && rendering.status < 400) await keep(k, rendering, delayMs);
  })().catch((err: unknown) => log().warn({ err: errorMessage(err) }, 'next test-key rendering failed'));
}

export function sendRendering(res: Response, r: Rendering, delayed: boolean): void {
  res.writeHead(r.status, {
    ...r.headers,
    'Content-Type': r.contentType,
    'Content-Length': r.body.length,
    ...(delayed ? { Age: String(Math.max(0, Math.floor((Date.now() - r.dataFrom) / 1000))), 'X-Data-Delayed': 'true' } : {}),
  });
  res.end(r.body);
}

/** The 503 of an answer with no rendering old enough yet. */
export function pendingError(delayS: number, retryAfterS: number): ApiError {
  return new ApiError(
    'TEST_DATA_PENDING',
    `Test keys read data delayed by ${delayS} seconds, and no data of this answer is that old yet: it will be ready in ${retryAfterS} seconds. A live key reads live data.`,
    {},
    // Marked as the test feed's answer: the request log counts it as an answer, not a fault.
    { 'Retry-After': String(retryAfterS), 'X-Data-Delayed': 'true' },
  );
}
