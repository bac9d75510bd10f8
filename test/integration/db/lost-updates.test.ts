import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { drainViewFlushes, countView } from '../../../api/queries/views';
import { settlementQueue } from '../../../jobs/settlement';
import { queueFor } from '../../../shared/platform/queues/client';
import { connectMongo } from '../../../shared/platform/db/mongo';
import { findLiveEventDataOfEvent } from '../../../shared/platform/db/repositories/events';
import { findEventById } from '../../../shared/platform/db/repositories/eventForms';
import { markEventsSettledAtVersions } from '../../../shared/platform/db/repositories/eventSettlements';
import { findEventsForSettlement } from '../../../shared/platform/db/repositories/settlementEvents';
import { pollProvider, type PollOutcome } from '../../../shared/app/ingest/poll';
import { createHandle, type ProviderHandle } from '../../../shared/platform/providers/registry';
import { SimulatedProvider } from '../../../shared/platform/providers/simulated';
import { loadScenario } from '../../../shared/platform/providers/simulated/scenario';
import { processContext } from '../../../shared/app/processContext';
import { correctResult } from '../../../shared/app/settlement/correct';
import { clearIngested, nextSlot } from '../../helpers/ingest';

/**
 * The writers that touch one event, all at once: an ingest poll (the provider corrects the
 * event's corners), the settlement worker's marker, the web's view counter (10 views) and an
 * operator's correction (yellow cards). FerretDB 1.x rewrites a whole document on every update,
 * so when they shared the event document one of them was lost in most rounds; with one writer
 * per document (and the correction taking turns with ingest) every update lands. Run on the
 * embedded store (FerretDB on PostgreSQL), where the loss happens; on MongoDB it passes as well.
 */
const ROUNDS = 12;
const VIEWS = 10;
const START = Date.parse('2026-11-21T12:00:00Z');
const KICKOFF_MIN = 60;
/** Event r's provider correction lands at this minute after kickoff (one event per poll). */
const correctionMinute = (r: number) => 130 + 10 * r;
const at = (minuteAfterKickoff: number) => new Date(START + (KICKOFF_MIN + minuteAfterKickoff) * 60_000);
const eventId = (r: number) => String(7300000 + r);

function scenarioFile(): string {
  const events = Array.from({ length: ROUNDS }, (_, r) => ({
    id: eventId(r),
    sport: 'soccer',
    competition: { id: 109, name: 'MLS', region: 'US', priority: 60 },
    homeTeam: `Home ${r}`,
    awayTeam: `Away ${r}`,
    startOffsetMinutes: KICKOFF_MIN,
    markets: [{ betTypeSysname: 'SOCCER_MATCH_RESULT', prices: { '1': 2.4, X: 3.3, '2': 2.9 } }],
    timeline: [{ minute: 40, type: 'goal', team: 'away' }],
    final: {
      stats: { homeGoals: 0, awayGoals: 1, homeCorners: 5, awayCorners: 4, homeYellowCards: 2, awayYellowCards: 1, homeRedCards: 0, awayRedCards: 0, homeGoalsFirstHalf: 0, awayGoalsFirstHalf: 1 },
    },
    end: { state: 'completed' },
    corrections: [{ atMinute: correctionMinute(r), stats: { homeCorners: 10 + r } }],
  }));
  const file = join(mkdtempSync(join(tmpdir(), 'lost-updates-')), 'scenario.json');
  writeFileSync(file, JSON.stringify({ name: 'lost-updates', start: new Date(START).toISOString(), bookmakers: ['simbook-a', 'simbook-b'], events }));
  return file;
}

describe('one writer per document: concurrent writers of one event lose nothing', function () {
  this.timeout(180_000);
  let handle: ProviderHandle;
  const poll = (t: Date): Promise<PollOutcome> => pollProvider(processContext(), handle, { slot: nextSlot(), at: t, settlementDelayMs: () => 600_000 });

  before(async () => {
    await connectMongo();
    await clearIngested();
    handle = createHandle('simulated', new SimulatedProvider({ seed: 1, scenario: loadScenario(scenarioFile()) }));
    // Every event played and completed (minute 120: after the final whistle, before any correction).
    expect((await poll(at(-30))).status).to.equal('ok');
    expect((await poll(at(120))).status).to.equal('ok');
  });
  after(async () => {
    handle?.breaker.shutdown();
    await queueFor(settlementQueue).obliterate({ force: true });
    await clearIngested();
  });

  it(`happy: ${ROUNDS} rounds of a poll, a settlement marker, ${VIEWS} views and a correction on one event at once: every update applied`, async () => {
    const lost: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const id = eventId(r);
      const t = at(correctionMinute(r) + 1);
      const [polled] = await Promise.all([
        poll(t),
        markEventsSettledAtVersions([{ eventId: id, version: 100 + r }], new Date()),
        correctResult(processContext(), { eventId: id, stats: { homeYellowCards: 7 } }),
        ...Array.from({ length: VIEWS }, () => countView(id, 0)),
      ]);
      await drainViewFlushes();
      // A poll that found the provider's lock held by the correction is skipped; the next slot runs it.
      if (polled.status === 'skipped') expect((await poll(t)).status).to.equal('ok');

      const event = (await findEventById(id))!;
      const led = (await findLiveEventDataOfEvent(id))!;
      const [settled] = await findEventsForSettlement([id]);
      const override = event.resultOverride as { fields?: string[] } | null;
      const stats = event.stats as { homeCorners: number | null; homeYellowCards: number | null };
      if (event.views !== VIEWS) lost.push(`round ${r}: views ${event.views} of ${VIEWS}`);
      if (settled?.settledVersion !== 100 + r) lost.push(`round ${r}: settlement marker ${settled?.settledVersion}`);
      if (stats.homeYellowCards !== 7 || led.homeYellowCards !== 7 || !override?.fields?.includes('homeYellowCards')) {
        lost.push(`round ${r}: correction (event ${stats.homeYellowCards}, live data ${led.homeYellowCards}, override ${JSON.stringify(override)})`);
      }
      // The provider's correction stands unless the operator's came first (then the feed's result
      // is ignored by design, and the version moved once, not twice).
      const feedApplied = stats.homeCorners === 10 + r && led.homeCorners === 10 + r;
      const expectedVersion = feedApplied ? 2 : 1;
      if (!feedApplied && stats.homeCorners !== 5) lost.push(`round ${r}: corners ${stats.homeCorners} (feed ${10 + r})`);
      if (event.resultVersion !== expectedVersion) lost.push(`round ${r}: resultVersion ${event.resultVersion}, expected ${expectedVersion}`);
    }
    expect(lost, lost.join('\n')).to.deep.equal([]);
  });
});
