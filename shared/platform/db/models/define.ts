import { model, type IndexDefinition, type IndexOptions, type InferSchemaType, type Model, type Schema, type Types } from 'mongoose';

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

/**
 * A document as a lean read returns it: the inferred schema type (InferSchemaType) with mongoose's
 * array types (DocumentArray, Types.Array) as plain arrays, at every depth. A Mixed path (`any`)
 * stays as it is: a model gives it a type of its own.
 */
export type Lean<T> = 0 extends 1 & T
  ? T
  : T extends Types.DocumentArray<infer I>
    ? Lean<I>[]
    : T extends Types.Array<infer I>
      ? Lean<I>[]
      : T extends Date | Types.ObjectId | Buffer
        ? T
        : T extends readonly unknown[]
          ? { [K in keyof T]: Lean<T[K]> }
          : T extends object
            ? { [K in keyof T]: Lean<T[K]> }
            : T;

/** What a schema stores differently from a declared document: fields it lacks, fields it adds, fields whose declared values it would not accept. */
type Disagreement<Declared, S extends Schema> = {
  missing: Exclude<keyof Declared, keyof Lean<InferSchemaType<S>>>;
  extra: Exclude<keyof Lean<InferSchemaType<S>>, keyof Declared>;
  mismatched: { [K in keyof Declared & keyof Lean<InferSchemaType<S>>]: Declared[K] extends Lean<InferSchemaType<S>>[K] ? never : K }[keyof Declared & keyof Lean<InferSchemaType<S>>];
};

/**
 * The schema of a document declared in shared/domain (which may not see the models): it compiles
 * only when the schema stores exactly the declared fields, each accepting the declared values,
 * so the domain's type and the stored shape cannot drift apart. A Mixed path accepts anything:
 * the declaration is what gives it a type.
 */
export function declaredSchema<Declared>() {
  return <S extends Schema>(
    schema: S & (Disagreement<Declared, S> extends { missing: never; extra: never; mismatched: never } ? unknown : { disagreesWithItsDeclaration: Disagreement<Declared, S> }),
  ): S => schema;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyModel = Model<any>;
const defined: AnyModel[] = [];

/**
 * What earns an index its cost: every write pays for every index (FerretDB rewrites the whole row
 * on every update), so each one names the read that uses it. docs/architecture.md has the table.
 */
export interface IndexUse {
  /** The read(s) whose filter (and sort) use it on MongoDB: `repository.ts:function`, and how. */
  read: string;
  /**
   * Keys of this index that FerretDB on PostgreSQL gets a GIN index for (shared/platform/db/ferretIndexes.ts),
   * each with the named read that filters on it by equality (the one filter FerretDB 1.24 pushes
   * down to SQL) and finds few documents by it (`_id` has one unless the model says otherwise:
   * ModelIndexing). No GIN without such a read; FerretDB uses no other index for a query (the
   * btree its createIndexes makes is never used, so it gets only the unique ones).
   */
  gin?: Readonly<Record<string, string>>;
}

/** An index as MongoDB gets it (its keys and options), with its use: the model's list is the one source of both MongoDB's indexes and FerretDB's. */
export type IndexSpec = readonly [IndexDefinition, IndexOptions & IndexUse];

/** How a model is indexed beyond its index list. */
export interface ModelIndexing {
  /**
   * false: no GIN index on `_id` on FerretDB, for a collection nothing reads or updates by `_id`
   * (insert-only, read by another key; the unique `_id` index FerretDB makes stays). Every other
   * collection has one: its lookups and updates by id.
   */
  ginOnId?: false;
}

const declared = new WeakMap<Schema, { indexes: readonly IndexSpec[]; ginOnId: boolean }>();

/** The indexes defineModel declared on the schema with their uses, and whether `_id` gets a GIN index (none and yes for a schema it did not see). */
export function declaredIndexes(schema: Schema): { indexes: readonly IndexSpec[]; ginOnId: boolean } {
  return declared.get(schema) ?? { indexes: [], ginOnId: true };
}

/**
 * Declares the schema's indexes and compiles its model on the default connection. The schema is
 * built by the caller (`new Schema(fields, options)` where the fields are written): mongoose infers
 * the stored shape only from a literal definition, not through a generic helper.
 */
export function defineModel<S extends Schema>(name: string, schema: S, indexes: readonly IndexSpec[] = [], indexing: ModelIndexing = {}) {
  for (const [keys, { read: _read, gin, ...options }] of indexes) {
    const stray = Object.keys(gin ?? {}).filter((field) => !(field in keys));
    if (stray.length) throw new Error(`${name}: GIN keys ${stray.join(', ')} are not keys of their index`);
    schema.index(keys, options);
  }
  declared.set(schema, { indexes, ginOnId: indexing.ginOnId !== false });
  const compiled = model(name, schema);
  defined.push(compiled);
  return compiled;
}

/** Every model defineModel compiled, in definition order (index creation at connect). */
export function definedModels(): readonly AnyModel[] {
  return defined;
}
