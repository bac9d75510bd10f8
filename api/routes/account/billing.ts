import type { Request } from 'express';
import { accountView } from '../../../shared/app/accounts/selfServe';
import { clearAutoRecharge, setAutoRecharge } from '../../../shared/app/billing/accounts';
import { confirmSetup, gatewayView, removePaymentMethod, savedPaymentMethod, startSetup, type SavedPaymentMethod, type SetupView } from '../../../shared/app/billing/paymentMethods';
import { checkIdempotencyKey, purchasePackage } from '../../../shared/app/billing/purchase';
import { CREDIT_PACKAGES, CURRENCY, PACKAGE_PRICES_CENTS } from '../../../shared/domain/billing/packages';
import { sessionOf } from '../../account/session';
import { badRequest } from '../../errors';
import { publicOrigin } from '../../requestAddress';
import {
  accountPurchaseResponse,
  autoRechargeBody,
  autoRechargeSettingsResponse,
  confirmBody,
  noQuery,
  packagesResponse,
  paymentMethodRemovedResponse,
  paymentMethodResponse,
  paymentMethodSetupResponse,
  purchaseBody,
  purchaseHeaders,
  setupBody,
} from '../../schemas/account';
import { route } from '../route';
import type { Route } from '../spec';
import { ACCOUNT, MONEY_403 } from './common';

/** A body with a field the route does not take is a 400 naming it (nothing is ignored silently). */
function onlyFields(body: object, ...allowed: string[]): void {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  if (extra) throw badRequest(`${extra} is not a field of this request (it takes ${allowed.join(', ') || 'no field'})`);
}

/** Where the gateway's card page sends the owner back: the dashboard, which confirms the setup. */
const setupReturnUrl = (req: Request, publicUrl: string) => `${publicOrigin(req, publicUrl)}/dashboard/?setup={SETUP_ID}#/billing`;

const isCardGateway = (gateway: string): gateway is 'test' | 'stripe' => gateway === 'test' || gateway === 'stripe';

/**
 * A saved payment method as published: a card is saved only through a gateway that sells (the
 * test gateway or Stripe: PAYMENT_GATEWAY=none saves none), and only the configured one is read.
 */
function published(saved: SavedPaymentMethod | null) {
  if (!saved) return null;
  if (!isCardGateway(saved.gateway)) throw new Error(`a payment method saved through an unknown gateway: ${saved.gateway}`);
  return { ...saved, gateway: saved.gateway };
}

const publishedSetup = (view: SetupView) => ({ setup: view.setup, paymentMethod: published(view.paymentMethod) });

const packages = () => CREDIT_PACKAGES.map((credits) => ({ package: credits, credits, priceCents: PACKAGE_PRICES_CENTS[credits], currency: CURRENCY }));

