import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import * as cron from 'node-cron';
import { aiQueue } from '../jobs/ai';
import { enqueue, queueFor } from '../shared/platform/queues/client';
import { ingestQueue } from '../jobs/ingest';
import { rechargeQueue } from '../jobs/recharge';
import { settlementQueue } from '../jobs/settlement';
import { webhooksQueue } from '../jobs/webhooks';
import { getConfig } from '../shared/platform/config';
import { FerretVacuum } from '../shared/platform/db/ferretVacuum';
import { key, redis } from '../shared/platform/db/redis';
import { LeaderLock } from '../shared/platform/locks';
import { childLogger } from '../shared/platform/logger';
import { SPORTS } from '../shared/domain/sports';
import { refitWindowDue } from '../shared/domain/ai/refitWindow';
import { worldNow } from '../shared/platform/clock/worldClock';
import { main, type Service } from './runtime';
import { daysBefore, utcDay } from '../shared/domain/days';
import { msToNextSlot } from '../shared/domain/ingest/slots';

const log = childLogger({ process: 'scheduler' });

const minuteStamp = (d = new Date()) => d.toISOString().slice(0, 16).replace(/[-:T]/g, '');
const hourStamp = (d = new Date()) => d.toISOString().slice(0, 13).replace(/[-:T]/g, '');

/** Slots not enqueued behind a waiting poll: a warning when it starts, then one a minute, with the count. */
const skippedSlots = {
  streaks: new Map<string, { skipped: number; loggedAt: number }>(),
  note(provider: string, slot: number): void {
    const s = this.streaks.get(provider);
    if (!s || Date.now() - s.loggedAt >= 60_000) {
      const skipped = (s?.skipped ?? 0) + 1;
      log.warn({ provider, slot, skipped, intervalMs: getConfig().POLL_INTERVAL_MS }, 'polls take longer than POLL_INTERVAL_MS: slots not enqueued while the previous poll still waits');
      this.streaks.set(provider, { skipped: 0, loggedAt: Date.now() });
    } else s.skipped++;
  },
  enqueued(provider: string): void {
    this.streaks.delete(provider);
  },
};

/** Run here, not queued: a round is cheap, the leader runs it alone, and a missed one is the next one. */
async function vacuumRound(vacuum: FerretVacuum): Promise<void> {
  const r = await vacuum.round();
  if (r.vacuumed.length || r.analyzed.length) log.debug({ vacuumed: r.vacuumed, analyzed: r.analyzed, ms: r.ms }, 'ferretdb tables vacuumed');
}

async function providersWithPendingPoll(): Promise<Set<string>> {
  const waiting = await queueFor(ingestQueue).getJobs(['waiting', 'delayed', 'prioritized'], 0, 50);
  return new Set(waiting.filter((j) => j?.name === 'poll').map((j) => (j.data as { provider: string }).provider));
}

/**
 * The clock. Every copy runs the timers, but only the holder of the Redis lease enqueues; the job
 * ids are derived from the time slot, so even a brief double leadership enqueues nothing twice.
 */
/** The world hour this scheduler last asked refits for (a new leader asks again: the same window writes the same fit). */
let lastRefitWindow: string | null = null;

/**
 * `everyMs` runs every interval from the start; `atSlots` at the start of every slot of that
 * interval (the poll: a poll is for its slot's start, so one fired late in its slot would serve
 * the provider's world as it was up to an interval before).
 */
