import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { Request } from 'express';
import { isValidTimeZone } from '../../shared/domain/days';
import { ApiError, badRequest } from '../errors';
import { VALUE_RULES, type BodySchema, type ParametersSchema } from '../routes/spec';

export const ajv = new Ajv({ allErrors: false, coerceTypes: 'array', useDefaults: true, strict: false });
addFormats(ajv);
// One definition for every schema; the zone check is remembered per name (luxon builds an Intl formatter per check).
ajv.addFormat('iana-timezone', { type: 'string', validate: (s: string) => s.length <= 64 && isValidTimeZone(s) });

/** How a format is named in an error message. */
const FORMAT_TEXT: Record<string, string> = {
  date: 'a calendar date YYYY-MM-DD',
  'date-time': 'an ISO 8601 date-time',
  'iana-timezone': 'an IANA time zone name such as Europe/Madrid',
};

function describe(err: ErrorObject, where: string): string {
  const path = err.instancePath.replace(/^\//, '').split('/')[0];
  const params: Record<string, unknown> = err.params;
  if (err.keyword === 'additionalProperties') return `unknown ${where} parameter "${String(params.additionalProperty)}"`;
  if (err.keyword === 'required') return `missing ${where} parameter "${String(params.missingProperty)}"`;
  if (err.keyword === 'enum' && Array.isArray(params.allowedValues)) return `${path || where} must be one of ${params.allowedValues.join(', ')}`;
  if (err.keyword === 'format') {
    const format = String(params.format);
    return `${path || where} must be ${FORMAT_TEXT[format] ?? `a valid ${format}`}`;
  }
  return `${path || where} ${err.message}`;
}

/** Repeated and comma-separated forms of list parameters become one array. */
function splitLists(query: Record<string, unknown>, listParams: readonly string[]): void {
  for (const name of listParams) {
    const v = query[name];
    if (v === undefined) continue;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim());
    query[name] = parts;
  }
}

export interface ValidateOptions<T> {
  /** Parameters that accept comma-separated and repeated values. */
  lists?: readonly string[];
  /** Extra rule after the schema passes (e.g. "date must not be combined with startDate"). */
  check?(this: void, query: T): string | undefined;
  /** A parameter's own wording of its refusal (any bad value of it), in place of the schema's. */
  messages?: Readonly<Record<string, string>>;
}

/** A validator's verdict: the typed value, or the 400 to answer. */
export type Validated<T> = { ok: true; value: T } | { ok: false; error: ApiError };

const refused = (message: string): Validated<never> => ({ ok: false, error: badRequest(message) });

