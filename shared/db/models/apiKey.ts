import { Schema, model, type InferSchemaType } from 'mongoose';

/** Keys are stored as a SHA-256 hash and a short visible prefix; the plaintext exists only once. */
const ApiKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    name: { type: String, required: true },
    mode: { type: String, enum: ['live', 'test'], required: true },
    hash: { type: String, required: true },
    prefix: { type: String, required: true },
    revokedAt: { type: Date, default: null },
    lastUsedAt: { type: Date, default: null },
  },
  { timestamps: true, collection: 'apikeys' },
);
ApiKeySchema.index({ hash: 1 }, { unique: true });
ApiKeySchema.index({ accountId: 1 });

export type ApiKeyDoc = InferSchemaType<typeof ApiKeySchema>;
export const ApiKey = model('ApiKey', ApiKeySchema);
