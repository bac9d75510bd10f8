import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../../..');
const tracked = execFileSync('git', ['ls-files', '*.ts'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const files = tracked.filter((f) => !f.startsWith('test/'));

/**
 * Test files that still read or write a model directly (the list only shrinks: a new test seeds and
 * inspects stored state through shared/db/repositories). Only the two index tests are left, on
 * purpose: what they check is the schemas themselves, the index plan derived from every model's
 * declared indexes (unit) and, on FerretDB, that PostgreSQL's plans use the GIN indexes built from
 * them on a connection of the test's own.
 */
const TESTS_STILL_ON_MODELS = new Set(['test/integration/db/ferretdb-indexes.test.ts', 'test/unit/db/ferret-index-plan.test.ts']);
const source = (f: string) => readFileSync(resolve(ROOT, f), 'utf8');
const importsFrom = (f: string, folder: RegExp) => [...source(f).matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].some((m) => folder.test(m[1]));

describe('layers: who may import what', () => {
  it('happy: only the data layer (shared/db) imports a model', () => {
    const offenders = files.filter((f) => !f.startsWith('shared/db/') && importsFrom(f, /(^|\/)db\/models(\/|$)/));
    expect(offenders, 'files importing a model outside the data layer').to.deep.equal([]);
  });

  it('happy: tests seed and inspect stored state through the repositories, not the models', () => {
    const importers = tracked.filter((f) => f.startsWith('test/') && importsFrom(f, /(^|\/)db\/models(\/|$)/));
    expect(
      importers.filter((f) => !TESTS_STILL_ON_MODELS.has(f)),
      'test files importing a model',
    ).to.deep.equal([]);
    // A file moved to the repositories leaves the list, so it cannot slip back.
    expect(
      [...TESTS_STILL_ON_MODELS].filter((f) => !importers.includes(f)),
      'listed files that no longer import a model',
    ).to.deep.equal([]);
  });

  it('happy: at most one file under shared/ imports jobs/ (the dispatcher of intentions)', () => {
    const importers = files.filter((f) => f.startsWith('shared/') && importsFrom(f, /(^|\/)jobs\//));
    expect(importers.length, importers.join(', ')).to.be.at.most(1);
  });
});
