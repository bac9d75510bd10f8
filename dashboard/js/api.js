/**
 * The account API (/v2/account) as the page uses it. The session is an HttpOnly cookie the browser
 * sends by itself; every state-changing request also carries the session's CSRF token, which the
 * server hands out in the sign-up, sign-in and account bodies and which lives only in this
 * module's memory (never in storage a script of another page could read).
 */
const BASE = '/v2/account';
let csrfToken = null;

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export async function request(method, path, body, extraHeaders = {}) {
  const headers = { Accept: 'application/json', ...extraHeaders };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let res;
  try {
    res = await fetch(BASE + path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'Cannot reach the server. Check your connection and try again.');
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    let message = (data && typeof data.message === 'string' && data.message) || `The server answered ${res.status} ${res.statusText}.`;
    const retryAfter = res.headers.get('Retry-After');
    if (res.status === 429 && retryAfter && !/retry/i.test(message)) message += ` Try again in ${retryAfter} s.`;
    throw new ApiError(res.status, message, data);
  }
  const token = findToken(data);
  if (token) csrfToken = token;
  return data;
}

function findToken(data) {
  if (!data || typeof data !== 'object') return null;
  if (typeof data.csrfToken === 'string') return data.csrfToken;
  if (data.data && typeof data.data.csrfToken === 'string') return data.data.csrfToken;
  return null;
}

export const forgetSession = () => (csrfToken = null);

/** The first array in a list body: `[...]`, `{data: [...]}` or `{<name>: [...]}`. */
function listOf(body, ...names) {
  if (Array.isArray(body)) return body;
  if (!body || typeof body !== 'object') return [];
  for (const name of ['data', ...names]) if (Array.isArray(body[name])) return body[name];
  if (body.data && typeof body.data === 'object') return listOf(body.data, ...names);
  return [];
}

function accountOf(body) {
  const a = (body && (body.account || (body.data && !Array.isArray(body.data) ? body.data : null))) || body || {};
  const ar = a.autoRecharge || {};
  return {
    id: a.id,
    email: a.email || a.name || '',
    balance: Number(a.balance ?? a.credits ?? 0),
    // Test credits (bought through the test gateway): apart from the balance, seen by test keys only.
    testBalance: Number(a.testBalance ?? a.testCredits ?? 0),
    autoRecharge: {
      enabled: Boolean(ar.enabled),
      threshold: ar.threshold ?? null,
      package: ar.package ?? ar.packageCredits ?? null,
      disabledReason: ar.disabledReason ?? null,
    },
  };
}

function keyOf(k) {
  return {
    id: k.id ?? k._id,
    name: k.name ?? '',
    mode: k.mode ?? (String(k.prefix || '').startsWith('sk_test_') ? 'test' : 'live'),
    prefix: k.prefix ?? '',
    createdAt: k.createdAt ?? k.created ?? null,
    lastUsedAt: k.lastUsedAt ?? k.lastUsed ?? null,
    revoked: Boolean(k.revokedAt ?? k.revoked),
  };
}

/**
 * Usage rows `{day, endpoint, requests, credits}`, from either flat rows or days that hold their
 * endpoints (`{day, endpoints: [{endpoint, requests, credits}]}`).
 */
function usageOf(body) {
  const rows = [];
  for (const r of listOf(body, 'usage', 'days')) {
    const day = String(r.day ?? r.date ?? '').slice(0, 10);
    const nested = Array.isArray(r.endpoints) ? r.endpoints : null;
    if (nested) for (const e of nested) rows.push({ day, endpoint: e.endpoint, requests: Number(e.requests ?? 0), credits: Number(e.credits ?? 0) });
    else rows.push({ day, endpoint: r.endpoint, requests: Number(r.requests ?? 0), credits: Number(r.credits ?? 0) });
  }
  return rows.filter((r) => r.day && r.endpoint);
}

function packageOf(p) {
  if (typeof p === 'number') return { credits: p, priceCents: null };
  return { credits: Number(p.credits ?? p.package ?? p.packageCredits), priceCents: p.priceCents ?? p.price ?? null, currency: p.currency ?? 'usd' };
}

export const signUp = async (email, password) => accountOf(await request('POST', '/signup', { email, password }));
export const signIn = async (email, password) => accountOf(await request('POST', '/login', { email, password }));
export const signOut = async () => {
  try {
    await request('POST', '/logout');
  } finally {
    forgetSession();
  }
};
export const getAccount = async () => accountOf(await request('GET', ''));
export const listKeys = async () => listOf(await request('GET', '/keys'), 'keys').map(keyOf);
export const createKey = async (name, mode) => {
  const body = await request('POST', '/keys', { name, mode });
  const k = body && body.data && !Array.isArray(body.data) ? body.data : body;
  return { id: k.id, key: k.key ?? k.secret };
};
export const revokeKey = (id) => request('DELETE', `/keys/${encodeURIComponent(id)}`);
export const getUsage = async (days) => usageOf(await request('GET', `/usage?days=${days}`));
export const listPackages = async () => listOf(await request('GET', '/packages'), 'packages').map(packageOf);
/** One key per purchase the user asks for: a retried request of it is charged once, a second purchase is a new one. */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
export const buyPackage = (credits, key = idempotencyKey()) => request('POST', '/purchases', { package: credits }, { 'Idempotency-Key': key });
export const setAutoRecharge = (threshold, credits) => request('PUT', '/auto-recharge', { threshold, package: credits });
/** The saved card, the gateway (test, stripe or none) and the test gateway's cards. */
export const getPaymentMethod = () => request('GET', '/payment-method');
/** Starts saving a card: the test gateway saves `testCard` at once; Stripe answers the page to go to. */
export const startCardSetup = (testCard) => request('POST', '/payment-method', testCard ? { testCard } : {});
export const confirmCardSetup = (setupId) => request('POST', '/payment-method/confirm', { setupId });
export const removeCard = () => request('DELETE', '/payment-method');
export const clearAutoRecharge = () => request('DELETE', '/auto-recharge');

/** The model's track record over the last `days` days or `all` (the figures of /v2/ai/track-record), with its charts drawn from the same bets. */
export const getTrackRecord = (days, per) => request('GET', `/track-record?days=${encodeURIComponent(days)}&per=${encodeURIComponent(per)}`);
