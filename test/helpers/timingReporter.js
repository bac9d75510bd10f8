'use strict';
/**
 * Mocha's spec reporter, and at the end the time each test file took (its hooks included) and
 * the slowest of its tests: where the suite's minutes go (`npm test -- --reporter
 * test/helpers/timingReporter.js`, docs/benchmarks.md).  The figures are
 * also written to .local/test-timings.json.
 */
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');
const Mocha = require('mocha');

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const files = new Map();
    const startedAt = Date.now();
    runner.on('suite', (suite) => {
      if (!suite.file || !suite.parent || !suite.parent.root) return;
      const name = relative(process.cwd(), suite.file);
      const f = files.get(name) ?? { file: name, ms: 0, tests: 0, slowest: [] };
      f.started = Date.now();
      files.set(name, f);
    });
    runner.on('suite end', (suite) => {
      if (!suite.file || !suite.parent || !suite.parent.root) return;
      const f = files.get(relative(process.cwd(), suite.file));
      if (f && f.started) f.ms += Date.now() - f.started;
    });
    runner.on('test end', (test) => {
      if (!test.file) return;
      const f = files.get(relative(process.cwd(), test.file));
      if (!f) return;
      f.tests++;
      f.slowest.push({ title: test.fullTitle(), ms: test.duration ?? 0 });
    });
    runner.once('end', () => {
      const all = [...files.values()].sort((a, b) => b.ms - a.ms);
      const total = Date.now() - startedAt;
      const lines = ['', `time per file (wall ${(total / 1000).toFixed(1)} s in mocha, ${all.length} files), slowest first:`];
      for (const f of all.slice(0, 25)) lines.push(`  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${String(f.tests).padStart(4)} tests  ${f.file}`);
      process.stdout.write(`${lines.join('\n')}\n`);
      {
        for (const f of all) f.slowest = f.slowest.sort((a, b) => b.ms - a.ms).slice(0, 5);
        writeFileSync('.local/test-timings.json', JSON.stringify({ totalMs: total, files: all }, null, 2));
      }
    });
  }
}

module.exports = TimingReporter;
