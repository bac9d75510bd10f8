import type { Model, ProjectionType } from 'mongoose';
import { chunks } from './bulk';
import { isFerretDB } from './server';

/**
 * FerretDB 1.24 pushes no `$in` down to SQL: `{ f: { $in: [...] } }` reads and decodes the whole
 * collection in FerretDB for every call, however few values it names (measured on the live chain
 * at demo speed: the AI worker's `$in` lookups of recommendations and chain links made FerretDB
 * the busiest process and polls 20x slower). An equality filter is pushed down and served by the
 * GIN index of shared/platform/db/ferretIndexes.ts, so a short list is looked up one value at a time, a few
 * at once. A long list, and any list on MongoDB, is one `$in` query.
 */
const FERRET_EQUALITY_MAX = 100;
const FERRET_PARALLEL = 8;

/**
 * Lean documents whose `field` equals one of `values` and that match `and` (equalities, as the
 * callers pass), each document once, in no particular order.
 */
export async function findWhereIn<T extends object>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>,
  field: string,
  values: readonly unknown[],
  projection?: ProjectionType<unknown>,
  and: Record<string, unknown> = {},
): Promise<T[]> {
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return [];
  if (distinct.length > FERRET_EQUALITY_MAX || !(await isFerretDB())) return model.find({ ...and, [field]: { $in: distinct } }, projection).lean<T[]>();
  const out: T[] = [];
  const seen = new Set<string>();
  for (const part of chunks(distinct, FERRET_PARALLEL)) {
    for (const docs of await Promise.all(part.map((v) => model.find({ ...and, [field]: v }, projection).lean<T[]>()))) {
      for (const d of docs) {
        const id = String('_id' in d ? d._id : undefined);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(d);
      }
    }
  }
  return out;
}

/**
 * `updateMany` of the documents whose `_id` is one of `ids` and that match `and`. On FerretDB, an
 * `_id $in` filter would read and decode the whole collection; each id is updated by its own
 * equality filter instead (pushed down), one at a time, since concurrent updates stall its pool.
 * On MongoDB, one `updateMany`. Returns how many documents were modified.
 */
export async function updateWhereIdIn(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  model: Model<any>,
  ids: readonly string[],
  and: Record<string, unknown>,
  update: Record<string, unknown>,
): Promise<number> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return 0;
  if (!(await isFerretDB())) return (await model.updateMany({ ...and, _id: { $in: distinct } }, update)).modifiedCount;
  let n = 0;
  for (const id of distinct) n += (await model.updateOne({ ...and, _id: id }, update)).modifiedCount;
  return n;
}
