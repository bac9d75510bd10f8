import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../../..');
const files = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !f.startsWith('test/'));
const source = (f: string) => readFileSync(resolve(ROOT, f), 'utf8');
const importsFrom = (f: string, folder: RegExp) => [...source(f).matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].some((m) => folder.test(m[1]));

/**
 * Application files that still read or write MongoDB through a model instead of a repository of
 * the data layer (shared/db). The list may only shrink: a new file must go through a repository.
 */
const NOT_YET_THROUGH_A_REPOSITORY = new Set<string>([
  'api/queries/catalog.ts',
  'api/queries/events.ts',
  'api/queries/views.ts',
  'api/routes/ai.ts',
  'api/routes/bets.ts',
  'api/routes/health.ts',
  'api/schemas/responses.ts',
  'bench/api.ts',
  'bench/hostile.ts',
  'bench/ingest.ts',
  'bench/pipeline/measure.ts',
  'bench/settlement.ts',
  'bench/store.ts',
  'shared/billing/access.ts',
  'shared/billing/accounts.ts',
  'shared/billing/holds.ts',
  'shared/billing/ledger.ts',
  'shared/billing/ledgerCheck.ts',
  'shared/billing/metering.ts',
  'shared/billing/packages.ts',
  'shared/billing/recharge.ts',
  'shared/settlement/correct.ts',
  'shared/settlement/rollups.ts',
  'shared/settlement/settleEvent.ts',
  'shared/settlement/sweep.ts',
]);

describe('layers: who may import what', () => {
  it('happy: only the data layer (shared/db) imports a model', () => {
    const offenders = files.filter((f) => !f.startsWith('shared/db/') && importsFrom(f, /(^|\/)db\/models(\/|$)/));
    expect(offenders.filter((f) => !NOT_YET_THROUGH_A_REPOSITORY.has(f)), 'new files importing a model').to.deep.equal([]);
    expect([...NOT_YET_THROUGH_A_REPOSITORY].filter((f) => !offenders.includes(f)), 'listed files that no longer import a model: take them off the list').to.deep.equal([]);
  });

  it('happy: at most one file under shared/ imports jobs/ (the dispatcher of intentions)', () => {
    const importers = files.filter((f) => f.startsWith('shared/') && importsFrom(f, /(^|\/)jobs\//));
    expect(importers.length, importers.join(', ')).to.be.at.most(1);
  });
});
