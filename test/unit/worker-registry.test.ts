import { expect } from 'chai';
import { defineQueue, safeJobId } from '../../jobs/define';
import { ALL_QUEUES } from '../../jobs';
import { processContext } from '../../shared/app/processContext';
import { aiHandlers } from '../../workers/handlers/ai';
import { ingestHandlers } from '../../workers/handlers/ingest';
import { rechargeHandlers } from '../../workers/handlers/recharge';
import { settlementHandlers } from '../../workers/handlers/settlement';
import { webhookHandlers } from '../../workers/handlers/webhooks';
import { HandlerRegistrationError, resolveHandlers } from '../../workers/registry';

const q = defineQueue<{ a: { id: string }; b: { id: string } }>({
  name: 'q',
  defaultJobOptions: {},
  jobs: { a: { jobId: (p) => safeJobId('a', [p.id]) }, b: { jobId: (p) => safeJobId('b', [p.id]) } },
});
const noop = async () => undefined;

describe('worker handler registration', () => {
  it('happy: resolves one handler per declared job', () => {
    expect([
      ...resolveHandlers(q, [
        ['a', noop],
        ['b', noop],
      ]).keys(),
    ]).to.deep.equal(['a', 'b']);
  });

  it('error: refuses a missing handler', () => {
    expect(() => resolveHandlers(q, [['a', noop]])).to.throw(HandlerRegistrationError, /no handler for job\(s\) b/);
  });

  it('error: refuses two handlers for one job', () => {
    expect(() =>
      resolveHandlers(q, [
        ['a', noop],
        ['b', noop],
        ['a', noop],
      ]),
    ).to.throw(HandlerRegistrationError, /two handlers for job "a"/);
  });

  it('error: refuses a handler for an undeclared job', () => {
    expect(() =>
      resolveHandlers(q, [
        ['a', noop],
        ['b', noop],
        ['c' as 'a', noop],
      ]),
    ).to.throw(HandlerRegistrationError, /undeclared job "c"/);
  });

  it('every queue of the service boots with its handlers', () => {
    const ctx = processContext();
    const byQueue: Record<string, unknown[]> = {
      ingest: ingestHandlers(ctx),
      ai: aiHandlers(ctx),
      settlement: settlementHandlers(ctx),
      recharge: rechargeHandlers(ctx),
      webhooks: webhookHandlers(ctx),
    };
    for (const def of ALL_QUEUES) expect(() => resolveHandlers(def as never, byQueue[def.name] as never)).not.to.throw();
  });

  it('job ids never contain ":" and are deterministic', () => {
    for (const def of ALL_QUEUES) {
      for (const [name, job] of Object.entries(def.jobs)) {
        const payload = { provider: 'simulated', slot: 1, eventId: '123', version: 1, resultVersion: 0, sportId: 1, window: 'w', day: '2026-01-01', accountId: 'acc', attempt: 1 };
        const id = (job as { jobId: (p: unknown) => string }).jobId(payload);
        expect(id, `${def.name}/${name}`).not.to.include(':');
        expect(id).to.equal((job as { jobId: (p: unknown) => string }).jobId(payload));
        expect(/^\d+$/.test(id)).to.equal(false);
      }
    }
  });
});
