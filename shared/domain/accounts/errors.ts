/**
 * What the self-serve account actions refuse, by kind; the API turns each kind into a status of
 * its one error table (api/errors.ts). A bad field is a BillingInputError (shared/app/billing/accounts.ts).
 */
export type AccountFailure =
  | 'email-taken'
  | 'login-failed'
  | 'throttled'
  | 'not-found'
  | 'too-many-keys'
  | 'too-many-webhooks'
  | 'declined'
  | 'idempotency-conflict'
  | 'gateway-unavailable'
  | 'not-selling'
  | 'no-payment-method'
  | 'setup-incomplete';

export class AccountError extends Error {
  constructor(
    readonly kind: AccountFailure,
    message: string,
    /** Seconds to wait, for `throttled`. */
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}
