import { expect } from 'chai';
import { tablesDue, VACUUM_RULE, type TableActivity } from '../../../shared/platform/db/ferretVacuum';

const t = (table: string, live: number, dead: number, modifiedSinceAnalyze = 0): TableActivity => ({ table, live, dead, modifiedSinceAnalyze });

describe("FerretDB vacuum: which tables are due, by autovacuum's rule", () => {
  const cases: { name: string; activity: TableActivity[]; vacuum: string[]; analyze: string[] }[] = [
    { name: 'nothing changed', activity: [t('events', 376, 0)], vacuum: [], analyze: [] },
    { name: 'dead rows at the threshold are not due (50 + 0.2 x 376 = 125.2)', activity: [t('events', 376, 125)], vacuum: [], analyze: [] },
    { name: 'dead rows past the threshold are', activity: [t('events', 376, 126)], vacuum: ['events'], analyze: [] },
    { name: 'an empty table after 51 deletions', activity: [t('picks', 0, 51)], vacuum: ['picks'], analyze: [] },
    { name: 'the measured demo-speed events table (4,138 dead beside 376 live)', activity: [t('events', 376, 4138, 4138)], vacuum: ['events'], analyze: [] },
    { name: 'inserts alone leave no dead rows: analyzed, not vacuumed', activity: [t('oddshistory', 42235, 0, 42235)], vacuum: [], analyze: ['oddshistory'] },
    { name: 'inserts under the analyze threshold: nothing', activity: [t('oddshistory', 42235, 0, 4273)], vacuum: [], analyze: [] },
    {
      name: 'several tables, each on its own counts',
      activity: [t('events', 376, 4138), t('teams', 497, 0), t('insights', 333, 2495), t('recommendations', 1328, 79, 200)],
      vacuum: ['events', 'insights'],
      analyze: ['recommendations'],
    },
  ];
  for (const c of cases) {
    it(`happy: ${c.name}`, () => {
      expect(tablesDue(c.activity)).to.deep.equal({ vacuum: c.vacuum, analyze: c.analyze });
    });
  }

  it('happy: a stricter rule vacuums sooner', () => {
    expect(tablesDue([t('events', 376, 60)], { ...VACUUM_RULE, threshold: 10, scale: 0.1 }).vacuum).to.deep.equal(['events']);
  });
});
