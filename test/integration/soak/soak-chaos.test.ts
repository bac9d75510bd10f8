import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { sigkillTree } from '../../helpers/kill';
import { spawnEntry } from '../../helpers/processes';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * `npm run soak -- --chaos` in a shorter form. The whole service with two of every
 * process (a scheduler leader and its standby) on servers of the soak's own, driven by five
 * accounts' traffic at demo speed for 90 s while Redis is killed and restarted, the
 * document store (FerretDB and its PostgreSQL) is killed and restarted, and a random worker is
 * SIGKILLed (seed 4's plan). Every end check must pass: settlements, grades once, ledger and
 * balances, no over-serving, recharges once, the chain, no 5xx but 503 during outages, health
 * back to ok and ingest caught up, no job stuck.
 */
describe('npm run soak -- --minutes 1.5 --chaos (the whole service under faults)', function () {
  this.timeout(9 * 60_000);

  it('happy: every check passes after a Redis restart, a store restart and a killed worker under load', async () => {
    const soak = spawnEntry('scripts/soak.ts', {}, ['--minutes', '1.5', '--chaos', '--seed', '4', '--gap-s', '3,6']);
    try {
      const exit = await Promise.race([soak.exited, new Promise<null>((r) => setTimeout(() => r(null), 8 * 60_000))]);
      const output = soak.output();
      const report = output.slice(output.lastIndexOf('\nsoak: '));
      expect(exit, `the soak did not end in 8 minutes:\n${output.slice(-3000)}`).to.not.equal(null);
      // The plan ran: each fault kind it drew happened.
      for (const kind of ['redis-restart', 'store-restart', 'kill-worker']) expect(output, `no ${kind} fault:\n${output.slice(-3000)}`).to.match(new RegExp(`fault ${kind} `));
      expect(report, report).to.match(/\n0 of 13 checks failed\n/);
      expect(report.match(/^PASS /gm) ?? [], report).to.have.length(13);
      expect(exit?.code, report).to.equal(0);
    } finally {
      await sigkillTree(soak);
      if (soak.child.pid) rmSync(join(ROOT, '.local', `soak-${soak.child.pid}`), { recursive: true, force: true });
    }
  });
});
