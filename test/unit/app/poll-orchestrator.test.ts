import { expect } from 'chai';
import type { AppContext } from '../../../shared/app/context';
import { pollJob, pollProvider, type PollOptions, type PollOutcome } from '../../../shared/app/ingest/poll';
import type { FeedEvent, FeedLiveStats } from '../../../shared/domain/providers/types';
import { DEFAULT_BREAKER, ProviderBreaker } from '../../../shared/platform/providers/breaker';
import type { ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { COMPETITIONS } from '../../../shared/platform/providers/simulated/world';
import { fakeContext, type FakeContext } from './fakeContext';

/** The poll use case on an in-memory context, polling the simulated provider (pure, in memory). */

const AT = new Date('2026-11-21T16:00:00Z');
const INTERVAL = 30_000;
const SLOT = AT.getTime() / INTERVAL;
const PROVIDER = 'simulated';
/** Five minutes on: prices moved, goals scored. */
const LATER = new Date(AT.getTime() + 5 * 60_000);
const LATER_SLOT = LATER.getTime() / INTERVAL;

/** One competition of the generated world: at AT it has ended, live and upcoming matches. */
const simulated = () => new SimulatedProvider({ seed: 7, competitions: [COMPETITIONS[0]] });

class LiveStatsDown extends SimulatedProvider {
  override async fetchLiveStats(): Promise<FeedLiveStats[]> {
    throw new Error('live stats: 503');
  }
}

class ProviderDown extends SimulatedProvider {
  override async listEvents(): Promise<FeedEvent[]> {
    throw new Error('listing: connection reset');
  }
}

const handles: ProviderHandle[] = [];
/** A handle without the process's breaker hook (that one records transitions in the database). */
function handleOf(provider: SimulatedProvider): ProviderHandle {
  const handle = { provider, breaker: new ProviderBreaker(PROVIDER, { ...DEFAULT_BREAKER, timeoutMs: 10_000 }) };
  handles.push(handle);
  return handle;
}

const opts = (slot = SLOT): PollOptions => ({ slot, intervalMs: INTERVAL, at: new Date(slot * INTERVAL), settlementDelayMs: () => 1_000, retryDelayMs: 0 });

const poll = (ctx: AppContext, handle: ProviderHandle, slot = SLOT): Promise<PollOutcome> => pollProvider(ctx, handle, opts(slot));

function ok(out: PollOutcome): Extract<PollOutcome, { status: 'ok' }> {
  if (out.status !== 'ok') throw new Error(`poll did not run: ${JSON.stringify(out)}`);
  return out;
}

const slotRecorded = (ctx: FakeContext) => ctx.ingest.slots.get(PROVIDER);

describe('poll orchestrator (in-memory context)', () => {
  afterEach(() => handles.splice(0).forEach((h) => h.breaker.shutdown()));

  it('happy: a first poll writes the events, then queues settlements and analyses under the lock, before it records its slot', async () => {
    const ctx = fakeContext(AT);
    // What the store holds at the moment the follow-ups are queued.
    const atDispatch: { slot: string | undefined; locked: boolean }[] = [];
    const recording: AppContext = {
      ...ctx,
      dispatch: (intents, o) => {
        atDispatch.push({ slot: slotRecorded(ctx), locked: ctx.ingest.locks.has(PROVIDER) });
        return ctx.dispatch(intents, o);
      },
    };
    const out = ok(await poll(recording, handleOf(simulated())));

    expect(out.partial).to.equal(false);
    expect(out.events).to.be.greaterThan(0);
    expect(out.readFromStore).to.equal(out.events);
    expect(out.written.events).to.equal(out.events);
    expect(ctx.ingest.events.size).to.equal(out.events);
    expect(ctx.ingest.prices.size).to.equal(out.written.prices);
    expect(ctx.ingest.history.size).to.equal(out.written.history);
    expect(out.written.prices).to.be.greaterThan(0);

    // Follow-ups: the settlements of the ended matches (each with its delay) and the analyses of the upcoming ones.
    expect(out.settle).to.be.greaterThan(0);
    expect(out.analyze).to.be.greaterThan(0);
    const settle = ctx.dispatched.find((i) => i.kind === 'enqueue-many');
    expect(settle).to.deep.include({ queue: 'settlement', name: 'settle-event' });
    expect(settle?.kind === 'enqueue-many' ? settle.jobs.map((j) => j.delay) : []).to.deep.equal(Array(out.settle).fill(1_000));
    const analyses = ctx.dispatched.find((i) => i.kind === 'request-analyses');
    expect(analyses?.kind === 'request-analyses' ? analyses.eventIds : []).to.have.length(out.analyze);

    // Queued once, while the poll held the provider's lock and before its slot was recorded.
    expect(atDispatch).to.deep.equal([{ slot: undefined, locked: true }]);
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: SLOT, intervalMs: INTERVAL });
    expect(ctx.ingest.journal.slice(-2)).to.deep.equal(['recordSlot', 'clearWriting']);
    expect(ctx.ingest.writing.size).to.equal(0);
    expect(ctx.ingest.locks.size).to.equal(0);

    // The listing and the cache hear of the writes; the provider's state says it is fresh.
    expect(ctx.ingest.listingPublishes).to.have.length(1);
    expect(ctx.ingest.listingPublishes[0]).to.include.members([...ctx.ingest.events.keys()]);
    expect(ctx.ingest.providerStates.get(PROVIDER)).to.deep.include({ stale: false, lastError: null, eventsSeen: out.events, breaker: 'closed', lastSuccessAt: AT });
    // The next poll starts from the state this one saved.
    expect(ctx.ingest.memory.get(PROVIDER)?.size).to.equal(out.events);
  });

  it('happy: a later poll stages its changes before writing them and publishes them after, once; it starts from the state the last poll saved', async () => {
    const ctx = fakeContext(AT);
    const handle = handleOf(simulated());
    const first = ok(await poll(ctx, handle));
    ctx.setNow(LATER);
    const journalFrom = ctx.ingest.journal.length;
    const later = ok(await poll(ctx, handle, LATER_SLOT));

    expect(later.readFromStore).to.equal(0);
    expect(later.written.events).to.be.lessThan(first.written.events);
    expect(later.changes).to.be.greaterThan(0);
    expect(ctx.ingest.feed).to.have.length(later.changes);
    expect(ctx.ingest.feed.every((f) => f.poll === String(LATER_SLOT) && f.change.provider === PROVIDER)).to.equal(true);
    expect(new Set(ctx.ingest.feed.map((f) => f.change.kind))).to.include('price');
    expect(ctx.ingest.staged.size).to.equal(0);
    // In this order, each once: forget the state, mark the writing (the AI worker holds back), stage, write, publish, remember, record the slot, clear the mark.
    const order = ['invalidateState', 'markWriting', 'stageChanges', 'applyPlan', 'publishStagedChanges', 'saveState', 'recordSlot', 'clearWriting'];
    expect(ctx.ingest.journal.slice(journalFrom).filter((step) => order.includes(step))).to.deep.equal(order);
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: LATER_SLOT, intervalMs: INTERVAL });
  });

  it('error: a slot already polled (or an older one) is skipped as stale: nothing fetched, written or queued', async () => {
    const ctx = fakeContext(AT);
    const handle = handleOf(simulated());
    ok(await poll(ctx, handle));
    const before = { journal: ctx.ingest.journal.length, feed: ctx.ingest.feed.length, dispatched: ctx.dispatched.length, slot: slotRecorded(ctx) };
    const again = await poll(ctx, handle);
    const older = await poll(ctx, handle, SLOT - 1);
    expect(again).to.include({ status: 'skipped', reason: 'stale-slot', provider: PROVIDER });
    expect(older).to.include({ status: 'skipped', reason: 'stale-slot' });
    expect(ctx.ingest.journal.slice(before.journal)).to.deep.equal(['withProviderLock', 'readSlot', 'withProviderLock', 'readSlot']);
    expect({ journal: before.journal, feed: ctx.ingest.feed.length, dispatched: ctx.dispatched.length, slot: slotRecorded(ctx) }).to.deep.equal(before);
  });

  it('error: a slot stored by an earlier configuration (another interval) does not skip the poll', async () => {
    const ctx = fakeContext(AT);
    ctx.ingest.slots.set(PROVIDER, JSON.stringify({ slot: SLOT * 2, intervalMs: INTERVAL / 2 }));
    expect((await poll(ctx, handleOf(simulated()))).status).to.equal('ok');
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: SLOT, intervalMs: INTERVAL });
  });

  it('error: while another poll holds the provider lock the poll is skipped, touching nothing', async () => {
    const ctx = fakeContext(AT);
    ctx.ingest.locks.add(PROVIDER);
    const out = await poll(ctx, handleOf(simulated()));
    expect(out).to.deep.equal({ status: 'skipped', provider: PROVIDER, reason: 'locked' });
    expect(ctx.ingest.journal).to.deep.equal(['withProviderLock']);
    expect(ctx.ingest.providerStates.size).to.equal(0);
    expect(ctx.dispatched).to.deep.equal([]);
  });

  it('error: a provider failure records the error and the stale flag, and writes, publishes, queues and records nothing else', async () => {
    const ctx = fakeContext(AT);
    const out = await poll(ctx, handleOf(new ProviderDown({ seed: 7, competitions: [COMPETITIONS[0]] })));
    expect(out).to.deep.include({ status: 'failed', provider: PROVIDER, reason: 'error', error: 'listing: connection reset', breaker: 'closed' });
    expect(ctx.ingest.providerStates.get(PROVIDER)).to.deep.equal({ lastAttemptAt: AT, lastError: 'listing: connection reset', breaker: 'closed', stale: true });
    expect(ctx.ingest.journal).to.deep.equal(['withProviderLock', 'readSlot', 'updateProviderState', 'updateProviderState']);
    expect(ctx.ingest.events.size + ctx.ingest.feed.length + ctx.dispatched.length).to.equal(0);
    expect(slotRecorded(ctx)).to.equal(undefined); // the next job of this slot polls it again
  });

  it('error: a poll where one call fails still writes what it read, and is marked partial and stale', async () => {
    const ctx = fakeContext(AT);
    const out = ok(await poll(ctx, handleOf(new LiveStatsDown({ seed: 7, competitions: [COMPETITIONS[0]] }))));
    expect(out.partial).to.equal(true);
    expect(out.live).to.be.greaterThan(0);
    expect(out.written.events).to.equal(out.events);
    expect(ctx.ingest.providerStates.get(PROVIDER)).to.deep.include({ stale: true, lastError: 'live stats: 503', eventsSeen: out.events });
    // The prices were read: the provider's data is as of this poll's instant.
    expect(ctx.ingest.providerStates.get(PROVIDER)?.capturedAt).to.be.instanceOf(Date);
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: SLOT, intervalMs: INTERVAL });
  });

  it('error: a poll re-run after a crash between its writes and its slot publishes the staged changes once, and writes nothing twice', async () => {
    const ctx = fakeContext(AT);
    const handle = handleOf(simulated());
    ok(await poll(ctx, handle));
    ctx.setNow(LATER);
    const queued = ctx.dispatched.length;
    ctx.ingest.failOnce('publishStagedChanges');
    let crash: unknown;
    await poll(ctx, handle, LATER_SLOT).catch((err: unknown) => (crash = err));
    expect(crash).to.be.instanceOf(Error);
    const staged = ctx.ingest.staged.get(PROVIDER) ?? [];
    expect(staged.length).to.be.greaterThan(0);
    expect(ctx.ingest.feed).to.deep.equal([]);
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: SLOT, intervalMs: INTERVAL }); // not this slot
    expect(ctx.ingest.memory.has(PROVIDER)).to.equal(false); // no memory of the state vouches for the writes
    expect(ctx.ingest.writing.size).to.equal(0); // the AI worker is not held back by a poll that died
    expect(ctx.ingest.locks.size).to.equal(0);
    const storedAfterCrash = { events: structuredClone([...ctx.ingest.events]), history: ctx.ingest.history.size };
    const dispatchedInCrash = ctx.dispatched.length - queued;

    // The re-run publishes the crashed poll's batch first, before it reads or writes anything.
    let publishedBeforeRead = -1;
    const loadState = ctx.ingest.loadState.bind(ctx.ingest);
    ctx.ingest.loadState = (provider, ids) => {
      publishedBeforeRead = ctx.ingest.feed.length;
      return loadState(provider, ids);
    };
    const rerun = ok(await poll(ctx, handle, LATER_SLOT));
    expect(publishedBeforeRead).to.equal(staged.length);
    expect(ctx.ingest.feed).to.deep.equal(staged); // once
    expect(ctx.ingest.staged.size).to.equal(0);
    expect(rerun.readFromStore).to.equal(rerun.events); // the state read back from the store
    expect(rerun.changes).to.equal(0);
    expect(rerun.written).to.deep.include({ events: 0, prices: 0, liveEventData: 0, history: 0 });
    expect({ events: [...ctx.ingest.events], history: ctx.ingest.history.size }).to.deep.equal(storedAfterCrash);
    expect(ctx.dispatched).to.have.length(queued + dispatchedInCrash);
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: LATER_SLOT, intervalMs: INTERVAL });
  });

  it('happy: a poll job reads the provider as of its slot in the configured interval; error: a job of another interval is discarded unread', async () => {
    const ctx = fakeContext(AT, { POLL_INTERVAL_MS: String(INTERVAL) });
    const handle = handleOf(simulated());
    expect(await pollJob(ctx, handle, { provider: PROVIDER, slot: SLOT, intervalMs: 60_000 })).to.deep.equal({ status: 'skipped', provider: PROVIDER, reason: 'stale-slot' });
    expect(ctx.ingest.journal).to.deep.equal([]);
    ok(await pollJob(ctx, handle, { provider: PROVIDER, slot: SLOT }));
    expect(JSON.parse(slotRecorded(ctx) ?? 'null')).to.deep.equal({ slot: SLOT, intervalMs: INTERVAL });
  });
});
