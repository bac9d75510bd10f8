import { Schema, type InferSchemaType } from 'mongoose';
import { defineModel, required } from './define';

/**
 * The commitments hash chain (shared/domain/commitments/chain.ts), append-only: link `seq` is inserted
 * once under `_id = seq`, so two writers racing for the same position cannot both win (the unique
 * _id is the atomic compare-and-set; FerretDB 1.x has no atomic read-modify-write update). `key`
 * (`<kind>:<recordId>`, unique) makes appending the same record twice one link.
 */
const CommitmentSchema = new Schema(
  {
    /** The link's position: 0, 1, 2, ... with no gap. */
    _id: { type: Number, required: true },
    /**
     * subject: the bet the link is about (a settlement's recordId without its `@v<version>`);
     * record: the canonical record, exactly as hashed.
     */
    ...required({ key: String, kind: String, recordId: String, subject: String, record: String, prevHash: String, hash: String, at: Date }),
  },
  { collection: 'commitments', versionKey: false },
);

export type CommitmentDoc = InferSchemaType<typeof CommitmentSchema>;
export const Commitment = defineModel('Commitment', CommitmentSchema, [
  [{ key: 1 }, { unique: true, read: 'commitments.ts:findLinkedKeys, findLinkOf', gin: { key: 'commitments.ts:findLinkedKeys (one equality per key), findLinkOf' } }],
  [
    { subject: 1, kind: 1 },
    {
      read: 'commitments.ts:findSettlementLinksOf (subject, kind)',
      gin: { subject: 'commitments.ts:findSettlementLinksOf', kind: 'commitments.ts:findSettlementLinksOf; to review: a few kinds, not selective' },
    },
  ],
]);
