import { ProviderHttpError } from '../../domain/providers/types';

/** A non-2xx answer, with the provider's body (parsed JSON, or null) for the adapter to read its error code from. */
export class ProviderHttpBodyError extends ProviderHttpError {
  constructor(
    status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(status, message);
  }
}

export interface JsonResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * GET a JSON document. The signal comes from the provider's breaker: when the call times out the
 * request is aborted, sockets included. Non-2xx answers throw ProviderHttpError with the
 * provider's own message (never the URL: it carries the API key).
 */
export async function getJson<T>(url: URL, signal: AbortSignal): Promise<JsonResponse<T>> {
  const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    if (res.ok) throw new ProviderHttpError(res.status, `${url.pathname}: response is not JSON`);
  }
  if (!res.ok) {
    const msg = body && typeof body === 'object' && 'message' in body ? String(body.message) : text.slice(0, 200);
    throw new ProviderHttpBodyError(res.status, `${url.pathname}: HTTP ${res.status} ${msg}`, body);
  }
  return { status: res.status, body: body as T, headers: res.headers };
}
