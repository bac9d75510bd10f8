import { model, type IndexDefinition, type IndexOptions, type Model, type Schema } from 'mongoose';

/*
 * The vocabulary of the model files: each model is one defineModel call whose fields read as a
 * list of names grouped by how they are stored. The helpers only spell the usual mongoose path
 * options; the schemas they build are the ones a hand-written definition would give, and
 * InferSchemaType sees through them (the repositories' types come from here).
 */

type Types = Record<string, unknown>;

function each<F extends Types, P>(fields: F, path: (type: unknown) => P): { [K in keyof F]: P } {
  return Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, path(type)])) as { [K in keyof F]: P };
}

/** `{ type, required: true }` for each field. */
export function required<F extends Types>(fields: F): { [K in keyof F]: { type: F[K]; required: true } } {
  return each(fields, (type) => ({ type, required: true })) as { [K in keyof F]: { type: F[K]; required: true } };
}

/** `{ type, default: null }` for each field: null until known. */
export function nullable<F extends Types>(fields: F): { [K in keyof F]: { type: F[K]; default: null } } {
  return each(fields, (type) => ({ type, default: null })) as { [K in keyof F]: { type: F[K]; default: null } };
}

/** `{ type: Number, default: 0 }` for each name: counters and versions that start at zero. */
export function zeros<K extends string>(...names: K[]): { [P in K]: { type: NumberConstructor; default: number } } {
  return Object.fromEntries(names.map((name) => [name, { type: Number, default: 0 }])) as { [P in K]: { type: NumberConstructor; default: number } };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModel = Model<any>;
const defined: AnyModel[] = [];

/** An index as MongoDB gets it; shared/db/ferretIndexes.ts derives FerretDB's GIN indexes from the same list. */
export type IndexSpec = readonly [IndexDefinition, IndexOptions?];

/**
 * Declares the schema's indexes and compiles its model on the default connection. The schema is
 * built by the caller (`new Schema(fields, options)` where the fields are written): mongoose infers
 * the stored shape only from a literal definition, not through a generic helper.
 */
export function defineModel<S extends Schema>(name: string, schema: S, indexes: readonly IndexSpec[] = []) {
  for (const [keys, options] of indexes) schema.index(keys, options);
  const compiled = model(name, schema);
  defined.push(compiled);
  return compiled;
}

/** Every model defineModel compiled, in definition order (index creation at connect). */
export function definedModels(): readonly AnyModel[] {
  return defined;
}
