import type { Collection, Document } from 'mongodb';
import type { Connection } from 'mongoose';

/**
 * A model's collection through the driver (no mongoose casting, defaults or validation), its
 * documents typed as the caller writes and reads them there: string ids, an earlier layout's
 * fields. The connection keeps one collection object per name, so this is the model's own.
 */
export function driverCollection<T extends Document = Document>(model: { db: Connection; collection: { collectionName: string } }): Collection<T> {
  return model.db.collection<T>(model.collection.collectionName);
}
