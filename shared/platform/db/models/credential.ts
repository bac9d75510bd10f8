import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/**
 * How an account signs in. `_id` is the normalised e-mail (trimmed, lower-cased): the primary key
 * makes a taken address a duplicate-key error on every server, without a unique index on a field
 * that the operator's accounts leave null. `passwordHash` is scrypt$N$r$p$salt$hash
 * (shared/domain/accounts/passwordHash.ts), never the password.
 */
const CredentialSchema = new Schema({ ...required({ _id: String, accountId: String, passwordHash: String }) }, { timestamps: true, collection: 'credentials' });

export type CredentialDoc = InferSchemaType<typeof CredentialSchema>;
export const Credential = defineModel('Credential', CredentialSchema, [[{ accountId: 1 }, { read: 'accounts.ts:findCredentialOfAccount', gin: { accountId: 'accounts.ts:findCredentialOfAccount' } }]]);
