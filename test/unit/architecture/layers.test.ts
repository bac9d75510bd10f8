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

describe('layers: who may import what', () => {
  it('happy: only the data layer (shared/db) imports a model', () => {
    const offenders = files.filter((f) => !f.startsWith('shared/db/') && importsFrom(f, /(^|\/)db\/models(\/|$)/));
    expect(offenders, 'files importing a model outside the data layer').to.deep.equal([]);
  });

  it('happy: at most one file under shared/ imports jobs/ (the dispatcher of intentions)', () => {
    const importers = files.filter((f) => f.startsWith('shared/') && importsFrom(f, /(^|\/)jobs\//));
    expect(importers.length, importers.join(', ')).to.be.at.most(1);
  });
});
