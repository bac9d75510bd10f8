import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Stripe's Customers, Checkout Sessions (setup mode, read back with the
 * SetupIntent expanded; `completeCheckout` plays the owner entering a card on Stripe's page) and
 * PaymentIntents endpoints, serving responses of Stripe's documented
 * shape (recorded from the API reference: a succeeded PaymentIntent, a 402 card_error with the
 * PaymentIntent in requires_payment_method, a 401 for a bad secret key, and the 400
 * invalid_request_errors Stripe answers for a saved payment method used without its customer, with
 * another customer, or unknown). Payment methods are saved on customers (`savedOn`, seeded with
 * FAKE_STRIPE_CUSTOMER's cards); as at Stripe, a charge of one must name that customer.
 * Like Stripe, a repeated Idempotency-Key replays the first response and creates nothing; a request
 * failing validation saves no result (Stripe saves one only once the endpoint starts executing).
 * `hold` keeps the first answer of each new charge from being sent (the charge is made, the caller
 * never hears back).
 */
export interface FakeStripe {
  url: string;
  secretKey: string;
  /** One per PaymentIntent created (= per real charge attempt). */
  created: { idempotencyKey: string; paymentMethod: string; amount: number; status: string }[];
  requests: { idempotencyKey: string | undefined; body: Record<string, string> }[];
  /** payment method -> the customer it is attached to. */
  savedOn: Map<string, string>;
  hold: boolean;
  failNext: number;
  /** Customers created (POST /v1/customers): id -> metadata. */
  customers: Map<string, Record<string, string>>;
  /** Checkout Sessions in setup mode, by id. */
  sessions: Map<string, CheckoutSession>;
  /** What the owner does on Stripe's page: saves this card on the session's customer and completes the session. */
  completeCheckout(sessionId: string, paymentMethod: string): void;
  close(): Promise<void>;
}

export interface CheckoutSession {
  id: string;
  customer: string;
  metadata: Record<string, string>;
  status: 'open' | 'complete' | 'expired';
  successUrl: string;
  setupIntent: { id: string; status: string; paymentMethod: string | null };
}

/** The customer the fake's seeded payment methods are attached to. */
export const FAKE_STRIPE_CUSTOMER = 'cus_fakeStripeSaved01';
const SEEDED = ['pm_card_visa', 'pm_card_mastercard', 'pm_card_chargeDeclined', 'pm_card_visa_chargeDeclinedInsufficientFunds'];

const DECLINES: Record<string, { code: string; decline_code: string; message: string }> = {
  pm_card_chargeDeclined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclinedInsufficientFunds: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

const invalidRequest = (error: Record<string, string>) => ({ status: 400, json: { error: { type: 'invalid_request_error', ...error } } });

/** Stripe's answers for a payment method it cannot use with this customer (undefined: usable). */
function customerMismatch(savedOn: Map<string, string>, paymentMethod: string, customer: string | undefined) {
  const owner = savedOn.get(paymentMethod);
  if (!owner) {
    return invalidRequest({ code: 'resource_missing', param: 'payment_method', message: `No such PaymentMethod: '${paymentMethod}'`, doc_url: 'https://stripe.com/docs/error-codes/resource-missing' });
  }
  if (!customer) {
    return invalidRequest({
      code: 'parameter_missing',
      param: 'payment_method',
      message: `The \`payment_method\` parameter supplied ${paymentMethod} belongs to the Customer ${owner}. Please include the Customer in the \`customer\` parameter on the PaymentIntent.`,
      doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
    });
  }
  if (customer !== owner) {
    return invalidRequest({ param: 'payment_method', message: `The customer does not have a payment method with the ID ${paymentMethod}. The payment method must be attached to the customer.` });
  }
  return undefined;
}

function intent(id: string, body: Record<string, string>, status: string) {
  return {
    id,
    object: 'payment_intent',
    amount: Number(body.amount),
    amount_capturable: 0,
    amount_received: status === 'succeeded' ? Number(body.amount) : 0,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_fake`,
    confirmation_method: 'automatic',
    created: Math.floor(Date.now() / 1000),
    currency: body.currency,
    customer: body.customer ?? null,
    description: body.description ?? null,
    last_payment_error: null,
    latest_charge: status === 'succeeded' ? `ch_${id.slice(3)}` : null,
    livemode: false,
    metadata: Object.fromEntries(
      Object.entries(body)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice(9, -1), v]),
    ),
    payment_method: body.payment_method,
    payment_method_types: ['card'],
    status,
  };
}

const metadataOf = (body: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(body)
      .filter(([k]) => k.startsWith('metadata['))
      .map(([k, v]) => [k.slice(9, -1), v]),
  );

/** A Checkout Session as Stripe answers it (setup mode), its SetupIntent expanded when asked. */
function sessionJson(s: CheckoutSession, baseUrl: string, expand: boolean) {
  return {
    id: s.id,
    object: 'checkout.session',
    mode: 'setup',
    status: s.status,
    customer: s.customer,
    metadata: s.metadata,
    success_url: s.successUrl,
    url: s.status === 'open' ? `${baseUrl}/pay/${s.id}` : null,
    setup_intent: expand
      ? { id: s.setupIntent.id, object: 'setup_intent', status: s.setupIntent.status, customer: s.customer, payment_method: s.setupIntent.paymentMethod, usage: 'off_session' }
      : s.setupIntent.id,
    livemode: false,
  };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const replies = new Map<string, { status: number; json: unknown }>();
  const fake: FakeStripe = {
    url: '',
    secretKey: 'sk_test_fakeStripeSecret000000',
    created: [],
    requests: [],
    savedOn: new Map(SEEDED.map((pm) => [pm, FAKE_STRIPE_CUSTOMER])),
    hold: false,
    failNext: 0,
    customers: new Map(),
    sessions: new Map(),
    completeCheckout(sessionId, paymentMethod) {
      const s = fake.sessions.get(sessionId);
      if (!s || s.status !== 'open') throw new Error(`no open checkout session ${sessionId}`);
      s.status = 'complete';
      s.setupIntent = { ...s.setupIntent, status: 'succeeded', paymentMethod };
      fake.savedOn.set(paymentMethod, s.customer);
    },
    close: async () => undefined,
  };
  /** The customers and setup sessions endpoints; undefined when the request is not one of them. */
  const setupEndpoints = (method: string, url: string, body: Record<string, string>): { status: number; json: unknown } | undefined => {
    const path = url.split('?')[0];
    if (method === 'POST' && path === '/v1/customers') {
      const id = `cus_${Math.random().toString(36).slice(2, 14)}`;
      fake.customers.set(id, metadataOf(body));
      return { status: 200, json: { id, object: 'customer', email: body.email ?? null, metadata: metadataOf(body), livemode: false } };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (body.mode !== 'setup') return invalidRequest({ param: 'mode', message: 'This fake serves setup mode only.' });
      if (!body.customer || !fake.customers.has(body.customer)) return invalidRequest({ code: 'resource_missing', param: 'customer', message: `No such customer: '${body.customer}'` });
      if (!body.success_url) return invalidRequest({ code: 'parameter_missing', param: 'success_url', message: 'Missing required param: success_url.' });
      const id = `cs_test_${Math.random().toString(36).slice(2, 14)}`;
      const session: CheckoutSession = {
        id,
        customer: body.customer,
        metadata: metadataOf(body),
        status: 'open',
        successUrl: body.success_url,
        setupIntent: { id: `seti_${id.slice(8)}`, status: 'requires_payment_method', paymentMethod: null },
      };
      fake.sessions.set(id, session);
      return { status: 200, json: sessionJson(session, fake.url, false) };
    }
    const m = /^\/v1\/checkout\/sessions\/([A-Za-z0-9_]+)$/.exec(path);
    if (method === 'GET' && m) {
      const session = fake.sessions.get(m[1]);
      if (!session) return { status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${m[1]}'` } } };
      return { status: 200, json: sessionJson(session, fake.url, url.includes('expand%5B0%5D=setup_intent') || url.includes('expand[0]=setup_intent')) };
    }
    return undefined;
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${Math.random().toString(36).slice(2)}` });
        res.end(JSON.stringify(json));
      };
      const body = Object.fromEntries(new URLSearchParams(raw));
      const idem = req.headers['idempotency-key'] as string | undefined;
      fake.requests.push({ idempotencyKey: idem, body });
      if (req.headers.authorization !== `Bearer ${fake.secretKey}`) return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } });
      if (idem && replies.has(idem)) {
        const r = replies.get(idem)!;
        return send(r.status, r.json);
      }
      const setup = setupEndpoints(req.method ?? 'GET', req.url ?? '/', body);
      if (setup) {
        if (idem && setup.status === 200) replies.set(idem, setup);
        return send(setup.status, setup.json);
      }
      if (req.method !== 'POST' || req.url !== '/v1/payment_intents') return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url}).` } });
      if (fake.failNext > 0) {
        fake.failNext--;
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      }
      if (idem && replies.has(idem)) {
        const r = replies.get(idem)!;
        return send(r.status, r.json);
      }
      const invalid = customerMismatch(fake.savedOn, body.payment_method, body.customer);
      if (invalid) return send(invalid.status, invalid.json); // validation: nothing created, nothing saved for the key
      const id = `pi_${Math.random().toString(36).slice(2, 14)}${fake.created.length}`;
      const decline = DECLINES[body.payment_method];
      const reply = decline
        ? {
            status: 402,
            json: {
              error: {
                type: 'card_error',
                ...decline,
                charge: `ch_${id.slice(3)}`,
                doc_url: 'https://stripe.com/docs/error-codes/card-declined',
                payment_intent: intent(id, body, 'requires_payment_method'),
              },
            },
          }
        : { status: 200, json: intent(id, body, 'succeeded') };
      fake.created.push({ idempotencyKey: idem ?? '', paymentMethod: body.payment_method, amount: Number(body.amount), status: decline ? 'declined' : 'succeeded' });
      if (idem) replies.set(idem, reply);
      if (fake.hold) return; // charged, but the caller never hears back
      send(reply.status, reply.json);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
  return fake;
}
