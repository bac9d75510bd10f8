import Ajv, { type ErrorObject, type JSONSchemaType } from 'ajv';
import addFormats from 'ajv-formats';
import type { RequestHandler } from 'express';
import { badRequest } from '../errors';

export const ajv = new Ajv({ allErrors: false, coerceTypes: 'array', useDefaults: true, strict: false });
addFormats(ajv);

/** How a format is named in an error message. */
const FORMAT_TEXT: Record<string, string> = {
  date: 'a calendar date YYYY-MM-DD',
  'date-time': 'an ISO 8601 date-time',
  'iana-timezone': 'an IANA time zone name such as Europe/Madrid',
};

function describe(err: ErrorObject, where: string): string {
  const path = err.instancePath.replace(/^\//, '').split('/')[0];
  if (err.keyword === 'additionalProperties') return `unknown ${where} parameter "${(err.params as { additionalProperty: string }).additionalProperty}"`;
  if (err.keyword === 'required') return `missing ${where} parameter "${(err.params as { missingProperty: string }).missingProperty}"`;
  if (err.keyword === 'enum') return `${path || where} must be one of ${(err.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  if (err.keyword === 'format') {
    const format = (err.params as { format: string }).format;
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

export interface ValidateOptions {
  /** Parameters that accept comma-separated and repeated values. */
  lists?: readonly string[];
  /**
   * Extra rule after the schema passes (e.g. "date must not be combined with startDate"). Method
   * syntax: a rule typed for its route's query (dateRule) is accepted for the validated query.
   */
  check?(this: void, query: Record<string, unknown>): string | undefined;
}

/**
 * Validates and normalizes the query string before any handler (and any database access) runs.
 * Only plain strings reach the schema: nested objects and arrays in non-list parameters are 400s,
 * so no query operator can ever come from a client.
 */
export function validateQuery<T>(schema: JSONSchemaType<T> | object, options: ValidateOptions = {}): RequestHandler {
  const validate = ajv.compile({ additionalProperties: false, ...schema } as object);
  // ajv's coercion would read "1e2", "0x10" or " 7" as numbers; only plain decimals are accepted.
  const props = Object.entries((schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {});
  const integerParams = props.filter(([, s]) => s.type === 'integer').map(([k]) => k);
  const numberParams = props.filter(([, s]) => s.type === 'number').map(([k]) => k);
  return (req, _res, next) => {
    // No prototype: a parameter named __proto__ is a key like any other (and rejected as unknown).
    const query = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(req.query)) {
      const isList = options.lists?.includes(k);
      if (typeof v === 'string') query[k] = v;
      else if (Array.isArray(v) && isList && v.every((x) => typeof x === 'string')) query[k] = v;
      else if (Array.isArray(v)) return next(badRequest(`parameter "${k}" must be given once`));
      else return next(badRequest(`parameter "${k}" must be a plain value`));
    }
    splitLists(query, options.lists ?? []);
    for (const k of integerParams) {
      if (typeof query[k] === 'string' && !/^-?[0-9]{1,15}$/.test(query[k])) return next(badRequest(`${k} must be an integer`));
    }
    for (const k of numberParams) {
      if (typeof query[k] === 'string' && !/^-?[0-9]{1,9}(\.[0-9]{1,6})?$/.test(query[k])) return next(badRequest(`${k} must be a decimal number such as 2.5`));
    }
    if (!validate(query)) return next(badRequest(describe(validate.errors![0], 'query')));
    const problem = options.check?.(query);
    if (problem) return next(badRequest(problem));
    // Express 5 makes req.query a read-only getter; the validated copy is kept beside it.
    (req as unknown as { validQuery: unknown }).validQuery = query;
    next();
  };
}

/** Validates route parameters (ids) the same way. */
export function validateParams(schema: object): RequestHandler {
  const validate = ajv.compile({ type: 'object', additionalProperties: true, ...schema });
  return (req, _res, next) => {
    if (!validate(req.params)) return next(badRequest(describe(validate.errors![0], 'path')));
    next();
  };
}

/** The validated query, typed by the route. */
export function validQuery<T>(req: object): T {
  return (req as { validQuery: T }).validQuery;
}
