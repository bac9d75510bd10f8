import { expect } from 'chai';
import { ArgError, parsePipelineArgs } from '../../../bench/pipeline/args';
import { percentile } from '../../../bench/pipeline/stats';

describe('bench:pipeline arguments', () => {
  describe('happy', () => {
    it('defaults to the measured configuration and reads every option', () => {
      expect(parsePipelineArgs([])).to.deep.equal({ events: 0, live: 0, speed: 120, minutes: 5, store: 'embedded', pollMs: 2000, settlementDelayMs: 3000 });
      const a = parsePipelineArgs(['--events', '5000', '--live', '500', '--speed', '60', '--minutes', '3', '--store', 'mongodb://db:27017', '--poll-ms', '30000', '--settlement-delay-ms', '0']);
      expect(a).to.deep.equal({ events: 5000, live: 500, speed: 60, minutes: 3, store: 'mongodb://db:27017', pollMs: 30000, settlementDelayMs: 0 });
    });

    it('takes nearest-rank percentiles', () => {
      const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
      expect([percentile(xs, 50), percentile(xs, 99), percentile([7], 99)]).to.deep.equal([50, 99, 7]);
      expect(percentile([], 50)).to.be.NaN;
    });
  });

  describe('error: a bad argument is named', () => {
    const cases: [string[], RegExp][] = [
      [['--speed', 'fast'], /--speed must be an integer 1\.\.100000 \(got "fast"\)/],
      [['--minutes', '0'], /--minutes must be an integer/],
      [['--store', 'oracle'], /--store must be sqlite, postgresql, embedded or a mongodb:\/\/ URI/],
      [['--live'], /--live needs a value/],
      [['--nope', '1'], /unknown argument --nope/],
      [['events', '5'], /unexpected argument "events"/],
    ];
    for (const [argv, message] of cases) {
      it(`${argv.join(' ')}`, () => {
        expect(() => parsePipelineArgs(argv)).to.throw(ArgError, message);
      });
    }
  });
});
