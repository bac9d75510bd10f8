import { AccountError, type AccountFailure } from '../../shared/domain/accounts/errors';
import { BillingInputError } from '../../shared/domain/billing/errors';
import { ApiError, badRequest, type ErrorCode } from '../errors';

/** Body fields as the API names them, for the operator code's argument names. */
const FIELD: Record<string, string> = { 'payment-method': 'paymentMethod' };

const STATUS_OF: Record<AccountFailure, ErrorCode> = {
  'email-taken': 'CONFLICT',
  'login-failed': 'NOT_SIGNED_IN',
  throttled: 'RATE_LIMITED',
  'not-found': 'NOT_FOUND',
  'too-many-keys': 'CONFLICT',
  'too-many-webhooks': 'CONFLICT',
  declined: 'PAYMENT_REQUIRED',
  'idempotency-conflict': 'CONFLICT',
  'gateway-unavailable': 'UNAVAILABLE',
  'not-selling': 'NOT_SELLING',
  'no-payment-method': 'CONFLICT',
  'setup-incomplete': 'CONFLICT',
};

/** The account actions' refusals in the error shape; anything else is passed on as is (a 500). */
export function toApiError(err: unknown): unknown {
  if (err instanceof BillingInputError) {
    const field = FIELD[err.argument] ?? err.argument;
    return badRequest(`${field} ${err.message.slice(err.argument.length + 2)}`);
  }
  if (err instanceof AccountError) {
    const headers: Record<string, string> = {};
    if (err.retryAfterS) headers['Retry-After'] = String(err.retryAfterS);
    if (err.kind === 'gateway-unavailable') headers['Retry-After'] = '5';
    return new ApiError(STATUS_OF[err.kind], err.message, {}, headers);
  }
  return err;
}
