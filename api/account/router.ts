import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { endSession, startSession } from '../../shared/app/accounts/sessions';
import { accountView, keysOf, logIn, newKey, revokeOwnKey, signUp, usageOf } from '../../shared/app/accounts/selfServe';
import { clearAutoRecharge, setAutoRecharge } from '../../shared/app/billing/accounts';
import { CREDIT_PACKAGES, CURRENCY, PACKAGE_PRICES_CENTS } from '../../shared/domain/billing/packages';
import { checkIdempotencyKey, purchasePackage } from '../../shared/app/billing/purchase';
import { confirmSetup, gatewayView, removePaymentMethod, savedPaymentMethod, startSetup } from '../../shared/app/billing/paymentMethods';
import { clientAddress, publicOrigin } from '../requestAddress';
import { perAddress } from '../middleware/perAddress';
import { getConfig } from '../../shared/platform/config';
import { ApiError, badRequest } from '../errors';
import { CHART_KINDS, trackRecordChartSvg, type ChartKind } from '../../shared/domain/trackRecord/charts';
import { chartSubtitle, loadTrackRecordBets, MAX_TRACK_RECORD_DAYS, trackRecordReport, type TrackRecordFilter } from '../../shared/app/trackRecord/load';
import { toApiError } from './failures';
import { clearSessionCookie, cookieSessionId, requireSession, sessionOf, setSessionCookie } from './session';

/**
 * The account API under /v2/account: sign-up, sessions, keys, usage, purchases and auto-recharge
 * for a developer in a browser (the dashboard) or a script. Free: no row of the cost table names
 * these paths, so metering lets them through and nothing is debited or counted as API usage.
 * JSON bodies only, parsed here alone (10 KB at most).
 */

/** Every path of the router and its methods: any other method is a 405 naming them. */
export const ACCOUNT_METHODS: Record<string, string[]> = {
  '/signup': ['POST'],
  '/login': ['POST'],
  '/logout': ['POST'],
  '/': ['GET'],
  '/keys': ['GET', 'POST'],
  '/keys/:id': ['DELETE'],
  '/usage': ['GET'],
  '/packages': ['GET'],
  '/purchases': ['POST'],
  '/payment-method': ['GET', 'POST', 'DELETE'],
  '/payment-method/confirm': ['POST'],
  '/auto-recharge': ['PUT', 'DELETE'],
  '/track-record': ['GET'],
  '/track-record/chart.svg': ['GET'],
};

type Handler = (req: Request, res: Response) => Promise<void> | void;

/** Runs a handler and renders the account actions' refusals in the error shape. */
const handle =
  (fn: Handler): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .catch((err: unknown) => next(toApiError(err)));
  };

type Body = Record<string, unknown>;

/** The JSON object a body-carrying request must send (a form post or text is refused: no cross-site simple request gets through). */
const jsonBody: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json')) return next(new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send a JSON body with Content-Type: application/json'));
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) return next(badRequest('body must be a JSON object'));
  next();
};

/** Only the query parameters named: anything else is a 400 naming it, as on the read API. */
const onlyQuery =
  (...allowed: string[]): RequestHandler =>
  (req, _res, next) => {
    for (const [name, value] of Object.entries(req.query)) {
      if (!allowed.includes(name)) return next(badRequest(`unknown parameter "${name}"`));
      if (typeof value !== 'string') return next(badRequest(`${name} must be a single value`));
    }
    next();
  };

/**
 * The window and counting of the dashboard's track record view: days 1-3650 (default 30) and per
 * recommendation (default) or outcome, as on /v2/ai/track-record; a bad value is a 400 naming it.
 */
