import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressProblem, classifyAddress } from '../../domain/webhooks/address';

/**
 * One webhook attempt over HTTP: a POST of the body with its signed headers, within a deadline,
 * to an address checked when it is resolved (the socket connects only to the address that passed
 * the check, so a name that resolves to a public address for the check and to a private one for
 * the connection cannot slip through). Redirects are not followed: a 3xx is an answer, and fails.
 */

export interface PostRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface PostResult {
  statusCode: number | null;
  /** Why no status came back: `timeout`, `address_not_allowed: ...`, a network error's code. */
  error: string | null;
  durationMs: number;
}

/** Every address a host name resolves to (A and AAAA). */
export function resolveHost(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => (err ? reject(err) : resolve(addresses.map((a) => a.address))));
  });
}

class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/** A `lookup` for the socket that resolves the name and refuses it unless every address is allowed. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const problem = addressProblem(
        hostname,
        addresses.map((a) => a.address),
        allowPrivate,
      );
      if (problem) return callback(new AddressRefused(problem), '', 0);
      const first = addresses[0];
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/** Bytes of the answer read at most (it is not kept: the status is what counts). */
const MAX_ANSWER_BYTES = 64 * 1024;

export function postWebhook(req: PostRequest): Promise<PostResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ statusCode, error, durationMs: took() });
    };
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return finish(null, 'invalid_url');
    }
    // An IP literal is connected to without a lookup: it is checked here.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (classifyAddress(host) !== null) {
      const problem = addressProblem(host, [host], req.allowPrivate);
      if (problem) return finish(null, `address_not_allowed: ${problem}`);
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const body = Buffer.from(req.body, 'utf8');
    const timer = setTimeout(() => {
      outgoing.destroy(new Error('timeout'));
      finish(null, 'timeout');
    }, req.timeoutMs);
    const outgoing = send(
      url,
      {
        method: 'POST',
        headers: { ...req.headers, 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': 'odds-ai-webhooks/1' },
        lookup: checkedLookup(req.allowPrivate),
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        res.on('end', () => finish(res.statusCode ?? null, null));
        res.on('close', () => finish(res.statusCode ?? null, null));
        res.on('error', () => finish(res.statusCode ?? null, null));
      },
    );
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof AddressRefused) return finish(null, `address_not_allowed: ${err.message}`);
      finish(null, err.message === 'timeout' ? 'timeout' : (err.code ?? err.message));
    });
    outgoing.end(body);
  });
}
