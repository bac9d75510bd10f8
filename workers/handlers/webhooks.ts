import type { Job } from 'bullmq';
import type { WebhookPayloads, webhooksQueue } from '../../jobs/webhooks';
import type { AppContext } from '../../shared/app/context';
import { attemptDelivery } from '../../shared/app/webhooks/deliver';
import { fanOutAccountEvent, fanOutPick } from '../../shared/app/webhooks/fanout';
import { sweepWebhooks } from '../../shared/app/webhooks/sweep';
import type { Registration } from '../registry';

/** The webhooks queue's handlers, run in the process's context. */
export function webhookHandlers(ctx: AppContext): Registration<typeof webhooksQueue>[] {
  return [
    ['deliver', (job: Job<WebhookPayloads['deliver']>) => attemptDelivery(ctx, job.data)],
    ['account-event', (job: Job<WebhookPayloads['account-event']>) => fanOutAccountEvent(ctx, job.data)],
    ['pick-created', (job: Job<WebhookPayloads['pick-created']>) => fanOutPick(ctx, job.data.pickId)],
    ['sweep', () => sweepWebhooks(ctx)],
  ];
}
