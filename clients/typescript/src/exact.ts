import type { Client, FetchOptions, FetchResponse, RequestBodyOption } from 'openapi-fetch';

/**
 * openapi-fetch's methods with exact keys. openapi-fetch infers a call's options as a type
 * parameter, and a type parameter escapes TypeScript's excess-property check: `query: { sport:
 * 'soccer', limit: 5 }` compiles against an operation that declares `sportName` and `limit` (only
 * an object with no declared key at all is refused), and the server answers 400. Here the
 * inferred options are also intersected with a copy whose undeclared `params.query`,
 * `params.path` and `body` keys are `never`, so the misspelled key is the one the compiler marks.
 * Inference and autocompletion still come from openapi-fetch's own option types.
 */

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type MediaType = `${string}/${string}`;

/** Every key of every member of a union (keyof a union is only the keys the members share). */
type KeysOf<T> = T extends unknown ? keyof T : never;

/** T, with each key that Shape does not declare typed `never`. */
export type Exact<T, Shape> = T extends object ? T & { [K in Exclude<keyof T, KeysOf<Shape>>]: never } : T;

type OperationOf<PathItem, M extends HttpMethod> = PathItem extends { [K in M]: infer Op } ? Op : never;
type ParametersOf<Op> = Op extends { parameters: infer P } ? P : never;
type DeclaredOf<P, Where extends string> = Where extends keyof P ? NonNullable<P[Where]> : never;
type BodyOf<Op> = NonNullable<RequestBodyOption<Op>['body']>;

/** What a call's inferred options must also satisfy: no key outside the declared query, path and body. */
type ExactOptions<Init, Op> = (Init extends { params: infer P }
  ? {
      params: {
        [K in keyof P]: K extends 'query' | 'path' ? Exact<P[K], DeclaredOf<ParametersOf<Op>, K>> : P[K];
      };
    }
  : unknown) &
  (Init extends { body: infer B } ? { body: Exact<B, BodyOf<Op>> } : unknown);

type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The options argument: optional when nothing in it is required (openapi-fetch's rule, other RequestInit keys allowed). */
type OptionsArgument<Init> = [RequiredKeysOf<Init>] extends [never] ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The options openapi-fetch accepts for one operation (optional when nothing in them is required). */
type InitOf<Op> = [RequiredKeysOf<FetchOptions<Op>>] extends [never] ? FetchOptions<Op> | undefined : FetchOptions<Op>;

export type PathsWithMethod<Paths, M extends HttpMethod> = { [P in keyof Paths]: Paths[P] extends { [K in M]: unknown } ? P : never }[keyof Paths];

/** One method (`GET`, `POST`, ...): openapi-fetch's signature with exact keys. */
export type ExactMethod<Paths, M extends HttpMethod, Media extends MediaType = MediaType> = <Path extends PathsWithMethod<Paths, M>, Init extends InitOf<OperationOf<Paths[Path], M>>>(
  url: Path,
  ...init: OptionsArgument<Init & ExactOptions<Init, OperationOf<Paths[Path], M>>>
) => Promise<FetchResponse<OperationOf<Paths[Path], M> & Record<string | number, unknown>, Init, Media>>;

/** `request(method, url, options)`, with exact keys as well. */
export type ExactRequest<Paths, Media extends MediaType = MediaType> = <M extends HttpMethod, Path extends PathsWithMethod<Paths, M>, Init extends InitOf<OperationOf<Paths[Path], M>>>(
  method: M,
  url: Path,
  ...init: OptionsArgument<Init & ExactOptions<Init, OperationOf<Paths[Path], M>>>
) => Promise<FetchResponse<OperationOf<Paths[Path], M> & Record<string | number, unknown>, Init, Media>>;

/** openapi-fetch's Client (use, eject) whose calls take exact keys. */
export interface ExactClient<Paths extends object, Media extends MediaType = MediaType> extends Omit<
  Client<Paths, Media>,
  'request' | 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE'
> {
  request: ExactRequest<Paths, Media>;
  GET: ExactMethod<Paths, 'get', Media>;
  PUT: ExactMethod<Paths, 'put', Media>;
  POST: ExactMethod<Paths, 'post', Media>;
  DELETE: ExactMethod<Paths, 'delete', Media>;
  OPTIONS: ExactMethod<Paths, 'options', Media>;
  HEAD: ExactMethod<Paths, 'head', Media>;
  PATCH: ExactMethod<Paths, 'patch', Media>;
  TRACE: ExactMethod<Paths, 'trace', Media>;
}
