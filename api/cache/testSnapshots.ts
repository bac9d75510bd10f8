import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { getConfig } from '../../shared/platform/config';
import { key, redis } from '../../shared/platform/db/redis';
import { normalizeQuery } from './pageCache';

/**
 * What test keys read: snapshots. The first test-key request for an answer (a path with its
 * validated query and parameters) renders it as a live key would get it; for TEST_KEY_SNAPSHOT_S
 * after, every test key asking the same thing gets that same answer, with `Age` (seconds since it
 * was rendered) and `X-Data-Delayed: true`. Test keys thus build against the real shapes and real
 * data, but not a live feed: prices and scores that move within the window reach them late. Kept in
 * Redis, shared by every web process; only answers under 400 are kept (a 404 is rendered anew).
 */
export interface Snapshot {
  status: number;
  contentType: string;
  body: Buffer;
  /** Epoch ms of the rendering. */
  at: number;
}

/** The snapshot's key: the route's path with its validated query and parameters (objects of the validators). */
export function snapshotKey(path: string, query: unknown, params: unknown): string {
  const text = (o: unknown) => normalizeQuery(typeof o === 'object' && o !== null ? Object.fromEntries(Object.entries(o)) : {});
  const hash = createHash('sha1')
    .update(`${text(query)}|${text(params)}`)
    .digest('base64url');
  return key('test-snapshot', path, hash);
}

export async function findSnapshot(k: string): Promise<Snapshot | null> {
  const raw = await redis().getBuffer(k);
  if (!raw) return null;
  const nl = raw.indexOf(10);
  const head: unknown = JSON.parse(raw.subarray(0, nl).toString());
  // The header line keepSnapshot writes; anything else is no snapshot (it is rendered anew).
  if (typeof head !== 'object' || head === null) return null;
  if (!('status' in head && typeof head.status === 'number' && 'contentType' in head && typeof head.contentType === 'string' && 'at' in head && typeof head.at === 'number')) return null;
  return { status: head.status, contentType: head.contentType, at: head.at, body: raw.subarray(nl + 1) };
}

/** Keeps a rendered answer unless another process kept one first; returns the one kept. */
export async function keepSnapshot(k: string, snap: Snapshot): Promise<Snapshot> {
  if (snap.status >= 400) return snap;
  const header = Buffer.from(`${JSON.stringify({ status: snap.status, at: snap.at, contentType: snap.contentType })}\n`);
  const first = await redis().set(k, Buffer.concat([header, snap.body]), 'EX', getConfig().TEST_KEY_SNAPSHOT_S, 'NX');
  return first === 'OK' ? snap : ((await findSnapshot(k)) ?? snap);
}

export function sendSnapshot(res: Response, snap: Snapshot): void {
  res.writeHead(snap.status, {
    'Content-Type': snap.contentType,
    'Content-Length': snap.body.length,
    Age: String(Math.max(0, Math.floor((Date.now() - snap.at) / 1000))),
    'X-Data-Delayed': 'true',
  });
  res.end(snap.body);
}
