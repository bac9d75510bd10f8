/** The payment-gateway contract auto-recharge charges through. */
export interface ChargeRequest {
  amountCents: number;
  currency: string;
  /** Saved payment method (e.g. pm_card_visa); never a card number. */
  paymentMethod: string;
  /**
   * The gateway customer the payment method is saved on (e.g. cus_...). Stripe refuses an
   * off-session charge of a saved payment method without it; the test gateway ignores it.
   */
  customer: string | null;
  /** One per attempt: repeating a call with it never charges twice (the gateway replays its first answer). */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

/** A decline is an answer, not a failure: it does not count against the breaker and is not retried by the queue. */
export type ChargeResult = { status: 'succeeded'; chargeId: string } | { status: 'declined'; code: string; message: string; chargeId: string | null };

export interface PaymentGateway {
  readonly name: string;
  /** Whether a charge needs `customer` (auto-recharge settings without one are incomplete). */
  readonly needsCustomer: boolean;
  /** Throws GatewayUnavailableError when the outcome is unknown (network, timeout, 5xx, rate limit). */
  charge(request: ChargeRequest, signal: AbortSignal): Promise<ChargeResult>;
}

export class GatewayUnavailableError extends Error {
  override name = 'GatewayUnavailableError';
}