function trackRecordWindow(req: Request): TrackRecordFilter {
  const { days: rawDays, per = 'recommendation' } = req.query as Record<string, string | undefined>;
  const days = rawDays === undefined ? 30 : /^[0-9]{1,4}$/.test(rawDays) ? Number(rawDays) : NaN;
  if (!(days >= 1 && days <= MAX_TRACK_RECORD_DAYS)) throw badRequest(`days must be an integer from 1 to ${MAX_TRACK_RECORD_DAYS}`);
  if (per !== 'recommendation' && per !== 'outcome') throw badRequest('per must be recommendation or outcome');
  return { days, per };
}

function chartKind(req: Request): ChartKind {
  const kind = (req.query.kind as string | undefined) ?? 'cumulative';
  if (!(CHART_KINDS as readonly string[]).includes(kind)) throw badRequest(`kind must be one of ${CHART_KINDS.join(', ')}`);
  return kind as ChartKind;
}

/** A body with a field the route does not take is a 400 naming it (nothing is ignored silently). */
function onlyFields(body: Body, ...allowed: string[]): void {
  const extra = Object.keys(body).find((k) => !allowed.includes(k));
  if (extra) throw badRequest(`${extra} is not a field of this request (it takes ${allowed.join(', ') || 'no field'})`);
}

/** Where the gateway's card page sends the owner back: the dashboard, which confirms the setup. */
const setupReturnUrl = (req: Request) => `${publicOrigin(req)}/dashboard/?setup={SETUP_ID}#/billing`;

async function signedIn(req: Request, res: Response, accountId: string, status: number): Promise<void> {
  // Rotated at every sign-in: a session id planted before login is worthless after it.
  await endSession(cookieSessionId(req));
  const session = await startSession(accountId);
  setSessionCookie(req, res, session.sessionId);
  res.status(status).json({ account: await accountView(accountId), csrfToken: session.csrfToken });
}

const packages = () => CREDIT_PACKAGES.map((credits) => ({ package: credits, credits, priceCents: PACKAGE_PRICES_CENTS[credits], currency: CURRENCY }));

