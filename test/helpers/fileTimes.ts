import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { FILE_TIMES_LOG } from '../../scripts/testFiles';

const ROOT = resolve(__dirname, '../..');

/**
 * Times each test file under `root` (its hooks included): a before-all hook that runs first in
 * each top-level suite and an after-all hook that runs last, appending `{file, ms}` to
 * FILE_TIMES_LOG, which `npm test` reads at the end (the slowest files of the run). Works in
 * mocha's parallel mode too, where a worker's root suite holds one file at a time.
 */
export function timeEachFile(root: Mocha.Suite): void {
  for (const suite of root.suites) {
    const file = suite.file;
    // A skipped suite takes no hooks: moving the last one first would put a hole in its list, which
    // mocha's clean-up trips over (an uncaught error in a parallel worker that then never answers).
    if (!file || suite.isPending()) continue;
    let started = 0;
    suite.beforeAll('time the file', () => {
      started = Date.now();
    });
    const hooks = (suite as unknown as { getHooks(name: 'beforeAll'): Mocha.Hook[] }).getHooks('beforeAll');
    hooks.unshift(hooks.pop()!);
    suite.afterAll('time the file', () => {
      const log = resolve(ROOT, FILE_TIMES_LOG);
      try {
        mkdirSync(dirname(log), { recursive: true });
        appendFileSync(log, `${JSON.stringify({ file: relative(ROOT, file), ms: Date.now() - started })}\n`);
      } catch {
        // a read-only checkout: the run goes on untimed
      }
    });
  }
}
