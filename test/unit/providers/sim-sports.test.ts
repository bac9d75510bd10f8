import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { marketType } from '../../../shared/domain/markets/catalog';
import { SPORTS } from '../../../shared/domain/sports';
import { buildScript, stateAt } from '../../../shared/platform/providers/simulated/models';
import { Rng } from '../../../shared/platform/providers/simulated/rng';
import { baseParams } from '../../../shared/platform/providers/simulated/schedule';
import { SIM_SPORTS } from '../../../shared/platform/providers/simulated/sports';
import { COMPETITIONS } from '../../../shared/platform/providers/simulated/world';

const SIMULATED = resolve(__dirname, '../../../shared/platform/providers/simulated');

/** A sport of the simulator is one file (sports/<sport>.ts): everything it needs comes from there. */
describe('the simulator: a sport is one file', () => {
  for (const sport of SPORTS) {
    it(`happy: ${sport.sysname} has its file, its markets are its own, and a scripted match ends with a state`, () => {
      const sim = SIM_SPORTS[sport.id];
      expect(sim.id).to.equal(sport.id);
      const p = sim.params(baseParams(COMPETITIONS.find((c) => c.sportId === sport.id)!), 0.3, 1);
      const markets = sim.markets(p);
      expect(markets.length).to.be.greaterThan(0);
      for (const m of markets) expect(marketType(m.sysname)?.sportId, m.sysname).to.equal(sport.id);
      const script = buildScript(p, new Rng(7, `sim-sports|${sport.id}`));
      const end = stateAt(sport.id, script, script.end + 1);
      expect(end.ended).to.equal(true);
      expect(end.corners !== null).to.equal(sim.incidentCounts);
      const played: string[] = [];
      sim.layout(
        (phase) => played.push(phase),
        () => undefined,
      );
      expect(played.length, 'the phases a scenario plays').to.be.greaterThan(0);
    });
  }

  it('happy: no file of the simulator outside sports/ asks which sport it is', () => {
    const offenders = readdirSync(SIMULATED)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /sportId (===|!==) \d|case \d+:/.test(readFileSync(join(SIMULATED, f), 'utf8')));
    expect(offenders).to.deep.equal([]);
  });
});