export function accountRouter(): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(perAddress('account-addr', () => getConfig().ACCOUNT_API_PER_ADDRESS_PER_MINUTE, 60, 'account requests'));
  router.use(express.json({ limit: '10kb', strict: true, type: 'application/json' }));

  router.post(
    '/signup',
    // Counted before any work: each sign-up costs a 32 MiB scrypt and grants free credits.
    perAddress('signup-addr', () => getConfig().SIGNUP_PER_ADDRESS_PER_HOUR, 3600, 'sign-ups'),
    jsonBody,
    handle(async (req, res) => {
      const body = req.body as Body;
      const { accountId } = await signUp({ email: body.email, password: body.password });
      await signedIn(req, res, accountId, 201);
    }),
  );

  router.post(
    '/login',
    jsonBody,
    handle(async (req, res) => {
      const body = req.body as Body;
      const { accountId } = await logIn({ email: body.email, password: body.password }, clientAddress(req));
      await signedIn(req, res, accountId, 200);
    }),
  );

  router.get(
    '/packages',
    onlyQuery(),
    handle((_req, res) => void res.json({ data: packages() })),
  );

  // Everything below needs a session (and, to change anything, its CSRF token).
  const session = requireSession();
  /** A change sent as a JSON body by the signed-in account: the session and its CSRF token are checked first. */
  const signedInChange = (fn: (body: Body, accountId: string, req: Request, res: Response) => Promise<void>): RequestHandler[] => [
    session,
    jsonBody,
    handle((req, res) => fn(req.body as Body, sessionOf(res).accountId, req, res)),
  ];

  router.post(
    '/logout',
    session,
    handle(async (req, res) => {
      await endSession(cookieSessionId(req));
      clearSessionCookie(req, res);
      res.status(204).end();
    }),
  );

  router.get(
    '/',
    onlyQuery(),
    session,
    handle(async (_req, res) => {
      const s = sessionOf(res);
      res.json({ account: await accountView(s.accountId), csrfToken: s.csrfToken });
    }),
  );

  router.get(
    '/keys',
    onlyQuery(),
    session,
    handle(async (_req, res) => void res.json({ data: await keysOf(sessionOf(res).accountId) })),
  );

  router.post(
    '/keys',
    ...signedInChange(async (body, accountId, _req, res) => {
      res.status(201).json(await newKey(accountId, { name: body.name, mode: body.mode }));
    }),
  );

  router.delete(
    '/keys/:id',
    session,
    handle(async (req, res) => void res.json(await revokeOwnKey(sessionOf(res).accountId, String(req.params.id)))),
  );

  router.get(
    '/usage',
    onlyQuery('days'),
    session,
    handle(async (req, res) => {
      const raw = req.query.days as string | undefined;
      const days = raw === undefined ? 30 : /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
      res.json(await usageOf(sessionOf(res).accountId, days));
    }),
  );

  router.post(
    '/purchases',
    ...signedInChange(async (body, accountId, req, res) => {
      const purchase = await purchasePackage({
        accountId,
        package: body.package,
        paymentMethod: body.paymentMethod,
        customer: body.customer,
        idempotencyKey: checkIdempotencyKey(req.headers['idempotency-key']),
      });
      if (purchase.replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(201).json(purchase);
    }),
  );

  router.get(
    '/payment-method',
    onlyQuery(),
    session,
    handle(async (_req, res) => void res.json({ paymentMethod: await savedPaymentMethod(sessionOf(res).accountId), ...gatewayView() })),
  );

  router.post(
    '/payment-method',
    ...signedInChange(async (body, accountId, req, res) => {
      onlyFields(body, 'testCard');
      res.status(201).json(await startSetup(accountId, { testCard: body.testCard }, setupReturnUrl(req)));
    }),
  );

  router.post(
    '/payment-method/confirm',
    ...signedInChange(async (body, accountId, _req, res) => {
      onlyFields(body, 'setupId');
      res.json(await confirmSetup(accountId, body.setupId));
    }),
  );

  router.delete(
    '/payment-method',
    session,
    handle(async (_req, res) => {
      const accountId = sessionOf(res).accountId;
      await removePaymentMethod(accountId);
      res.json({ paymentMethod: null, autoRecharge: (await accountView(accountId)).autoRecharge });
    }),
  );

  router.put(
    '/auto-recharge',
    ...signedInChange(async (body, accountId, _req, res) => {
      await setAutoRecharge({ accountId, threshold: body.threshold, packageCredits: body.package, paymentMethod: body.paymentMethod, customer: body.customer });
      res.json({ autoRecharge: (await accountView(accountId)).autoRecharge });
    }),
  );

  router.delete(
    '/auto-recharge',
    session,
    handle(async (_req, res) => {
      const accountId = sessionOf(res).accountId;
      await clearAutoRecharge(accountId);
      res.json({ autoRecharge: (await accountView(accountId)).autoRecharge });
    }),
  );

  // The model's record for the signed-in developer, free: the dashboard shows it (the metered /v2/ai/track-record serves programs).
  router.get(
    '/track-record',
    onlyQuery('days', 'per'),
    session,
    handle(async (req, res) => void res.json(await trackRecordReport(trackRecordWindow(req)))),
  );

  router.get(
    '/track-record/chart.svg',
    onlyQuery('kind', 'days', 'per'),
    session,
    handle(async (req, res) => {
      const window = trackRecordWindow(req);
      const kind = chartKind(req);
      const { bets } = await loadTrackRecordBets(window);
      res.type('image/svg+xml').send(trackRecordChartSvg(kind, bets, chartSubtitle(window, bets.length)));
    }),
  );

  // A known path asked with another method: 405 with the methods it has (HEAD goes with GET).
  for (const [path, methods] of Object.entries(ACCOUNT_METHODS)) {
    const allow = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    router.all(path, (req, _res, next) => next(new ApiError('METHOD_NOT_ALLOWED', `Method ${req.method} not allowed on ${req.baseUrl}${req.path}`, {}, { Allow: allow.join(', ') })));
  }
  return router;
}
