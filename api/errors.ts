/**
 * The one error contract: every non-2xx answer is `{statusCode, message, error}` (plus optional
 * fields a code documents), and its status comes from this table and nowhere else.
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, error: 'Bad Request' },
  INVALID_API_KEY: { status: 401, error: 'Unauthorized' },
  NOT_SIGNED_IN: { status: 401, error: 'Unauthorized' },
  PAYMENT_REQUIRED: { status: 402, error: 'Payment Required' },
  INSUFFICIENT_CREDITS: { status: 403, error: 'Forbidden' },
  CSRF_REJECTED: { status: 403, error: 'Forbidden' },
  NOT_SELLING: { status: 403, error: 'Forbidden' },
  NOT_FOUND: { status: 404, error: 'Not Found' },
  METHOD_NOT_ALLOWED: { status: 405, error: 'Method Not Allowed' },
  REQUEST_TIMEOUT: { status: 408, error: 'Request Timeout' },
  CONFLICT: { status: 409, error: 'Conflict' },
  PAYLOAD_TOO_LARGE: { status: 413, error: 'Payload Too Large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, error: 'Unsupported Media Type' },
  URI_TOO_LONG: { status: 414, error: 'URI Too Long' },
  EXPECTATION_FAILED: { status: 417, error: 'Expectation Failed' },
  RATE_LIMITED: { status: 429, error: 'Too Many Requests' },
  HEADERS_TOO_LARGE: { status: 431, error: 'Request Header Fields Too Large' },
  INTERNAL: { status: 500, error: 'Internal Server Error' },
  UNAVAILABLE: { status: 503, error: 'Service Unavailable' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERRORS).filter((k): k is ErrorCode => k in ERRORS);

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

  toBody(): Record<string, unknown> {
    return { statusCode: this.status, message: this.message, error: ERRORS[this.code].error, ...this.extra };
  }
}

export const badRequest = (message: string) => new ApiError('BAD_REQUEST', `Invalid request parameters: ${message}`);
export const notFound = (message = 'Not found') => new ApiError('NOT_FOUND', message);
