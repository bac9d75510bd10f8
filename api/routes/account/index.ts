import { billingRoutes } from './billing';
import { keyRoutes } from './keys';
import { sessionRoutes } from './sessions';
import { accountStreamRoutes } from './stream';
import type { Config } from '../../../shared/platform/config';
import type { Route } from '../spec';
import { accountTrackRecordRoutes } from './trackRecord';
import { webhookRoutes } from './webhooks';

/**
 * The account API under /v2/account: sign-up, sessions, keys, usage, purchases and auto-recharge
 * for a developer in a browser (the dashboard) or a script, mounted by api/account/router.ts. In
 * the order of the OpenAPI document.
 */
export function accountRoutes(cfg: Config): Route[] {
  return [...sessionRoutes(cfg), ...keyRoutes(), ...webhookRoutes(), ...accountTrackRecordRoutes(), ...accountStreamRoutes(cfg), ...billingRoutes()];
}
