import type { Request, RequestHandler, Response, Router } from 'express';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { MeteredPath } from '../../shared/domain/billing/costs';
import type { CacheScope } from '../../shared/platform/cache/versions';

/** One named parameter as the validator compiles it and the OpenAPI document publishes it. */
export interface ParameterSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
}

/** The JSON Schema of a route's query or path parameters: an object of named parameters. */
export interface ParametersSchema {
  readonly type: 'object';
  readonly required?: readonly string[];
  readonly properties: { readonly [name: string]: ParameterSchema };
}

/** Path parameters of a route without any. */
export const noParams = { type: 'object', properties: {} } as const;

/** A `$ref` to a named component is typed as any value: the component's own schema is checked where it is rendered. */
type Unref<S> = S extends { readonly $ref: string } ? true : S extends object ? { readonly [K in keyof S]: Unref<S[K]> } : S;

/** Dates leave as ISO strings: a handler may hand either a Date or its string to the JSON body. */
interface Inference {
  deserialize: [{ pattern: { type: 'string'; format: 'date-time' }; output: Date | string }, { pattern: { type: readonly ['string', 'null']; format: 'date-time' }; output: Date | string | null }];
}

/** The value a schema describes. */
export type Infer<S> = Unref<S> extends infer U extends JSONSchema ? FromSchema<U, Inference> : never;

/** Proof that a handler answered: only the context's senders make one. */
export interface Sent {
  readonly sent: true;
}

/** What a handler is given: its validated query and path parameters, and typed ways to answer. */
export interface RouteContext<Q, P, B> {
  readonly query: Q;
  readonly params: P;
  readonly req: Request;
  readonly res: Response;
  /** The 200 body (or another status with the same shape, e.g. health's 503). */
  json: (body: B, status?: number) => Sent;
  /** The 200 body from the page cache, rendered on a miss (api/cache/pageCache.ts). */
  cached: (endpoint: string, key: Record<string, unknown>, scopes: readonly CacheScope[], render: () => Promise<B>) => Promise<Sent>;
  /** A body that is not JSON (a page, a script, the metrics exposition, a serialized document). */
  text: (contentType: string, body: string | Buffer, headers?: Record<string, string | number>) => Sent;
  redirect: (status: number, url: string) => Sent;
}

/** Who may call a route. */
export type Access =
  /** An API key of an account (cost table row not public). */
  | 'key'
  /** Anyone (a public cost table row, or a route metering does not see). */
  | 'none'
  /** The operators' Basic credentials (ADMIN_USER, ADMIN_PASSWORD). */
  | 'admin';

/**
 * One description per endpoint, used for everything: to mount the Express route (validation,
 * debit, handler) and to write its OpenAPI operation. The handler is typed by the schemas: its
 * query and params are what the validator let through, its answer is the 200 body schema's type.
 */
export interface RouteSpec<Q extends ParametersSchema = ParametersSchema, P extends ParametersSchema = typeof noParams, R extends object = object> {
  /** OpenAPI-style path under the mount, e.g. /matches/{eventId}. */
  path: string;
  /** Where the route is mounted: the API (/v2, the default) or the operators' root. */
  mount?: '/v2' | '';
  /** Its cost table row (shared/domain/billing/costs.ts): the price and whether a key is needed. null: not metered. */
  price: MeteredPath | null;
  auth: Access;
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** false: served but not in the OpenAPI document (the document itself, its page, the cost table, metrics). */
  documented?: boolean;
  /** null: the query string is not read, so it is not validated either. */
  query: Q | null;
  /** Query parameters that take comma-separated or repeated values. */
  lists?: readonly string[];
  /** Rules across parameters (returns the message of the 400). */
  check?(this: void, q: NoInfer<Infer<Q>>): string | undefined;
  /** Path parameters (none when absent). */
  params?: P;
  /** JSON Schema of the 200 body. */
  response: R;
  /** Media type of the 200 body when it is not JSON (an SVG chart; the handler answers with `text`). */
  mediaType?: string;
  /** Documented non-2xx statuses besides 400. */
  errors?: number[];
  /** Checks run before anything else (the operators' Basic auth). */
  guards?: readonly RequestHandler[];
  /** Files served under the path's last parameter instead of a handler's answer: only those named in `only`. */
  files?: { dir: string; maxAge: string; only: readonly string[] };
  handler(this: void, ctx: RouteContext<NoInfer<Infer<Q>>, NoInfer<Infer<P>>, NoInfer<Infer<R>>>): Sent | Promise<Sent>;
}

/** What the mounting, the document and the tests see of a route: its description without the typed handler, defaults filled in. */
export interface RouteDescription extends Omit<RouteSpec<ParametersSchema, ParametersSchema>, 'handler' | 'check' | 'mount' | 'documented' | 'params'> {
  mount: '/v2' | '';
  documented: boolean;
  params: ParametersSchema;
}

/** A route ready to list beside routes of other schemas: its description, and how to mount it. */
export interface Route extends RouteDescription {
  mountOn(router: Router): void;
}
