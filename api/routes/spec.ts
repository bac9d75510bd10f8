import type { AppContext } from '../../shared/app/context';
import type { Request, RequestHandler, Response, Router } from 'express';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { MeteredPath } from '../../shared/domain/billing/costs';
import type { CacheScope } from '../../shared/platform/cache/versions';

/** One named parameter as the validator compiles it and the OpenAPI document publishes it. */
export interface ParameterSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  /** A parameter of two forms (a number of days or the word `all`): each branch a schema of its own. */
  readonly anyOf?: readonly { readonly type?: string | readonly string[]; readonly enum?: readonly unknown[] }[];
}

/** The JSON Schema of a route's query or path parameters: an object of named parameters. */
export interface ParametersSchema {
  readonly type: 'object';
  readonly required?: readonly string[];
  readonly properties: { readonly [name: string]: ParameterSchema };
}

/** Path parameters of a route without any. */
export const noParams = { type: 'object', properties: {} } as const;

/** The JSON Schema of a route's JSON request body: an object of named fields. */
export interface BodySchema {
  readonly type: 'object';
  readonly properties: { readonly [name: string]: object };
}

/** The body of a route that reads none. */
export const noBody = { type: 'object', properties: {} } as const;

/** What a 204 answers: no body. */
export const noContent = { description: 'No body.' } as const;

/**
 * The keywords of a body schema that state rules on values: published, and checked by the use
 * case the handler calls (which names the field and keeps its own order of refusals, e.g. a 403
 * for a deployment that sells nothing before a 400 for a card), not by the body's validator.
 * The validator checks the body's shape: a JSON object whose named fields have their JSON types.
 */
export const VALUE_RULES = ['required', 'enum', 'const', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'additionalProperties'] as const;

type ValueRule = (typeof VALUE_RULES)[number];

/** A body schema without its value rules: what its validator checks (api/middleware/validate.ts, bodyValidator). */
export type Shape<S> = S extends readonly unknown[]
  ? S
  : S extends object
    ? { readonly [K in keyof S as K extends ValueRule ? never : K]: K extends 'properties' ? { readonly [F in keyof S[K]]: Shape<S[K][F]> } : Shape<S[K]> }
    : S;

/** The HTTP methods a route answers (HEAD goes with GET). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The statuses of a route's error responses: a list (described by the document's defaults), or each with its description. */
export type ErrorStatuses = readonly number[] | { readonly [status: number]: string };

/** A `$ref` to a named component is typed as any value: the component's own schema is checked where it is rendered. */
type Unref<S> = S extends { readonly $ref: string } ? true : S extends object ? { readonly [K in keyof S]: Unref<S[K]> } : S;

/** Dates leave as ISO strings: a handler may hand either a Date or its string to the JSON body. */
interface Inference {
  deserialize: [{ pattern: { type: 'string'; format: 'date-time' }; output: Date | string }, { pattern: { type: readonly ['string', 'null']; format: 'date-time' }; output: Date | string | null }];
}

/** The value a schema describes. */
export type Infer<S> = Unref<S> extends infer U extends JSONSchema ? FromSchema<U, Inference> : never;

/**
 * What a handler answers, as data: api/routes/mount.ts writes it, or keeps it as a test key's
 * rendering (api/cache/testSnapshots.ts). Handlers never write to the response themselves.
 */
export type Answer<B = unknown> =
  | { readonly kind: 'json'; readonly status: number; readonly body: B; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'noContent' }
  | {
      readonly kind: 'cached';
      readonly endpoint: string;
      readonly key: Record<string, unknown>;
      readonly scopes: readonly CacheScope[];
      readonly render: () => Promise<B>;
      /** The key is the URL's alone (not the clock's, such as today's date): the hot path may answer the URL from it (api/cache/hotReads.ts). */
      readonly urlDecides: boolean;
    }
  | { readonly kind: 'text'; readonly status: number; readonly contentType: string; readonly body: string | Buffer; readonly headers: Readonly<Record<string, string | number>> }
  | { readonly kind: 'redirect'; readonly status: number; readonly url: string }
  | { readonly kind: 'stream'; readonly status: number; readonly contentType: string; readonly headers: Readonly<Record<string, string>>; readonly run: (res: Response) => Promise<void> };

