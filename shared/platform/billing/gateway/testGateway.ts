import { createHash, randomBytes } from 'node:crypto';
import { key, redis } from '../../db/redis';
import type { ChargeRequest, ChargeResult, PaymentGateway, SetupState } from '../../../domain/billing/gateway/types';
import { GatewayRequestError } from '../../../domain/billing/gateway/types';
import { isRecord } from '../../../domain/records';

/**
 * The built-in gateway (the default outside production): payment methods behave like Stripe's
 * test cards, and an idempotency key replays its first answer like Stripe does, across processes
 * (kept in Redis). Every first answer is appended to a charge log, so tests and demos can count
 * charges. Saving a card has no page to visit: the setup names one of the test cards and is
 * complete at once. It charges nobody, so production refuses it (shared/platform/config.ts).
 */
const declined = (code: string, message = 'Your card was declined.') => ({ code, message });
const DECLINES: Record<string, { code: string; message: string }> = {
  pm_card_chargeDeclined: declined('generic_decline'),
  pm_card_visa_chargeDeclined: declined('generic_decline'),
  pm_card_chargeDeclinedInsufficientFunds: declined('insufficient_funds', 'Your card has insufficient funds.'),
  pm_card_visa_chargeDeclinedInsufficientFunds: declined('insufficient_funds', 'Your card has insufficient funds.'),
  pm_card_chargeDeclinedExpiredCard: declined('expired_card', 'Your card has expired.'),
  pm_card_chargeDeclinedIncorrectCvc: declined('incorrect_cvc', "Your card's security code is incorrect."),
  pm_card_chargeDeclinedProcessingError: declined('processing_error', 'An error occurred while processing your card. Try again in a little bit.'),
  pm_card_visa_chargeDeclinedLostCard: declined('lost_card'),
  pm_card_visa_chargeDeclinedStolenCard: declined('stolen_card'),
  pm_card_chargeDeclinedFraudulent: declined('fraudulent'),
};
const SUCCEEDS = new Set([
  'pm_card_visa',
  'pm_card_visa_debit',
  'pm_card_mastercard',
  'pm_card_mastercard_debit',
  'pm_card_mastercard_prepaid',
  'pm_card_amex',
  'pm_card_discover',
  'pm_card_diners',
  'pm_card_jcb',
  'pm_card_unionpay',
]);

/** The cards a setup on the test gateway can save: Stripe's public test payment methods. */
export const TEST_CARDS: readonly string[] = [...SUCCEEDS, ...Object.keys(DECLINES)];

export const TEST_GATEWAY_LOG = () => key('testgateway', 'charges');
const setupKey = (setupId: string) => key('testgateway', 'setup', setupId);
const SETUP_TTL_S = 86400;
const replayKey = (idempotencyKey: string) => key('testgateway', 'idem', idempotencyKey);

export function testOutcome(req: ChargeRequest, chargeId: string): ChargeResult {
  if (SUCCEEDS.has(req.paymentMethod)) return { status: 'succeeded', chargeId };
  const decline = DECLINES[req.paymentMethod];
  if (decline) return { status: 'declined', ...decline, chargeId };
  return { status: 'declined', code: 'resource_missing', message: `No such PaymentMethod: '${req.paymentMethod}'`, chargeId: null };
}

const stringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** A first answer as this gateway stored it in Redis; null when it is not one. */
function chargeResultOf(v: unknown): ChargeResult | null {
  if (!isRecord(v)) return null;
  if (v.status === 'succeeded' && typeof v.chargeId === 'string') return { status: 'succeeded', chargeId: v.chargeId };
  if (v.status === 'declined' && typeof v.code === 'string' && typeof v.message === 'string' && stringOrNull(v.chargeId))
    return { status: 'declined', code: v.code, message: v.message, chargeId: v.chargeId };
  return null;
}

const SETUP_STATUSES = ['open', 'complete', 'expired'] as const;

/** A setup as this gateway stored it in Redis; null when it is not one. */
function setupStateOf(v: unknown): SetupState | null {
  if (!isRecord(v) || typeof v.id !== 'string') return null;
  const status = SETUP_STATUSES.find((s) => s === v.status);
  const { customer, accountId, paymentMethod, url } = v;
  if (!status || !stringOrNull(customer) || !stringOrNull(accountId) || !stringOrNull(paymentMethod) || !stringOrNull(url)) return null;
  return { id: v.id, status, customer, accountId, paymentMethod, url };
}

export const testGateway: PaymentGateway = {
  name: 'test',
  async charge(req) {
    const chargeId = `pi_test_${req.idempotencyKey.replace(/[^A-Za-z0-9]/g, '').slice(-24)}`;
    const outcome = testOutcome(req, chargeId);
    const first = await redis().set(replayKey(req.idempotencyKey), JSON.stringify(outcome), 'EX', 86400, 'NX');
    if (first !== 'OK') {
      const replayed = await redis().get(replayKey(req.idempotencyKey));
      const result = replayed === null ? null : chargeResultOf(JSON.parse(replayed));
      if (!result) throw new Error(`test gateway: the first answer for ${req.idempotencyKey} is gone or unreadable`);
      return result;
    }
    await redis().rpush(
      TEST_GATEWAY_LOG(),
      JSON.stringify({ ...outcome, amountCents: req.amountCents, paymentMethod: req.paymentMethod, customer: req.customer, idempotencyKey: req.idempotencyKey, metadata: req.metadata }),
    );
    return outcome;
  },

  async createCustomer({ accountId }) {
    return `cus_test_${createHash('sha256').update(accountId).digest('hex').slice(0, 20)}`;
  },

  async startSetup(req) {
    if (!req.testCard || !TEST_CARDS.includes(req.testCard)) throw new GatewayRequestError(`the test gateway saves one of its test cards: ${TEST_CARDS.join(', ')}`);
    const state: SetupState = { id: `cs_test_${randomBytes(12).toString('hex')}`, status: 'complete', customer: req.customer, accountId: req.accountId, paymentMethod: req.testCard, url: null };
    await redis().set(setupKey(state.id), JSON.stringify(state), 'EX', SETUP_TTL_S);
    return state;
  },

  async findSetup(setupId) {
    const raw = await redis().get(setupKey(setupId));
    return raw ? setupStateOf(JSON.parse(raw)) : null;
  },
};
