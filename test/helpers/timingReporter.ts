import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import Mocha from 'mocha';

/**
 * Mocha's spec reporter, and at the end the time each test file took (its hooks included) and
 * the slowest of its tests: where the suite's minutes go (`npm test --
 * --reporter=test/helpers/timingReporter.ts`, docs/benchmarks.md). The figures are also written to
 * .local/test-timings.json.
 */
interface FileTime {
  file: string;
  ms: number;
  tests: number;
  started?: number;
  slowest: { title: string; ms: number }[];
}

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const files = new Map<string, FileTime>();
    const startedAt = Date.now();
    const nameOf = (file: string) => relative(process.cwd(), file);
    const isFileSuite = (suite: Mocha.Suite) => Boolean(suite.file && suite.parent?.root);
    runner.on('suite', (suite) => {
      if (!isFileSuite(suite) || !suite.file) return;
      const name = nameOf(suite.file);
      const f = files.get(name) ?? { file: name, ms: 0, tests: 0, slowest: [] };
      f.started = Date.now();
      files.set(name, f);
    });
    runner.on('suite end', (suite) => {
      if (!isFileSuite(suite) || !suite.file) return;
      const f = files.get(nameOf(suite.file));
      if (f?.started) f.ms += Date.now() - f.started;
    });
    runner.on('test end', (test) => {
      const f = test.file ? files.get(nameOf(test.file)) : undefined;
      if (!f) return;
      f.tests++;
      f.slowest.push({ title: test.fullTitle(), ms: test.duration ?? 0 });
    });
    runner.once('end', () => {
      const all = [...files.values()].sort((a, b) => b.ms - a.ms);
      const total = Date.now() - startedAt;
      const lines = ['', `time per file (${(total / 1000).toFixed(1)} s in mocha, ${all.length} files), slowest first:`];
      for (const f of all.slice(0, 25)) lines.push(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${String(f.tests).padStart(4)} tests  ${f.file}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      for (const f of all) f.slowest = f.slowest.sort((a, b) => b.ms - a.ms).slice(0, 5);
      try {
        writeFileSync('.local/test-timings.json', JSON.stringify({ totalMs: total, files: all }, null, 2));
      } catch {
        // no .local (a run outside the checkout): the printed table is the record
      }
    });
  }
}

export = TimingReporter;
