/**
 * The one error contract: every non-2xx answer is `{statusCode, message, error, code}` (plus
 * `requestId`, and optional fields a code documents). Its status and its machine-readable `code`
 * come from this table and nowhere else; `code` is stable (clients branch on it), `message` is for
 * people and may change.
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, error: 'Bad Request', code: 'malformed_request' },
  INVALID_PARAMETER: { status: 400, error: 'Bad Request', code: 'invalid_parameter' },
  INVALID_API_KEY: { status: 401, error: 'Unauthorized', code: 'invalid_api_key' },
  NOT_SIGNED_IN: { status: 401, error: 'Unauthorized', code: 'not_signed_in' },
  ADMIN_CREDENTIALS_REQUIRED: { status: 401, error: 'Unauthorized', code: 'admin_credentials_required' },
  PAYMENT_REQUIRED: { status: 402, error: 'Payment Required', code: 'payment_required' },
  INSUFFICIENT_CREDITS: { status: 403, error: 'Forbidden', code: 'insufficient_credits' },
  CSRF_REJECTED: { status: 403, error: 'Forbidden', code: 'csrf_rejected' },
  NOT_SELLING: { status: 403, error: 'Forbidden', code: 'not_selling' },
  NOT_FOUND: { status: 404, error: 'Not Found', code: 'not_found' },
  METHOD_NOT_ALLOWED: { status: 405, error: 'Method Not Allowed', code: 'method_not_allowed' },
  REQUEST_TIMEOUT: { status: 408, error: 'Request Timeout', code: 'request_timeout' },
  CONFLICT: { status: 409, error: 'Conflict', code: 'conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, error: 'Payload Too Large', code: 'payload_too_large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, error: 'Unsupported Media Type', code: 'unsupported_media_type' },
  URI_TOO_LONG: { status: 414, error: 'URI Too Long', code: 'uri_too_long' },
  EXPECTATION_FAILED: { status: 417, error: 'Expectation Failed', code: 'expectation_failed' },
  RATE_LIMITED: { status: 429, error: 'Too Many Requests', code: 'rate_limited' },
  /** GET /v2/stream: the key holds its STREAM_MAX_CONNECTIONS_* open streams already. */
  TOO_MANY_STREAMS: { status: 429, error: 'Too Many Requests', code: 'too_many_streams' },
  HEADERS_TOO_LARGE: { status: 431, error: 'Request Header Fields Too Large', code: 'headers_too_large' },
  INTERNAL: { status: 500, error: 'Internal Server Error', code: 'internal_error' },
  UNAVAILABLE: { status: 503, error: 'Service Unavailable', code: 'service_unavailable' },
  /** A test key asked for an answer with no rendering as old as the test keys' delay yet (api/cache/testSnapshots.ts); Retry-After says when. */
  TEST_DATA_PENDING: { status: 503, error: 'Service Unavailable', code: 'test_data_pending' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERRORS).filter((k): k is ErrorCode => k in ERRORS);

/** The machine-readable codes a client can meet, as the OpenAPI document lists them. */
export const WIRE_CODES: readonly string[] = ERROR_CODES.map((c) => ERRORS[c].code);

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  /** The error shape; `requestId` (the X-Request-Id header's value) when the answer is this request's own, not a cached one. */
  toBody(requestId?: string): Record<string, unknown> {
    const { error, code } = ERRORS[this.code];
    return { statusCode: this.status, message: this.message, error, code, ...(requestId ? { requestId } : {}), ...this.extra };
  }
}

export const badRequest = (message: string) => new ApiError('INVALID_PARAMETER', `Invalid request parameters: ${message}`);
export const malformedRequest = (message: string) => new ApiError('BAD_REQUEST', message);
export const notFound = (message = 'Not found') => new ApiError('NOT_FOUND', message);