export function scheduledJobs(vacuum?: FerretVacuum): { name: string; cron?: string; everyMs?: number; atSlots?: boolean; run: () => Promise<unknown> }[] {
  const cfg = getConfig();
  const maintenance = vacuum && cfg.FERRETDB_VACUUM_MS > 0 ? [{ name: 'ferretdb-vacuum', everyMs: cfg.FERRETDB_VACUUM_MS, run: () => vacuumRound(vacuum) }] : [];
  return [
    ...maintenance,
    {
      name: 'poll',
      everyMs: cfg.POLL_INTERVAL_MS,
      atSlots: true,
      run: async () => {
        const slot = Math.floor(Date.now() / cfg.POLL_INTERVAL_MS);
        const pending = await providersWithPendingPoll();
        return Promise.all(
          cfg.PROVIDERS.map((provider) => {
            if (!pending.has(provider)) {
              skippedSlots.enqueued(provider);
              return enqueue(ingestQueue, 'poll', { provider, slot, intervalMs: cfg.POLL_INTERVAL_MS });
            }
            // Polls take longer than the interval: queueing more would only serve older data later.
            skippedSlots.note(provider, slot);
            return undefined;
          }),
        );
      },
    },
    {
      name: 'settlement-sweep',
      everyMs: cfg.SETTLEMENT_SWEEP_MS,
      run: () => enqueue(settlementQueue, 'sweep', { window: String(Math.floor(Date.now() / cfg.SETTLEMENT_SWEEP_MS)) }),
    },
    { name: 'recharge-sweep', cron: '*/5 * * * *', run: () => enqueue(rechargeQueue, 'sweep', { window: minuteStamp() }) },
    {
      name: 'webhook-sweep',
      everyMs: cfg.WEBHOOK_SWEEP_MS,
      run: () => enqueue(webhooksQueue, 'sweep', { window: String(Math.floor(Date.now() / cfg.WEBHOOK_SWEEP_MS)) }),
    },
    {
      name: 'refit',
      everyMs: cfg.REFIT_INTERVAL_MS,
      run: async () => {
        const window = refitWindowDue(lastRefitWindow, worldNow());
        if (!window) return;
        await Promise.all(SPORTS.map((s) => enqueue(aiQueue, 'refit', { sportId: s.id, window })));
        lastRefitWindow = window;
      },
    },
    { name: 'chain-head', cron: '0 * * * *', run: () => enqueue(settlementQueue, 'publish-head', { hour: hourStamp() }) },
    {
      name: 'daily-rollup',
      cron: '5 0 * * *',
      run: () => enqueue(settlementQueue, 'rollup', { day: utcDay(daysBefore(Date.now(), 1)) }),
    },
  ];
}

/** Runs `fire` at the start of every slot of `everyMs`; each run times the next from the clock, so the runs never drift off the slots. Returns its stop. */
function atEverySlot(everyMs: number, fire: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        fire();
        next();
      },
      msToNextSlot(Date.now(), everyMs),
    );
  };
  next();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export async function startScheduler(): Promise<Service & { lock: LeaderLock }> {
  const lock = new LeaderLock(redis(), key('scheduler', 'leader'), 15000, (leader) => log.info({ leader }, leader ? 'became scheduler leader' : 'not the scheduler leader'));
  lock.start();
  const guarded = (name: string, run: () => Promise<unknown>) => () => {
    if (!lock.isLeader) return;
    run().catch((err: unknown) => log.warn({ job: name, err: (err as Error).message }, 'scheduling failed'));
  };
  const timers: NodeJS.Timeout[] = [];
  const stops: (() => void)[] = [];
  const tasks: cron.ScheduledTask[] = [];
  const cfg = getConfig();
  const vacuum = cfg.FERRETDB_POSTGRES_URL ? new FerretVacuum(cfg.FERRETDB_POSTGRES_URL, cfg.MONGODB_DB) : undefined;
  for (const job of scheduledJobs(vacuum)) {
    const fire = guarded(job.name, job.run);
    if (job.everyMs && job.atSlots) {
      stops.push(atEverySlot(job.everyMs, fire));
      timers.push(setTimeout(fire, 1000));
    } else if (job.everyMs) {
      timers.push(setInterval(fire, job.everyMs));
      // First run soon after start (once the lease is settled), not a whole interval later: a
      // restarted scheduler polls and sweeps at once.
      timers.push(setTimeout(fire, 1000));
    } else if (job.cron) {
      tasks.push(cron.schedule(job.cron, fire, { timezone: 'UTC' }));
    }
  }
  return {
    name: 'scheduler',
    lock,
    stop: async () => {
      timers.forEach(clearTimeout);
      timers.forEach(clearInterval);
      stops.forEach((stop) => stop());
      await Promise.all(tasks.map((t) => t.stop()));
      await lock.stop();
      await vacuum?.close();
    },
  };
}

if (require.main === module) main('scheduler', [startScheduler]);
