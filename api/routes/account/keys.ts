import { keysOf, newKey, revokeOwnKey, usageOf } from '../../../shared/app/accounts/selfServe';
import { sessionOf } from '../../account/session';
import { accountUsageResponse, keyParams, keysResponse, newKeyBody, newKeyResponse, noQuery, revokedKeyResponse, usageQuery } from '../../schemas/account';
import { route } from '../route';
import type { Route } from '../spec';
import { ACCOUNT } from './common';
import { MAX_USAGE_DAYS } from '../../../shared/domain/accounts/usage';

/** The account's API keys and their usage. */
export function keyRoutes(): Route[] {
  return [
    route({
      ...ACCOUNT,
      path: '/keys',
      auth: 'session',
      operationId: 'accountKeysList',
      summary: 'List API keys',
      description: 'The unrevoked keys: name, mode, prefix, created, last used. Never a secret.',
      query: noQuery,
      response: keysResponse,
      handler: async ({ req, json, app }) => json({ data: await keysOf(app, sessionOf(req).accountId) }),
    }),
    route({
      ...ACCOUNT,
      method: 'POST',
      path: '/keys',
      auth: 'session',
      operationId: 'accountKeysCreate',
      summary: 'Create an API key',
      description: 'The secret is in this answer only: it is stored hashed.',
      query: null,
      body: newKeyBody,
      status: 201,
      response: newKeyResponse,
      errors: { 400: 'Bad name or mode.', 409: 'Too many keys.' },
      handler: async ({ req, body, json, app }) => json(await newKey(app, sessionOf(req).accountId, { name: body.name, mode: body.mode })),
    }),
    route({
      ...ACCOUNT,
      method: 'DELETE',
      path: '/keys/{id}',
      auth: 'session',
      operationId: 'accountKeysRevoke',
      summary: 'Revoke an API key',
      description: 'The key answers 401 from its very next request, on every web process.',
      params: keyParams,
      query: null,
      response: revokedKeyResponse,
      errors: { 404: 'No such key in this account.' },
      handler: async ({ req, params, json, app }) => json(await revokeOwnKey(app, sessionOf(req).accountId, params.id)),
    }),
    route({
      ...ACCOUNT,
      path: '/usage',
      auth: 'session',
      operationId: 'accountUsage',
      summary: 'Usage per day and endpoint',
      description: 'Billed requests and credits per UTC day and endpoint, from the ledger (refunded requests not counted).',
      query: usageQuery,
      messages: { days: `days must be an integer from 1 to ${MAX_USAGE_DAYS}` },
      response: accountUsageResponse,
      errors: { 400: 'Bad days.' },
      handler: async ({ req, query, json, app }) => json(await usageOf(app, sessionOf(req).accountId, query.days)),
    }),
  ];
}
