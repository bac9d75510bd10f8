import { expect } from 'chai';
import { rechargeBudgetProblem } from '../../../shared/app/billing/recharge';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000);
const attempt = (window: string, status: string, hoursAgo: number) => ({ window, status, createdAt: at(hoursAgo) });

describe('auto-recharge budget: one in flight, a daily cap', () => {
  const cases: { name: string; attempts: ReturnType<typeof attempt>[]; max: number; problem: RegExp | undefined }[] = [
    { name: 'no attempt yet', attempts: [], max: 3, problem: undefined },
    { name: 'this window already charging (its own replay is not blocked)', attempts: [attempt('v1s1', 'charging', 0)], max: 3, problem: undefined },
    { name: 'another window pending', attempts: [attempt('v1s0', 'pending', 0)], max: 3, problem: /in flight/ },
    { name: 'another window charging', attempts: [attempt('v0s9', 'charging', 1)], max: 3, problem: /in flight/ },
    { name: 'another window settled', attempts: [attempt('v1s0', 'succeeded', 1), attempt('v1s0', 'declined', 2)], max: 3, problem: undefined },
    {
      name: 'cap reached within 24 hours (declines count)',
      attempts: [attempt('a', 'succeeded', 1), attempt('b', 'declined', 5), attempt('c', 'succeeded', 23)],
      max: 3,
      problem: /daily cap reached: 3 recharges/,
    },
    { name: 'the oldest left the 24 hours', attempts: [attempt('a', 'succeeded', 1), attempt('b', 'declined', 5), attempt('c', 'succeeded', 25)], max: 3, problem: undefined },
    { name: 'a cap of 1', attempts: [attempt('a', 'succeeded', 20)], max: 1, problem: /AUTO_RECHARGE_MAX_PER_DAY=1/ },
  ];
  for (const c of cases) {
    it(`${c.problem ? 'error' : 'happy'}: ${c.name}`, () => {
      const got = rechargeBudgetProblem(c.attempts, 'v1s1', NOW, c.max);
      if (c.problem) expect(got).to.match(c.problem);
      else expect(got).to.equal(undefined);
    });
  }
});
