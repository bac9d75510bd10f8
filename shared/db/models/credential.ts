import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * How an account signs in. `_id` is the normalised e-mail (trimmed, lower-cased): the primary key
 * makes a taken address a duplicate-key error on every server, without a unique index on a field
 * that the operator's accounts leave null.
 */
const CredentialSchema = new Schema(
  {
    _id: { type: String, required: true },
    accountId: { type: String, required: true },
    /** scrypt$N$r$p$salt$hash (shared/accounts/passwordHash.ts); never the password. */
    passwordHash: { type: String, required: true },
  },
  { timestamps: true, collection: 'credentials' },
);
CredentialSchema.index({ accountId: 1 });

export type CredentialDoc = InferSchemaType<typeof CredentialSchema>;
export const Credential = model('Credential', CredentialSchema);
