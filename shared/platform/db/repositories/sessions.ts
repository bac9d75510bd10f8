import { Session } from '../models';

/** Sessions by the hash of their id (the id itself is never stored). */

const SWEEP_EVERY_MS = 60 * 60 * 1000;
let expiry: Promise<'ttl' | 'sweep'> | undefined;
let lastSweep = 0;

/**
 * The TTL index, created here rather than declared on the schema: FerretDB 1.x refuses the option
 * and a declared one would stop every connect. Where it is refused, expired sessions are swept
 * by the writers instead (at most hourly per process).
 */
function ensureExpiry(): Promise<'ttl' | 'sweep'> {
  expiry ??= Session.collection
    .createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, name: 'expiresAt_ttl' })
    .then(() => 'ttl' as const)
    .catch(() => 'sweep' as const);
  return expiry;
}

export async function createSessionDocument(doc: { _id: string; accountId: string; csrfToken: string; expiresAt: Date }) {
  if ((await ensureExpiry()) === 'sweep' && Date.now() - lastSweep > SWEEP_EVERY_MS) {
    lastSweep = Date.now();
    await deleteExpiredSessions();
  }
  return Session.create(doc);
}

/** The session of this id hash, or null; an expired one is null even while the store still keeps it. */
export async function findLiveSession(idHash: string, now = new Date()) {
  const doc = await Session.findById(idHash).lean();
  return doc && doc.expiresAt > now ? doc : null;
}

export async function deleteSession(idHash: string): Promise<void> {
  await Session.deleteOne({ _id: idHash });
}

/** Removes what a TTL index would. */
export async function deleteExpiredSessions(now = new Date()): Promise<number> {
  return (await Session.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
}
