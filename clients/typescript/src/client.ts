import createFetchClient, { type ClientOptions } from 'openapi-fetch';
import type { ExactClient } from './exact.js';
import type { components, paths } from './schema.js';
import { openStream, type EventStream, type StreamOptions } from './stream.js';

/** The API's error shape (every 4xx and 5xx body). */
export type ApiError = components['schemas']['Error'];

export interface OddsClientOptions {
  /** Where the API is served, without /v2 (e.g. http://localhost:3000). */
  baseUrl: string;
  /** A key (sk_live_... or sk_test_...), sent as a Bearer token; the account API uses the session cookie instead. */
  apiKey?: string;
  /** Extra headers of every request. */
  headers?: Record<string, string>;
  /** A fetch of your own (a cookie-keeping one for the account API, a test double). */
  fetch?: typeof fetch;
}

/**
 * openapi-fetch's client typed by the generated paths (`GET`, `POST`, ...), with exact query,
 * path and body keys (a misspelled parameter does not compile), plus the stream.
 */
export interface OddsClient extends ExactClient<paths> {
  /** GET /v2/stream as an async iterable that follows the resume contract. */
  stream(options?: StreamOptions): EventStream;
}

/**
 * The typed client: `client.GET('/v2/matches', { params: { query: { limit: 5 } } })` answers
 * `{ data, error, response }`, data typed by the operation's 200 schema, error by the Error schema.
 */
export function createClient(options: OddsClientOptions): OddsClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const clientOptions: ClientOptions = { baseUrl: options.baseUrl.replace(/\/+$/, ''), headers, fetch: (input: Request) => fetchImpl(input) };
  // The same object at run time: ExactClient only narrows what a call may pass.
  const client = createFetchClient<paths>(clientOptions) as unknown as ExactClient<paths>;
  return Object.assign(client, {
    stream: (streamOptions?: StreamOptions) => openStream({ baseUrl: options.baseUrl, headers, fetch: fetchImpl }, streamOptions),
  });
}

/** The credits a metered answer reports (null where the header is absent: free endpoints, refusals). */
export function credits(response: Response): { consumed: number | null; remaining: number | null } {
  const num = (name: string) => {
    const v = response.headers.get(name);
    return v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  return { consumed: num('X-Credits-Consumed'), remaining: num('X-Credits-Remaining') };
}

/** A refused call: its status and the API's error body. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(`${status} ${body.code}: ${body.message}`);
    this.name = 'ApiRequestError';
  }
}

/**
 * The data of a call, or an ApiRequestError carrying the error shape:
 * `const { data } = await ok(client.GET('/v2/matches'))`.
 */
export async function ok<T>(call: Promise<{ data?: T; error?: ApiError; response: Response }>): Promise<{ data: T; response: Response }> {
  const { data, error, response } = await call;
  if (error !== undefined) throw new ApiRequestError(response.status, error);
  if (data === undefined) throw new ApiRequestError(response.status, { statusCode: response.status, message: 'empty response', error: response.statusText, code: 'internal_error' });
  return { data, response };
}
