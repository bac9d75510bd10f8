import type { RequestHandler, Response } from 'express';
import { checkAccess, type KeyIdentity } from '../../shared/billing/access';
import { priceOf, type Priced } from '../../shared/billing/costs';
import { bearerKey } from '../../shared/billing/keys';
import { balanceOf } from '../../shared/billing/credits';
import { debitRequest, settleRequest } from '../../shared/billing/metering';
import { ApiError } from '../errors';

/**
 * Metering for every /v2 route, in two steps. A request is priced by its path from the cost table
 * (shared/billing/costs.ts); a path in no row passes through unmetered (free, or a 404 that costs
 * nothing).
 *
 * 1. `meterAccess`, mounted once in front of all routers (api/app.ts): key check and rate limit,
 *    one Redis round trip. 401 or 429 if not allowed.
 * 2. `meterDebit`, in every route's chain after its validation (api/routes/spec.ts): the debit,
 *    one atomic Redis script (shared/billing/credits.ts). A request the route refuses (400) never
 *    reaches it, so a refused request costs nothing.
 * The response decides the charge: a status under 400 with headers sent keeps it; anything else
 * is refunded, and the credit headers say so.
 */

interface Metered {
  priced: Priced;
  key: KeyIdentity;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express types res.locals through this global namespace
  namespace Express {
    interface Locals {
      /** Set by meterAccess for a priced request whose key passed; read by the route's meterDebit. */
      metered?: Metered;
    }
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

const INVALID = () => new ApiError('INVALID_API_KEY', 'Invalid API key', {}, { 'WWW-Authenticate': 'Bearer' });
const UNAVAILABLE = () => new ApiError('UNAVAILABLE', 'Service temporarily unavailable. Please retry.', {}, { 'Retry-After': '5' });

export function meterAccess(): RequestHandler {
  return async (req, res, next) => {
    // Mounted at /v2: the cost table holds full paths.
    const priced = priceOf(req.method, req.baseUrl + req.path);
    if (!priced || priced.public) return next();
    try {
      const plaintext = bearerKey(req.headers.authorization);
      if (!plaintext) return next(INVALID());
      const access = await checkAccess(plaintext);
      if (access.outcome === 'invalid') return next(INVALID());
      if (access.outcome === 'capped') {
        res.setHeader('X-Credits-Consumed', '0');
        return next(
          new ApiError(
            'RATE_LIMITED',
            `The test keys of this account made their ${access.cap} requests of today (UTC): use a live key, or retry after ${access.retryAfterS} seconds.`,
            {},
            { 'Retry-After': String(access.retryAfterS) },
          ),
        );
      }
      res.setHeader('X-RateLimit-Limit', String(access.limit));
      if (access.outcome === 'limited') {
        res.setHeader('X-Credits-Consumed', '0');
        return next(new ApiError('RATE_LIMITED', `Rate limit exceeded. Retry after ${access.retryAfterS} seconds.`, {}, { 'Retry-After': String(access.retryAfterS), 'X-RateLimit-Remaining': '0' }));
      }
      res.setHeader('X-RateLimit-Remaining', String(access.remaining));
      // Until the route's debit says otherwise: a request refused by validation costs nothing.
      res.setHeader('X-Credits-Consumed', '0');
      res.locals.metered = { priced, key: access.key };
      next();
    } catch (err) {
      // Redis or MongoDB unreachable: the key cannot be checked, so nothing is served.
      req.log?.error({ err: messageOf(err) }, 'metering unavailable');
      next(UNAVAILABLE());
    }
  };
}

export function meterDebit(): RequestHandler {
  return async (req, res, next) => {
    const { metered } = res.locals;
    if (!metered) return next();
    const { priced } = metered;
    const { accountId, keyId, mode } = metered.key;
    try {
      if (mode === 'test') {
        // Test keys are served like live ones but never consume credits (within their daily cap: access.ts).
        res.setHeader('X-Key-Mode', 'test');
        setCredits(res, await balanceOf(accountId), 0);
        return next();
      }
      const debit = await debitRequest({ accountId, cost: priced.credits });
      if (!debit.ok) {
        setCredits(res, debit.balance, 0);
        return next(insufficient(priced, debit.balance));
      }
      setCredits(res, debit.balance, priced.credits);
      const charged = chargeOnHeaders(res, debit.balance, priced.credits);
      res.once('close', () => settleRequest({ accountId, keyId, ref: debit.ref, hold: debit.hold, at: debit.at, cost: priced.credits, endpoint: priced.id, charged: charged() }));
      next();
    } catch (err) {
      // The debit cannot be made: nothing is served (and nothing charged: a debit that did land
      // keeps its hold, which the sweep refunds).
      req.log?.error({ err: messageOf(err) }, 'metering unavailable');
      next(UNAVAILABLE());
    }
  };
}

function setCredits(res: Response, remaining: number, consumed: number): void {
  res.setHeader('X-Credits-Remaining', String(remaining));
  res.setHeader('X-Credits-Consumed', String(consumed));
}

/**
 * Decides the charge when the status line is written: a 4xx/5xx answer is refunded, and its
 * headers already show 0 consumed and the balance after the refund. A response that never wrote
 * its headers (client gone, crash) is not charged either.
 */
function chargeOnHeaders(res: Response, balanceAfterDebit: number, cost: number): () => boolean {
  let charged = false;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- wrapped, then called with the caller's `this` below
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, statusCode: number, ...rest: unknown[]) {
    charged = statusCode < 400;
    if (!charged) setCredits(res, balanceAfterDebit + cost, 0);
    Reflect.apply(writeHead, this, [statusCode, ...rest]);
    return this;
  };
  return () => charged;
}

function insufficient(priced: Priced, balance: number): ApiError {
  const extra = { creditsRequired: priced.credits, creditsRemaining: balance };
  if (balance <= 0) {
    return new ApiError('PAYMENT_REQUIRED', `Payment required. Your credit balance is 0 and this endpoint costs ${priced.credits} credits.`, extra);
  }
  return new ApiError('INSUFFICIENT_CREDITS', `Insufficient credits. This endpoint costs ${priced.credits} credits.`, extra);
}
