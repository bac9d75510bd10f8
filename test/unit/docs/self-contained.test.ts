import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';
import type { AnyQueueDefinition } from '../../../jobs/define';

const ROOT = resolve(__dirname, '../../..');
const SELF = 'test/unit/docs/self-contained.test.ts';

/** Built, so that this file does not contain them itself. */
const OUTSIDE_DOCUMENTS = ['SPEC' + '.md', 'DESIGN' + '.md'];
const BARE_NAME = new RegExp('\\b' + 'SP' + 'EC' + '\\b');

const isQueueDefinition = (v: unknown): v is AnyQueueDefinition =>
  typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { jobs?: unknown }).jobs === 'object' && 'defaultJobOptions' in v;

/** Every queue exported by a file of jobs/, by name. */
function exportedQueues(): Map<string, AnyQueueDefinition> {
  const out = new Map<string, AnyQueueDefinition>();
  for (const file of readdirSync(join(ROOT, 'jobs')).filter((f) => f.endsWith('.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every file of jobs/, found at run time
    const mod = require(join(ROOT, 'jobs', file)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (isQueueDefinition(value)) out.set(value.name, value);
  }
  return out;
}

/** The processes of the Procfile, each `name: ... workers/<name>.ts`. */
function procfileProcesses(): { name: string; entry: string }[] {
  return readFileSync(join(ROOT, 'Procfile'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const m = /^([\w-]+):.*\b(workers\/[\w-]+\.ts)\b/.exec(l);
      if (!m) throw new Error(`Procfile line without a workers/ entry: ${l}`);
      return { name: m[1], entry: m[2] };
    });
}

describe('docs: self-contained', () => {
  it('happy: no tracked file names a document that is not in the repository', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\0')
      .filter((f) => f && f !== SELF);
    expect(files.length).to.be.greaterThan(50);
    const offenders: string[] = [];
    for (const f of files) {
      const path = join(ROOT, f);
      if (!existsSync(path) || !statSync(path).isFile()) continue; // deleted in the work tree, or a submodule
      const body = readFileSync(path);
      for (const name of OUTSIDE_DOCUMENTS) if (body.includes(name)) offenders.push(`${f}: ${name}`);
      // The bare name too ("SPEC shape B"): a reader of the repository has no such document.
      if (BARE_NAME.test(body.toString('latin1'))) offenders.push(`${f}: ${BARE_NAME.source}`);
    }
    expect(offenders, 'point to the OpenAPI document, docs/*.md or docs/contract-choices.md instead').to.deep.equal([]);
  });

  describe('docs/architecture.md', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

    it('happy: names every queue exported by jobs/*.ts, with each of its jobs', () => {
      const queues = exportedQueues();
      expect([...queues.keys()]).to.include.members(['ingest', 'ai', 'settlement', 'recharge']);
      for (const [name, def] of queues) {
        expect(page, `queue ${name}`).to.include(`\`${name}\``);
        for (const job of Object.keys(def.jobs)) expect(page, `job ${name}/${job}`).to.include(`\`${job}\``);
      }
    });

    it('happy: names every worker entry of workers/ that the Procfile runs', () => {
      const processes = procfileProcesses();
      expect(processes.map((p) => p.name)).to.have.members(['web', 'ingest', 'ai', 'settlement', 'scheduler']);
      for (const { name, entry } of processes) {
        expect(existsSync(join(ROOT, entry)), entry).to.equal(true);
        expect(page, name).to.include(`\`${name}\``);
        expect(page, entry).to.include(`\`${entry}\``);
      }
    });
  });
});
