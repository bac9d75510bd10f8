import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../../..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

/**
 * The layer rules live in .dependency-cruiser.cjs and run in `npm run lint`. This proves the lint
 * catches what it is there for: a tree with one breach of each rule fails, naming each, and the
 * same tree without them passes.
 */
function cruise(files: Record<string, string>): { status: number | null; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'commonjs', target: 'es2022', strict: true } }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const run = spawnSync(DEPCRUISE, ['shared', 'api', 'jobs', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CLEAN: Record<string, string> = {
  'shared/domain/rule.ts': 'export const rule = (x: number) => x + 1;\n',
  'shared/platform/db/models/thing.ts': 'export const Thing = {};\n',
  'shared/platform/db/repositories/things.ts': "import { Thing } from '../models/thing';\nimport { rule } from '../../../domain/rule';\nexport const find = () => [Thing, rule(1)];\n",
  'shared/platform/stores/things.ts': "import { find } from '../db/repositories/things';\nexport const thingStore = () => ({ find });\n",
  'shared/app/ports.ts': 'export interface ThingStore {\n  find(): unknown[];\n}\n',
  'shared/app/useCase.ts': "import type { ThingStore } from './ports';\nexport const run = (store: ThingStore) => store.find();\n",
  'shared/app/processContext.ts': "import { thingStore } from '../platform/stores/things';\nimport type { ThingStore } from './ports';\nexport const things: ThingStore = thingStore();\n",
  'shared/app/intents.ts': "import { queue } from '../../jobs/queue';\nexport const dispatch = () => queue;\n",
  'jobs/queue.ts': 'export const queue = 1;\n',
  'shared/platform/db/redis.ts': 'export const redis = () => 1;\n',
  'shared/platform/queues/client.ts': "import { queue } from '../../../jobs/queue';\nimport { redis } from '../db/redis';\nexport const enqueue = () => [queue, redis()];\n",
  'api/route.ts': "import { run } from '../shared/app/useCase';\nimport { things } from '../shared/app/processContext';\nexport const handler = () => run(things);\n",
};

const BREACHES: Record<string, string> = {
  'shared/domain/impure.ts': "import { find } from '../platform/db/repositories/things';\nexport const x = find;\n",
  'shared/platform/upward.ts': "import { run } from '../app/useCase';\nexport const y = run;\n",
  'shared/app/enqueues.ts': "import { queue } from '../../jobs/queue';\nexport const z = queue;\n",
  'jobs/connects.ts': "import { redis } from '../shared/platform/db/redis';\nexport const c = redis;\n",
  // A type-only import too: a port's row type copied from a repository ties the use case to the store.
  'shared/app/reads.ts': "import type { find } from '../platform/db/repositories/things';\nexport type Found = ReturnType<typeof find>;\n",
  'shared/research/backtest.ts': "import { run } from '../app/useCase';\nexport const w = run;\n",
  'api/model.ts': "import { Thing } from '../shared/platform/db/models/thing';\nexport const v = Thing;\n",
  'shared/domain/stored.ts': "import type { Document } from 'mongodb';\nexport type Row = Document;\n",
  'shared/domain/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
  'shared/domain/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
};

describe('layers: the lint fails on an up-import or a cycle', function () {
  this.timeout(30_000);

  it('happy: a tree that keeps the layers passes', () => {
    const { status, out } = cruise(CLEAN);
    expect(status, out).to.equal(0);
  });

  it('error: each breach fails the lint, named by its rule', () => {
    const { status, out } = cruise({ ...CLEAN, ...BREACHES });
    expect(status, out).to.not.equal(0);
    for (const [rule, where] of [
      ['domain-is-pure', 'shared/domain/impure.ts'],
      ['domain-has-no-io', 'shared/domain/stored.ts'],
      ['platform-below-app', 'shared/platform/upward.ts'],
      ['app-below-entries', 'shared/app/enqueues.ts'],
      ['app-not-on-the-database', 'shared/app/reads.ts'],
      ['jobs-are-definitions', 'jobs/connects.ts'],
      ['research-below-app', 'shared/research/backtest.ts'],
      ['models-only-in-the-data-layer', 'api/model.ts'],
      ['no-circular', 'shared/domain/a.ts'],
    ])
      expect(out, rule).to.match(new RegExp(`${rule}: ${where.replace(/[./]/g, '\\$&')}`));
  });
});

describe('configuration is read in one place', () => {
  it('happy: no file but shared/platform/config.ts reads process.env (tests, benches and scripts included)', () => {
    const tracked = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.cjs'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    const readers = tracked.filter((f) => f !== 'shared/platform/config.ts' && /process\.env(\.|\[|\s*[,;})\]])/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(readers).to.deep.equal([]);
  });
});
