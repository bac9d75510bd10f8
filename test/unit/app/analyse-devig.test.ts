import { expect } from 'chai';
import { analyzeEventJob } from '../../../shared/app/ai/analyze';
import { renewProcessScope } from '../../../shared/platform/processScope';
import { SOCCER_MARKETS, simEvent } from '../../helpers/simEvents';
import { fakeContext, type FakeContext } from './fakeContext';

/** AI_DEVIG on the analysis use case: the method the insight reports, and a change of it is a change of the inputs. */

const KICKOFF = new Date('2026-11-21T18:00:00Z'); // the fake clock stands at 12:00 that day

function upcoming(ctx: FakeContext, id: string): void {
  ctx.analysis.events.push(
    simEvent({ id, sportId: 1, x: [Math.log(1.5), Math.log(1.2)], home: { id: 1, name: 'Alpha' }, away: { id: 2, name: 'Beta' }, startDateTime: KICKOFF, markets: SOCCER_MARKETS, seed: 5 }),
  );
}

function mainMarketOf(ctx: FakeContext, id: string): { devigMethod: string; fairProbabilities: Record<string, number> } {
  const insight = ctx.analysis.insights.get(id)?.analysisInsight as { mainMarket?: { devigMethod: string; fairProbabilities: Record<string, number> } } | undefined;
  if (!insight?.mainMarket) throw new Error(`no main market in the insight of ${id}`);
  return insight.mainMarket;
}

describe('analyse orchestrator: the de-vig method (AI_DEVIG)', () => {
  beforeEach(renewProcessScope);

  it('happy: the default is Shin; proportional set, the same inputs are analysed again and priced by proportional', async () => {
    const ctx = fakeContext();
    upcoming(ctx, 'd1');
    expect((await analyzeEventJob(ctx, 'd1')).status).to.equal('analyzed');
    const shin = mainMarketOf(ctx, 'd1');
    expect(shin.devigMethod).to.equal('shin');

    ctx.setEnv({ AI_DEVIG: 'proportional' });
    expect((await analyzeEventJob(ctx, 'd1')).status, 'the method is part of the inputs').to.equal('analyzed');
    const proportional = mainMarketOf(ctx, 'd1');
    expect(proportional.devigMethod).to.equal('proportional');
    // Proportional leaves the longshot more than Shin does (the favourite-longshot bias it does not correct).
    expect(proportional.fairProbabilities['2']).to.be.above(shin.fairProbabilities['2']);
    expect(await analyzeEventJob(ctx, 'd1')).to.deep.equal({ status: 'unchanged' });
  });
});
