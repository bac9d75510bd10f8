import { expect } from 'chai';
import { ArgError, parseReplayArgs, replayRefitIntervalMs } from '../../../scripts/replay';
import { dataFolder } from '../../helpers/footballData';

describe('npm run replay: arguments and the refit cadence', () => {
  const data = dataFolder({ 'E0_2223.csv': 'Div,Date\n', 'SP1_2021.csv': 'Div,Date\n' });

  describe('happy', () => {
    it('reads every option, with the documented defaults', () => {
      expect(parseReplayArgs(['--seasons', 'E0_2223, SP1_2021', '--data', data])).to.include({ speed: 3000, pollMs: 2000, maxMinutes: 600, out: null, json: false });
      const a = parseReplayArgs(['--seasons', 'E0_2223', '--data', data, '--speed', '9000', '--poll-ms', '1000', '--max-minutes', '90', '--json']);
      expect(a).to.deep.include({ seasons: ['E0_2223'], speed: 9000, pollMs: 1000, maxMinutes: 90, json: true, reportOnly: null });
      expect(parseReplayArgs(['--seasons', 'E0_2223', '--data', data, '--report-only', 'replay_mwws8jqr']).reportOnly).to.equal('replay_mwws8jqr');
    });

    it('refits every two days of the replayed world, within REFIT_INTERVAL_MS range', () => {
      const cases: [speed: number, ms: number][] = [
        [3000, 57_600],
        [9000, 19_200],
        [100_000, 10_000], // REFIT_INTERVAL_MS's least value
        [1, 86_400_000], // its greatest: a real-time world refits daily, not every two days
      ];
      for (const [speed, ms] of cases) expect(replayRefitIntervalMs(speed), `${speed}x`).to.equal(ms);
    });
  });

  describe('error: a bad argument is named', () => {
    const cases: [string[], RegExp][] = [
      [[], /--seasons is required/],
      [['--seasons', 'premier'], /--seasons: "premier" is not a season file name/],
      [['--seasons', 'E0_1920'], /--seasons: E0_1920\.csv is not in /],
      // POLL_INTERVAL_MS starts at 1000: a smaller poll would fail the stack's config after the services started.
      [['--seasons', 'E0_2223', '--poll-ms', '500'], /--poll-ms must be an integer from 1000 to 60000 \(got "500"\)/],
      [['--seasons', 'E0_2223', '--speed', '0'], /--speed must be an integer from 1 to 100000/],
      [['--seasons', 'E0_2223', '--nope'], /Unknown option '--nope'/],
      [['--seasons', 'E0_2223', '--report-only', 'main'], /--report-only must name an earlier replay's database, like replay_/],
    ];
    for (const [argv, message] of cases) {
      it(argv.join(' ') || '(nothing)', () => {
        expect(() => parseReplayArgs([...argv, '--data', data])).to.throw(ArgError, message);
      });
    }
  });
});
