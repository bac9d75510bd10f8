import { expect } from 'chai';
import { loadConfig } from '../../../shared/platform/config';
import { attemptsOf, DEFAULT_RETRY_SCHEDULE_MS, delivered, parseRetrySchedule, retryDelay, shouldDisable } from '../../../shared/domain/webhooks/schedule';

describe('webhooks: retry schedule and turning an endpoint off', () => {
  it('happy: the default schedule retries within 10 s and spans more than 24 hours (8 attempts)', () => {
    const schedule = parseRetrySchedule(loadConfig({}).WEBHOOK_RETRY_SCHEDULE_MS.split(','));
    expect(schedule).to.deep.equal([...DEFAULT_RETRY_SCHEDULE_MS]);
    expect(schedule[0]).to.be.at.most(10_000);
    expect(schedule.reduce((a, b) => a + b, 0)).to.be.at.least(24 * 3600_000);
    expect(attemptsOf(schedule)).to.equal(8);
  });

  const delays: [number, number | null][] = [
    [0, null],
    [1, 5_000],
    [2, 300_000],
    [7, 36_000_000],
    [8, null],
  ];
  for (const [attempt, delay] of delays) it(`happy: after failed attempt ${attempt} -> ${delay ?? 'no more'}`, () => expect(retryDelay(DEFAULT_RETRY_SCHEDULE_MS, attempt)).to.equal(delay));

  it('error: a schedule item out of bounds is refused, naming it', () => {
    expect(() => parseRetrySchedule(['5000', '0'])).to.throw(/retry 2 \(0\)/);
    expect(() => parseRetrySchedule(['700000000'])).to.throw(/retry 1/);
  });

  const rule = { minFailures: 20, afterMs: 5 * 86_400_000 };
  const day = 86_400_000;
  const runs: [string, { run: number; sinceMs: number | null }, number, boolean][] = [
    ['no failure', { run: 0, sinceMs: null }, 10 * day, false],
    ['a burst of 50 failures within a minute', { run: 50, sinceMs: 0 }, 60_000, false],
    ['19 failures over 6 days', { run: 19, sinceMs: 0 }, 6 * day, false],
    ['20 failures over 5 days', { run: 20, sinceMs: 0 }, 5 * day, true],
    ['40 failures over 6 days', { run: 40, sinceMs: 0 }, 6 * day, true],
  ];
  for (const [what, run, now, off] of runs) it(`${off ? 'error' : 'happy'}: ${what} -> ${off ? 'turned off' : 'stays on'}`, () => expect(shouldDisable(run, now, rule)).to.equal(off));

  const answers: [number | null, boolean][] = [
    [200, true],
    [204, true],
    [299, true],
    [301, false],
    [400, false],
    [500, false],
    [null, false],
  ];
  for (const [status, ok] of answers) it(`happy: an answer ${status} ${ok ? 'delivers' : 'fails'}`, () => expect(delivered(status)).to.equal(ok));
});
