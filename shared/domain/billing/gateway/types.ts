/** The payment-gateway contract purchases, saved payment methods and auto-recharge go through. */
export interface ChargeRequest {
  amountCents: number;
  currency: string;
  /** The account's saved payment method (stored server-side by a completed setup); never a card number, never from a request. */
  paymentMethod: string;
  /** The account's gateway customer the payment method is saved on (Stripe refuses an off-session charge of a saved card without it). */
  customer: string | null;
  /** One per attempt: repeating a call with it never charges twice (the gateway replays its first answer). */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/** A decline is an answer, not a failure: it does not count against the breaker and is not retried by the queue. */
export type ChargeResult = { status: 'succeeded'; chargeId: string } | { status: 'declined'; code: string; message: string; chargeId: string | null };

/** A request to save a card on the account's customer (Stripe: a Checkout Session in setup mode). */
export interface SetupRequest {
  accountId: string;
  customer: string;
  /** Where the gateway's page sends the browser back: `{SETUP_ID}` is replaced by the setup's id. */
  returnUrl: string;
  /** The test gateway only: which of its test cards the "page" saves (pm_card_visa, ...). */
  testCard?: string;
  idempotencyKey: string;
}

/** A setup as the gateway knows it: its customer and account, and the payment method once complete. */
export interface SetupState {
  id: string;
  /** open: the owner has not finished the gateway's page yet; expired: abandoned. */
  status: 'open' | 'complete' | 'expired';
  customer: string | null;
  accountId: string | null;
  paymentMethod: string | null;
  /** The gateway's page to send the owner to (null when there is none: the test gateway). */
  url: string | null;
}

export interface PaymentGateway {
  readonly name: 'test' | 'stripe';
  /** Throws GatewayUnavailableError when the outcome is unknown (network, timeout, 5xx, rate limit). */
  charge(request: ChargeRequest, signal: AbortSignal): Promise<ChargeResult>;
  /** The account's customer at the gateway, created once (the idempotency key names the account). */
  createCustomer(request: { accountId: string; email: string | null; idempotencyKey: string }, signal: AbortSignal): Promise<string>;
  /** Starts saving a card on the customer; the owner finishes it on the gateway's page (`url`). */
  startSetup(request: SetupRequest, signal: AbortSignal): Promise<SetupState>;
  /** A setup's state, read from the gateway (never from the client): null when the gateway does not know it. */
  findSetup(setupId: string, signal: AbortSignal): Promise<SetupState | null>;
}

export class GatewayUnavailableError extends Error {
  override name = 'GatewayUnavailableError';
}

/** The gateway refused a request as malformed (a 400 that is not a card's decline): a bug or a bad id, not a reason to retry. */
export class GatewayRequestError extends Error {
  override name = 'GatewayRequestError';
}
