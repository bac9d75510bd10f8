import type { RequestHandler, Response } from 'express';
import { checkAccess, type AccessResult, type KeyIdentity } from '../../shared/platform/billing/access';
import { priceOf, type Priced } from '../../shared/domain/billing/costs';
import { bearerKey } from '../../shared/domain/billing/keys';
import { testBalanceOf } from '../../shared/platform/billing/credits';
import { debitOfAdmission, nextRef, settleRequest, type Debit } from '../../shared/app/billing/metering';
import type { AppContext } from '../../shared/app/context';
import { ApiError } from '../errors';
import { noteBalance, unspentInBlocks } from '../hot/creditBlocks';

/**
 * Metering for every /v2 route, in two steps. A request is priced by its path from the cost table
 * (shared/domain/billing/costs.ts); a path in no row passes through unmetered (free, or a 404 that costs
 * nothing).
 *
 * 1. `meterAccess`, mounted once in front of all routers (api/app.ts): key check, rate limit and
 *    a live key's debit, one Redis script (shared/platform/billing/access.ts with credits.ts's debit).
 *    401 or 429 if not allowed.
 * 2. `meterDebit`, in every route's chain after its validation (api/routes/spec.ts): the credit
 *    headers, or the 402/403 of a refused debit (after validation: a bad parameter is a 400 even
 *    on an empty balance). A request the route refuses (400) is given back when it closes.
 * The response decides the charge: a status under 400 with headers sent keeps it; anything else
 * is refunded, and the credit headers say so.
 */

interface Metered {
  priced: Priced;
  key: KeyIdentity;
  /** A live key's debit, made with the key check (settled when the response closes). */
  debit?: Debit;
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

/**
 * A key check the hot path made before the router (api/cache/hotReads.ts) and handed on: the
 * route's metering uses it instead of checking again (a second check would take a second token
 * and a second debit). `error`: the check could not be made (Redis unreachable).
 */
export interface Prechecked {
  plaintext: string;
  ref: string;
  access?: AccessResult;
  error?: unknown;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express types res.locals through this global namespace
  namespace Express {
    interface Locals {
      prechecked?: Prechecked;
    }
  }
}

export function meterAccess(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    // Mounted at /v2: the cost table holds full paths.
    const priced = priceOf(req.method, req.baseUrl + req.path);
    if (!priced || priced.public) return next();
    try {
      const plaintext = bearerKey(req.headers.authorization);
      if (!plaintext) return next(INVALID());
      const pre = res.locals.prechecked?.plaintext === plaintext ? res.locals.prechecked : undefined;
      if (pre?.error) {
        req.log?.error({ err: messageOf(pre.error) }, 'metering unavailable');
        return next(UNAVAILABLE());
      }
      const ref = pre?.ref ?? nextRef();
      const access = pre?.access ?? (await checkAccess(plaintext, { cost: priced.credits, ref }));
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
      await admit(ctx, res, priced, access, ref);
      next();
    } catch (err) {
      // Redis or MongoDB unreachable: the key cannot be checked, so nothing is served.
      req.log?.error({ err: messageOf(err) }, 'metering unavailable');
      next(UNAVAILABLE());
    }
  };
}

/**
 * An allowed request: its rate-limit headers, and a live key's debit made with the key check,
 * kept only if the route serves it (settled when the response closes; a 400 of validation, a 404,
 * a 5xx are given back). Until the route says otherwise the request costs nothing (a request
 * refused by validation). Returns the debit (none for a test key).
 */
export async function admit(ctx: AppContext, res: Response, priced: Priced, access: Extract<AccessResult, { outcome: 'allowed' }>, ref: string): Promise<Debit | undefined> {
  res.setHeader('X-RateLimit-Limit', String(access.limit));
  res.setHeader('X-RateLimit-Remaining', String(access.remaining));
  res.setHeader('X-Credits-Consumed', '0');
  const { accountId, keyId } = access.key;
  let debit: Debit | undefined;
  if (access.admission) {
    debit = await debitOfAdmission(ctx, { accountId, cost: priced.credits, ref }, access.admission);
    // What the client reads is the account's credits, this process's blocks included (creditBlocks.ts).
    if (debit.ok) {
      noteBalance(accountId, debit.balance);
      const d = { ...debit, balance: debit.balance + unspentInBlocks(accountId) };
      debit = d;
      const charged = chargeOnHeaders(res, d.balance, priced.credits);
      res.once('close', () => settleRequest(ctx, { accountId, keyId, ref: d.ref, hold: d.hold, at: d.at, cost: priced.credits, endpoint: priced.id, charged: charged() }));
    }
  }
  res.locals.metered = { priced, key: access.key, debit };
  return debit;
}

export function meterDebit(): RequestHandler {
  return async (req, res, next) => {
    const { metered } = res.locals;
    if (!metered) return next();
    const { priced, debit } = metered;
    try {
      if (metered.key.mode === 'test') {
        // Test keys are served like live ones but never consume credits (within their daily cap: access.ts).
        // Their balance is the account's test credits (bought through the test gateway), never the live one.
        res.setHeader('X-Key-Mode', 'test');
        setCredits(res, await testBalanceOf(metered.key.accountId), 0);
        return next();
      }
      // The debit was decided with the key check; its refusal waited for the parameters to be valid.
      if (!debit) throw new Error('a live key reached the route without its debit');
      if (!debit.ok) {
        setCredits(res, debit.balance, 0);
        return next(insufficient(priced, debit.balance));
      }
      setCredits(res, debit.balance, priced.credits);
      next();
    } catch (err) {
      req.log?.error({ err: messageOf(err) }, 'metering unavailable');
      next(UNAVAILABLE());
    }
  };
}

export function setCredits(res: Response, remaining: number, consumed: number): void {
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