/** What a handler is given: its validated query, path parameters and body, and typed answers to return. */
export interface RouteContext<Q, P, B, D = unknown> {
  readonly query: Q;
  readonly params: P;
  /** The JSON request body as its validator let it through (routes with a `body` schema). */
  readonly body: D;
  readonly req: Request;
  readonly res: Response;
  /** The process's context (shared/app/context.ts): what a use case called from the route runs in. */
  readonly app: AppContext;
  /** The body of the route's status (200 unless the spec names another; or another status with the same shape, e.g. health's 503). */
  json: (body: B, status?: number, headers?: Record<string, string>) => Answer<B>;
  /** An empty 204. */
  noContent: () => Answer<B>;
  /** The 200 body from the page cache, rendered on a miss (api/cache/pageCache.ts). */
  /** `clockInKey`: the key holds something of the clock (today's date), so the same URL names another page tomorrow. */
  cached: (endpoint: string, key: Record<string, unknown>, scopes: readonly CacheScope[], render: () => Promise<B>, opts?: { clockInKey?: boolean }) => Answer<B>;
  /** A body that is not JSON (a page, a script, the metrics exposition, a serialized document). */
  text: (contentType: string, body: string | Buffer, headers?: Record<string, string | number>) => Answer<B>;
  redirect: (status: number, url: string) => Answer<B>;
  /**
   * A streamed 200 (Server-Sent Events): the status line and headers go out at once, then `run`
   * writes the body; the request ends when it resolves. Never kept as a test key's snapshot.
   */
  stream: (contentType: string, headers: Record<string, string>, run: (res: Response) => Promise<void>) => Answer<B>;
}

/** Who may call a route. */
export type Access =
  /** An API key of an account (cost table row not public). */
  | 'key'
  /** Anyone (a public cost table row, or a route metering does not see). */
  | 'none'
  /** The operators' Basic credentials (ADMIN_USER, ADMIN_PASSWORD). */
  | 'admin'
  /**
   * A signed-in session of the account API (its cookie, api/account/session.ts): 401 without one;
   * a state-changing method (POST, PUT, PATCH, DELETE) also needs the session's X-CSRF-Token (403).
   */
  | 'session';

/**
 * One description per endpoint, used for everything: to mount the Express route (validation,
 * debit, handler) and to write its OpenAPI operation. The handler is typed by the schemas: its
 * query and params are what the validator let through, its answer is the 200 body schema's type.
 */
export interface RouteSpec<Q extends ParametersSchema = ParametersSchema, P extends ParametersSchema = typeof noParams, R extends object = object, D extends BodySchema = typeof noBody> {
  /** OpenAPI-style path under the mount, e.g. /matches/{eventId}. */
  path: string;
  /** GET (the default), or a method that changes something (the account API). */
  method?: HttpMethod;
  /** Where the route is mounted: the API (/v2, the default), the account API or the operators' root. */
  mount?: '/v2' | '/v2/account' | '';
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
  /** A parameter's own wording of its refusal (any bad value of it), in place of the schema's. */
  messages?: Readonly<Record<string, string>>;
  /** Path parameters (none when absent). */
  params?: P;
  /** Request headers the handler reads (published; the handler's use case checks their values, e.g. an Idempotency-Key). */
  headers?: ParametersSchema;
  /**
   * JSON Schema of the JSON request body (Content-Type: application/json, else a 415): published
   * whole, its shape validated before the handler (see VALUE_RULES). Absent: the body is not read.
   */
  body?: D;
  /** The status of a served answer: 200 (the default), 201 for something created, 204 for no body. */
  status?: 200 | 201 | 204;
  /** JSON Schema of the answer's body (`noContent` for a 204). */
  response: R;
  /** Media type of the 200 body when it is not JSON (an SVG chart; the handler answers with `text`). */
  mediaType?: string;
  /** false: a test key's answer is never kept and served again (a stream: api/cache/testSnapshots.ts). */
  snapshots?: boolean;
  /** `x-` extensions of the route's OpenAPI operation (a stream's resume window). */
  extensions?: Readonly<Record<`x-${string}`, unknown>>;
  /**
   * Documented non-2xx statuses. A metered route lists them besides 400 and the key's statuses; a
   * route outside the cost table lists all of them but the session's 401 and 403.
   */
  errors?: ErrorStatuses;
  /**
   * The use cases' refusals as API errors (the account API's: api/account/failures.ts); with it,
   * any other error passes on as is (a 500, as the account API always answered). Without it, a
   * database that cannot answer is a 503.
   */
  refusals?(this: void, err: unknown): unknown;
  /** Checks run before anything else (the operators' Basic auth). */
  guards?: readonly RequestHandler[];
  /** Files served under the path's last parameter instead of a handler's answer: only those named in `only`. */
  files?: { dir: string; maxAge: string; only: readonly string[] };
  handler(this: void, ctx: RouteContext<NoInfer<Infer<Q>>, NoInfer<Infer<P>>, NoInfer<Infer<R>>, NoInfer<Infer<Shape<D>>>>): Answer<NoInfer<Infer<R>>> | Promise<Answer<NoInfer<Infer<R>>>>;
}

/** What the mounting, the document and the tests see of a route: its description without the typed handler, defaults filled in. */
export interface RouteDescription extends Omit<RouteSpec<ParametersSchema, ParametersSchema, object, BodySchema>, 'handler' | 'check' | 'refusals' | 'method' | 'mount' | 'documented' | 'params'> {
  method: HttpMethod;
  mount: '/v2' | '/v2/account' | '';
  documented: boolean;
  params: ParametersSchema;
}

/** A route ready to list beside routes of other schemas: its description, and how to mount it. */
export interface Route extends RouteDescription {
  mountOn(router: Router, app: AppContext): void;
}
