import { expect } from 'chai';
import { pollProvider } from '../../../shared/app/ingest/poll';
import { processContext } from '../../../shared/app/processContext';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { startApi, type TestServer } from '../../helpers/api';
import { clearIngested, nextSlot } from '../../helpers/ingest';

const MIN = 60_000;
const T0 = Date.parse('2026-11-28T17:00:00Z');
const LOCALES = ['en', 'es', 'pt'];

interface Item {
  id: string;
  status: string;
  stats?: { isLive?: boolean; phaseCaption?: string | null; referenceTime?: string | null } | null;
}

/**
 * The ingest writes the store first and the listing right after (its rows, the bodies, the
 * version, one step): a list page renders what its snapshot of the listing holds, so an event
 * that ends between the two steps is never shown ended in a list of live events, nor with the
 * live stats of nothing. Polls run back to back at 4 world minutes each (the demo's 120x and 2 s
 * polls, or faster) while readers ask for the filtered lists, each request a page not cached yet.
 */
describe('the lists while events end: no item outside its filter', function () {
  this.timeout(180_000);
  let api: TestServer;
  let handle: ProviderHandle;
  let world = T0;

  before(async () => {
    api = await startApi();
    await clearIngested();
    handle = createHandle('simulated', new SimulatedProvider({ seed: 23 }));
    const out = await pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(world), settlementDelayMs: () => 600_000 });
    if (out.status !== 'ok') throw new Error(`poll: ${out.status}`);
  });
  after(async () => {
    handle?.breaker.shutdown();
    await api.close();
    await clearIngested();
  });

  it('happy: /v2/matches/live, /v2/matches?status=... and trending, read while polls end and start events, each item in its filter every time', async () => {
    let polling = true;
    let ended = 0;
    let polls = 0;
    const poller = (async () => {
      try {
        const until = Date.now() + 30_000;
        while (Date.now() < until) {
          world += 4 * MIN;
          const out = await pollProvider(processContext(), handle, { slot: nextSlot(), at: new Date(world), settlementDelayMs: () => 600_000 });
          if (out.status !== 'ok') throw new Error(`poll: ${out.status}`);
          ended += out.settle;
          polls++;
        }
      } finally {
        polling = false;
      }
    })();
    const lists: { path: string; statuses: string[]; live?: boolean }[] = [
      { path: '/v2/matches/live', statuses: ['live'], live: true },
      { path: '/v2/matches?status=live', statuses: ['live'] },
      { path: '/v2/matches?status=upcoming', statuses: ['upcoming'] },
      { path: '/v2/matches?status=completed', statuses: ['completed'] },
      { path: '/v2/matches?status=live,completed', statuses: ['live', 'completed'] },
      { path: '/v2/matches/trending?status=live', statuses: ['live'] },
    ];
    const outside: string[] = [];
    let reads = 0;
    let items = 0;
    const reader = async (n: number) => {
      for (let i = n; polling; i += 4) {
        const list = lists[i % lists.length];
        // Another limit and locale each time: a page rendered now, not one the page cache kept.
        const limit = list.path.includes('trending') ? '' : `&limit=${60 + (i % 41)}`;
        const path = `${list.path}${list.path.includes('?') ? '&' : '?'}locale=${LOCALES[i % 3]}${limit}`;
        const res = await api.get(path);
        expect(res.status, path).to.equal(200);
        reads++;
        for (const item of res.body.data as Item[]) {
          items++;
          if (!list.statuses.includes(item.status)) outside.push(`${path}: ${item.id} is ${item.status}`);
          if (list.live && (item.stats?.isLive !== true || item.stats.phaseCaption === null || item.stats.referenceTime === null))
            outside.push(`${path}: ${item.id} is live without its live stats (${JSON.stringify(item.stats)})`);
        }
      }
    };
    await Promise.all([poller, reader(0), reader(1), reader(2), reader(3)]);
    expect(outside, 'items outside their filter').to.deep.equal([]);
    expect(ended, 'events ended during the reads').to.be.greaterThan(0);
    expect(polls).to.be.greaterThan(5);
    expect(reads).to.be.greaterThan(50);
    expect(items).to.be.greaterThan(500);
  });
});
