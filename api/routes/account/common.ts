import { toApiError } from '../../account/failures';

/**
 * What every route of the account API shares: mounted under /v2/account (api/account/router.ts:
 * JSON bodies of 10 KB at most, a per-address limit, no-store), free (no row of the cost table
 * names these paths: nothing is debited or counted as API usage), under the Account tag, and the
 * use cases' refusals answered in the error shape.
 */
export const ACCOUNT = { mount: '/v2/account', price: null, tag: 'Account', refusals: toApiError } as const;

/** The 403 of a route that changes money: also refused when the deployment sells nothing. */
export const MONEY_403 = 'Missing or wrong X-CSRF-Token, or this deployment sells nothing (PAYMENT_GATEWAY=none).';
