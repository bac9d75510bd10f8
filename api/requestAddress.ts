import type { Request } from 'express';

/** The client's address: the socket's, or with TRUST_PROXY the one the trusted proxies forwarded. */
export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The origin this API is reached at, for links it hands out (the OpenAPI servers URL, the card
 * page's way back): PUBLIC_URL when set, else the address and port the request arrived on (the
 * socket's own end, which a client cannot forge, unlike a Host header), over https when the request
 * came over it (a trusted proxy's X-Forwarded-Proto counts only with TRUST_PROXY).
 */
export function publicOrigin(req: Request, publicUrl: string): string {
  const configured = publicUrl.replace(/\/+$/, '');
  if (configured) return configured;
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? (address.startsWith('::ffff:') ? address.slice(7) : `[${address}]`) : address;
  return `${req.protocol}://${host}:${req.socket.localPort}`;
}
