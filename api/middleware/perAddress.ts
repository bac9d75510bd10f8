import type { RequestHandler, Response } from 'express';
import { take } from '../../shared/platform/accounts/limits';
import { ApiError } from '../errors';
import { clientAddress } from '../requestAddress';

/**
 * A fixed-window limit per client address (shared/platform/accounts/limits.ts), counted before anything
 * else is done: past it a 429 with Retry-After. The attempt taken is kept with the response
 * (limitTaken) for a later step to give back (a right admin password is not a failure). When Redis
 * cannot count, the request is refused as unavailable (503), never let through uncounted.
 */
/** An attempt counted against a limit: the limit's name and the address it was counted for. */
export interface LimitTaken {
  name: string;
  identity: string;
}

const taken = new WeakMap<Response, LimitTaken>();

/** The attempt perAddress counted for this response's request, if it did. */
export const limitTaken = (res: Response): LimitTaken | undefined => taken.get(res);

export function perAddress(name: string, limit: () => number, windowS: number, what: string): RequestHandler {
  return (req, res, next) => {
    const address = clientAddress(req);
    take(name, address, limit(), windowS)
      .then((t) => {
        if (!t.allowed) return next(new ApiError('RATE_LIMITED', `Too many ${what} from this address. Retry after ${t.retryAfterS} seconds.`, {}, { 'Retry-After': String(t.retryAfterS) }));
        taken.set(res, { name, identity: address });
        next();
      })
      .catch(() => next(new ApiError('UNAVAILABLE', 'Service temporarily unavailable. Please retry.', {}, { 'Retry-After': '5' })));
  };
}
