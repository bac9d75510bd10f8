import { Session } from '../models';

/** Sessions by the hash of their id (the id itself is never stored). */

export async function createSessionDocument(doc: { _id: string; accountId: string; csrfToken: string; expiresAt: Date }) {
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

/** Removes what the TTL index would, for a server that does not expire documents (FerretDB 1.x). */
export async function deleteExpiredSessions(now = new Date()): Promise<number> {
  return (await Session.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
}
