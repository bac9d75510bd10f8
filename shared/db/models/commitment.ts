import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * The commitments hash chain (shared/commitments/chain.ts), append-only: link `seq` is inserted
 * once under `_id = seq`, so two writers racing for the same position cannot both win (the unique
 * _id is the atomic compare-and-set; FerretDB 1.x has no atomic read-modify-write update). `key`
 * (`<kind>:<recordId>`, unique) makes appending the same record twice one link.
 */
const CommitmentSchema = new Schema(
  {
    /** The link's position: 0, 1, 2, ... with no gap. */
    _id: { type: Number, required: true },
    key: { type: String, required: true },
    kind: { type: String, required: true },
    recordId: { type: String, required: true },
    /** The bet the link is about (a settlement's recordId without its `@v<version>`): finds a bet's settlements. */
    subject: { type: String, required: true },
    /** The canonical record, exactly as hashed. */
    record: { type: String, required: true },
    prevHash: { type: String, required: true },
    hash: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: 'commitments', versionKey: false },
);
CommitmentSchema.index({ key: 1 }, { unique: true });
CommitmentSchema.index({ subject: 1, kind: 1 });

export type CommitmentDoc = InferSchemaType<typeof CommitmentSchema>;
export const Commitment = model('Commitment', CommitmentSchema);