/** The 400 of the validator's first error (it stops at the first: allErrors is off), in the parameter's own wording when it has one. */
const refusedBy = (errors: readonly ErrorObject[] | null | undefined, where: string, messages: Readonly<Record<string, string>> = {}): Validated<never> => {
  const first = errors?.[0];
  if (!first) return refused(`${where} not accepted`);
  const own = messages[first.instancePath.replace(/^\//, '').split('/')[0]];
  return refused(own ?? describe(first, where));
};

/**
 * Validates and normalizes the query string before any handler (and any database access) runs.
 * Only plain strings reach the schema: nested objects and arrays in non-list parameters are 400s,
 * so no query operator can ever come from a client.
 */
export function queryValidator<T>(schema: ParametersSchema, options: ValidateOptions<T> = {}): (raw: Request['query']) => Validated<T> {
  const validate = ajv.compile<T>({ additionalProperties: false, ...schema });
  // ajv's coercion would read "1e2", "0x10" or " 7" as numbers; only plain decimals are accepted.
  const props = Object.entries(schema.properties);
  const integerParams = props.filter(([, s]) => s.type === 'integer' || s.anyOf?.some((b) => b.type === 'integer')).map(([k]) => k);
  // The words a parameter of two forms takes besides its integers (days=all).
  const words = new Map(props.map(([k, s]) => [k, new Set((s.anyOf ?? []).flatMap((b) => (b.type === 'string' ? (b.enum ?? []) : [])))]));
  const numberParams = props.filter(([, s]) => s.type === 'number').map(([k]) => k);
  return (raw) => {
    const query: Record<string, unknown> = {};
    // No prototype: a parameter named __proto__ is a key like any other (and rejected as unknown).
    Object.setPrototypeOf(query, null);
    for (const [k, v] of Object.entries(raw)) {
      const isList = options.lists?.includes(k);
      if (typeof v === 'string') query[k] = v;
      else if (Array.isArray(v) && isList && v.every((x) => typeof x === 'string')) query[k] = v;
      else if (Array.isArray(v)) return refused(`parameter "${k}" must be given once`);
      else return refused(`parameter "${k}" must be a plain value`);
    }
    splitLists(query, options.lists ?? []);
    for (const k of integerParams) {
      const v = query[k];
      if (typeof v === 'string' && !/^-?[0-9]{1,15}$/.test(v) && !words.get(k)?.has(v)) return refused(options.messages?.[k] ?? `${k} must be an integer`);
    }
    for (const k of numberParams) {
      const v = query[k];
      if (typeof v === 'string' && !/^-?[0-9]{1,9}(\.[0-9]{1,6})?$/.test(v)) return refused(`${k} must be a decimal number such as 2.5`);
    }
    if (!validate(query)) return refusedBy(validate.errors, 'query', options.messages);
    const problem = options.check?.(query);
    if (problem) return refused(problem);
    return { ok: true, value: query };
  };
}

/**
 * The names of a query alone: each a parameter of the schema, given once (or as a list), as a
 * plain value; the values are left to queryValidator. A session route checks the names before
 * the session and the values after it (api/routes/mount.ts).
 */
export function queryNamesValidator(schema: ParametersSchema, lists: readonly string[] = []): (raw: Request['query']) => ApiError | undefined {
  const known = new Set(Object.keys(schema.properties));
  return (raw) => {
    for (const [k, v] of Object.entries(raw)) {
      // The account API's wording since its first version (the dashboard and its users read it).
      if (!known.has(k)) return badRequest(`unknown parameter "${k}"`);
      if (typeof v === 'string' || (Array.isArray(v) && lists.includes(k) && v.every((x) => typeof x === 'string'))) continue;
      return badRequest(`${k} must be a single value`);
    }
    return undefined;
  };
}

/** Validates route parameters (ids) the same way. */
export function paramsValidator<T>(schema: ParametersSchema): (raw: Request['params']) => Validated<T> {
  const validate = ajv.compile<T>({ additionalProperties: true, ...schema });
  return (raw) => {
    const params: unknown = raw;
    if (!validate(params)) return refusedBy(validate.errors, 'path');
    return { ok: true, value: params };
  };
}

/** The query of a route that does not read it: let through unread (nothing is validated, nothing kept). */
export function ignoredQuery<T>(): (raw: Request['query']) => Validated<T> {
  const anything = ajv.compile<T>({});
  return () => {
    const none: unknown = {};
    return anything(none) ? { ok: true, value: none } : refused('query not accepted');
  };
}

/**
 * Bodies are JSON: their values keep their types (no coercion: "20000" is not a package) and get
 * no defaults.
 */
const bodyAjv = new Ajv({ allErrors: false, strict: false });

const VALUE_RULE_NAMES: ReadonlySet<string> = new Set(VALUE_RULES);

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A body schema without its value rules (api/routes/spec.ts, VALUE_RULES): the shape its validator checks. */
export function bodyShape(schema: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (VALUE_RULE_NAMES.has(k)) continue;
    // The names under `properties` are fields, whatever they are called.
    out[k] = k === 'properties' && isObject(v) ? Object.fromEntries(Object.entries(v).map(([field, s]) => [field, isObject(s) ? bodyShape(s) : s])) : isObject(v) ? bodyShape(v) : v;
  }
  return out;
}

/**
 * Validates a JSON request body: sent as application/json (else a 415, so no cross-site form post
 * or text gets through), a JSON object, each named field of its JSON type (400 naming the field).
 */
export function bodyValidator<T>(schema: BodySchema): (req: Request) => Validated<T> {
  const validate = bodyAjv.compile<T>(bodyShape(schema));
  return (req) => {
    if (!req.is('application/json')) return { ok: false, error: new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send a JSON body with Content-Type: application/json') };
    const body: unknown = req.body;
    if (!isObject(body)) return refused('body must be a JSON object');
    if (!validate(body)) return refusedBy(validate.errors, 'body');
    return { ok: true, value: body };
  };
}

/** The body of a route that reads none: let through unread. */
export function ignoredBody<T>(): (req: Request) => Validated<T> {
  const anything = bodyAjv.compile<T>({});
  return () => {
    const none: unknown = {};
    return anything(none) ? { ok: true, value: none } : refused('body not accepted');
  };
}
