import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, nullable, required } from './define';

/** Keys are stored as a SHA-256 hash and a short visible prefix; the plaintext exists only once. */
const ApiKeySchema = new Schema(
  {
    ...required({ _id: String, accountId: String, name: String }),
    mode: { type: String, enum: ['live', 'test'], required: true },
    ...required({ hash: String, prefix: String }),
    ...nullable({ revokedAt: Date, lastUsedAt: Date }),
  },
  { collection: 'apikeys', timestamps: true },
);

export type ApiKeyDoc = InferSchemaType<typeof ApiKeySchema>;
export const ApiKey = defineModel('ApiKey', ApiKeySchema, [
  [{ hash: 1 }, { unique: true, read: "accounts.ts:findApiKeyForAccess (a metered request's key), findApiKeyByHash", gin: { hash: 'accounts.ts:findApiKeyForAccess, findApiKeyByHash' } }],
  [{ accountId: 1 }, { read: 'accounts.ts:findApiKeysOfAccount', gin: { accountId: 'accounts.ts:findApiKeysOfAccount' } }],
]);
