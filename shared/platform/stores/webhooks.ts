import { isDeliveryStatus } from '../../domain/webhooks/events';
import type { PickRow } from '../../domain/webhooks/payloads';
import {
  createWebhookEndpoint,
  deleteDeliveriesCreatedBefore,
  deleteDeliveriesOfEndpoint,
  deleteWebhookEndpoint,
  findDeliveriesOfEndpoint,
  findDelivery,
  findOverdueDeliveries,
  findPickForWebhook,
  findSettledRecommendationsOfEvent,
  findWebhookEndpoint,
  findWebhookEndpointsOfAccount,
  findWebhookEndpointsSubscribedTo,
  insertDeliveriesIfAbsent,
  recordDeliveryAttempt,
  setDeliveryFields,
  setWebhookSecret,
} from '../db/repositories/webhooks';
import { feedWindow, readChanges } from '../feed/changeFeed';
import { disableEndpoint, enableEndpoint, feedCursor, healthOfEndpoints, recordEndpointFailure, recordEndpointSuccess, setFeedCursor } from '../webhooks/health';
import { postWebhook, resolveHost } from '../webhooks/http';

/** The webhooks' store (shared/app/webhooks/ports.ts): MongoDB's repositories, Redis, the change feed, DNS and HTTP. */
export function webhookStore() {
  const delivery = <D extends { status: string }>(d: D) => ({ ...d, status: isDeliveryStatus(d.status) ? d.status : ('cancelled' as const) });
  return {
    createEndpoint: createWebhookEndpoint,
    endpointsOfAccount: findWebhookEndpointsOfAccount,
    endpoint: findWebhookEndpoint,
    endpointsSubscribedTo: findWebhookEndpointsSubscribedTo,
    deleteEndpoint: async (accountId: string, id: string) => {
      if (!(await deleteWebhookEndpoint(accountId, id))) return false;
      // After the endpoint: an attempt that finds no endpoint is cancelled, so none is sent meanwhile.
      await deleteDeliveriesOfEndpoint(id);
      await enableEndpoint(id);
      return true;
    },
    setSecret: setWebhookSecret,
    insertDeliveries: insertDeliveriesIfAbsent,
    delivery: async (id: string) => {
      const d = await findDelivery(id);
      return d && delivery(d);
    },
    deliveriesOfEndpoint: async (endpointId: string, limit: number) => (await findDeliveriesOfEndpoint(endpointId, limit)).map(delivery),
    recordAttempt: recordDeliveryAttempt,
    setDelivery: setDeliveryFields,
    overdueDeliveries: async (before: Date, limit: number) => (await findOverdueDeliveries(before, limit)).map(delivery),
    deleteDeliveriesBefore: deleteDeliveriesCreatedBefore,
    health: healthOfEndpoints,
    recordSuccess: recordEndpointSuccess,
    recordFailure: recordEndpointFailure,
    disable: disableEndpoint,
    enable: enableEndpoint,
    readFeed: readChanges,
    feedHead: async () => (await feedWindow()).newestId,
    feedCursor,
    setFeedCursor,
    settledRecommendationsOfEvent: findSettledRecommendationsOfEvent,
    pick: async (id: string) => {
      const p = await findPickForWebhook(id);
      if (!p) return null;
      const row: PickRow = { ...p, _id: String(p._id), legs: p.legs ?? [] };
      return row;
    },
    resolveHost,
    post: postWebhook,
  };
}