/** Credit packages, purchases, the saved card and auto-recharge. */
export function billingRoutes(): Route[] {
  return [
    route({
      ...ACCOUNT,
      path: '/packages',
      auth: 'none',
      operationId: 'accountPackages',
      summary: 'Credit packages',
      description: 'Sizes and prices; credits never expire.',
      query: noQuery,
      response: packagesResponse,
      errors: {},
      handler: ({ json }) => json({ data: packages() }),
    }),
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/purchases',
      auth: 'session',
      operationId: 'accountPurchase',
      summary: 'Buy a credit package',
      description:
        "Charges the account's saved payment method (never one named in the request) through the configured gateway and credits the package: to the live balance through a real gateway (mode: live), to the test credits through the test gateway (mode: test; only test keys see them, a live key never spends them). One Idempotency-Key is one purchase: a retry charges and credits nothing more (answered with replayed: true). Without the header, identical purchases within 10 minutes are one purchase.",
      query: null,
      headers: purchaseHeaders,
      body: purchaseBody,
      status: 201,
      response: accountPurchaseResponse,
      errors: {
        400: 'Bad package, or a paymentMethod or customer sent (not accepted).',
        402: 'Payment declined.',
        403: MONEY_403,
        409: 'No payment method saved, or Idempotency-Key reused for another purchase.',
        503: 'Gateway did not answer: retry with the same key.',
      },
      handler: async ({ req, body, json, app }) => {
        const purchase = await purchasePackage(app, {
          accountId: sessionOf(req).accountId,
          package: body.package,
          paymentMethod: body.paymentMethod,
          customer: body.customer,
          idempotencyKey: checkIdempotencyKey(req.headers['idempotency-key']),
        });
        return json(purchase, undefined, purchase.replayed ? { 'Idempotent-Replayed': 'true' } : {});
      },
    }),
    route({
      ...ACCOUNT,
      path: '/payment-method',
      auth: 'session',
      operationId: 'accountPaymentMethodGet',
      summary: 'The saved payment method',
      description: 'What purchases and auto-recharge charge; null when none is saved.',
      query: noQuery,
      response: paymentMethodResponse,
      handler: async ({ req, json, app }) => {
        const { gateway, testCards } = gatewayView(app);
        return json({ paymentMethod: published(await savedPaymentMethod(app, sessionOf(req).accountId)), gateway, testCards: [...testCards] });
      },
    }),
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/payment-method',
      auth: 'session',
      operationId: 'accountPaymentMethodSetup',
      summary: 'Save a card',
      description:
        "Creates the account's customer at the gateway (once) and starts a setup. Stripe: answers the Checkout page (setup mode) to send the owner to, which returns to the dashboard; confirm the setup afterwards. The test gateway: testCard names one of its test cards (pm_card_visa, ...) and the card is saved at once.",
      query: null,
      body: setupBody,
      status: 201,
      response: paymentMethodSetupResponse,
      errors: { 400: 'testCard missing (test gateway) or sent (Stripe), or another field.', 403: MONEY_403, 503: 'Gateway did not answer: retry.' },
      handler: async ({ req, body, json, app }) => {
        onlyFields(body, 'testCard');
        return json(publishedSetup(await startSetup(app, sessionOf(req).accountId, { testCard: body.testCard }, setupReturnUrl(req, app.config.PUBLIC_URL))));
      },
    }),
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/payment-method/confirm',
      auth: 'session',
      operationId: 'accountPaymentMethodConfirm',
      summary: 'Save the card of a finished setup',
      description: "Reads the setup back from the gateway (never from the request) and saves its card when the setup is this account's and complete.",
      query: null,
      body: confirmBody,
      response: paymentMethodSetupResponse,
      errors: { 400: 'Bad setupId.', 403: MONEY_403, 404: 'No setup of this account with this id.', 409: 'The setup is not complete (or expired).', 503: 'Gateway did not answer: retry.' },
      handler: async ({ req, body, json, app }) => {
        onlyFields(body, 'setupId');
        return json(publishedSetup(await confirmSetup(app, sessionOf(req).accountId, body.setupId)));
      },
    }),
    route({
      ...ACCOUNT,
      method: 'DELETE',
      path: '/payment-method',
      auth: 'session',
      operationId: 'accountPaymentMethodRemove',
      summary: 'Forget the saved card',
      description: 'Nothing can be charged until a card is saved again; auto-recharge is turned off.',
      query: null,
      response: paymentMethodRemovedResponse,
      handler: async ({ req, json, app }) => {
        const { accountId } = sessionOf(req);
        await removePaymentMethod(app, accountId);
        return json({ paymentMethod: null, autoRecharge: (await accountView(app, accountId)).autoRecharge });
      },
    }),
    route({
      ...ACCOUNT,
      method: 'PUT',
      path: '/auto-recharge',
      auth: 'session',
      operationId: 'accountAutoRechargeSet',
      summary: 'Turn auto-recharge on',
      description:
        'Buys the package when the (live) balance falls below the threshold (once per low-balance window; a decline is retried once an hour later). Through the test gateway it buys test credits, which the live balance never receives.',
      query: null,
      body: autoRechargeBody,
      response: autoRechargeSettingsResponse,
      errors: { 400: "Bad package, a threshold not below the package's credits, or a paymentMethod or customer sent.", 403: MONEY_403, 409: 'No payment method saved.' },
      handler: async ({ req, body, json, app }) => {
        const { accountId } = sessionOf(req);
        await setAutoRecharge(app, { accountId, threshold: body.threshold, packageCredits: body.package, paymentMethod: body.paymentMethod, customer: body.customer });
        return json({ autoRecharge: (await accountView(app, accountId)).autoRecharge });
      },
    }),
    route({
      ...ACCOUNT,
      method: 'DELETE',
      path: '/auto-recharge',
      auth: 'session',
      operationId: 'accountAutoRechargeOff',
      summary: 'Turn auto-recharge off',
      description: 'No further charges.',
      query: null,
      response: autoRechargeSettingsResponse,
      handler: async ({ req, json, app }) => {
        const { accountId } = sessionOf(req);
        await clearAutoRecharge(app, accountId);
        return json({ autoRecharge: (await accountView(app, accountId)).autoRecharge });
      },
    }),
  ];
}
