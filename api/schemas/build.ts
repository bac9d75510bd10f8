/**
 * JSON Schema builders of the response schemas. They keep every literal (`const` type
 * parameters), so a route's 200 body type is inferred from the very schema the OpenAPI document
 * publishes (api/routes/spec.ts).
 */
export const ref = <const N extends string>(name: N) => ({ $ref: `#/components/schemas/${name}` }) as const;

const keysOf = <P extends object>(p: P): (keyof P & string)[] => Object.keys(p).filter((k): k is keyof P & string => k in p);

/** The schema `obj` builds: a closed object of these properties, these required. */
export type ObjSchema<P, R, E> = { readonly type: 'object'; readonly additionalProperties: false; readonly required: R; readonly properties: P } & E;

/** A closed object; every property required unless `required` says otherwise. */
export function obj<const P extends Record<string, object>, const E extends object = object>(properties: P, required?: undefined, extra?: E): ObjSchema<P, (keyof P & string)[], E>;
export function obj<const P extends Record<string, object>, const R extends readonly (keyof P & string)[], const E extends object = object>(properties: P, required: R, extra?: E): ObjSchema<P, R, E>;
export function obj(properties: Record<string, object>, required?: readonly string[], extra?: object): ObjSchema<Record<string, object>, readonly string[], object> {
  return { type: 'object', additionalProperties: false, required: required ?? keysOf(properties), properties, ...extra };
}

export const arr = <const I extends object, const E extends object = object>(items: I, extra?: E) => ({ type: 'array', items, ...extra }) as const;

export const str = { type: 'string' } as const;
export const nstr = { type: ['string', 'null'] } as const;
export const num = { type: 'number' } as const;
export const nnum = { type: ['number', 'null'] } as const;
export const int = { type: 'integer' } as const;
export const bool = { type: 'boolean' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;
export const ndateTime = { type: ['string', 'null'], format: 'date-time' } as const;
