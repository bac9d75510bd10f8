import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase, ensurePostgres, findPgBinaries, LOCAL_POSTGRES_URL, postgresAnswers, withDatabase } from '../../../scripts/postgres';

/** A port where nothing listens: taken from the OS, then released. */
const deadPort = () =>
  new Promise<number>((res) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });

/**
 * The bootstrap's PostgreSQL order, for real: the private cluster is made with the machine's
 * initdb/pg_ctl when nothing answers where a PostgreSQL is looked for.
 */
describe('bootstrap: the PostgreSQL FerretDB stores in', function () {
  this.timeout(120000);
  const said: string[] = [];
  const say = (m: string) => said.push(m);

  it('happy: with no PostgreSQL answering, a private cluster is created, started, reused while running and stopped', async function () {
    if (!findPgBinaries()) return this.skip();
    const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
    const nowhere = `postgres://postgres@127.0.0.1:${await deadPort()}/postgres`;
    try {
      const first = await ensurePostgres({ localUrl: nowhere, clusterDir: dir, database: 'ferretdb_boot_test', mayInstall: false, say });
      expect(first?.kind).to.match(/^private PostgreSQL cluster started on port \d+/);
      expect(first?.url).to.match(/\/ferretdb_boot_test$/);
      expect(await postgresAnswers(first!.url), 'its own database exists and answers').to.equal(true);
      const again = await ensurePostgres({ localUrl: nowhere, clusterDir: dir, database: 'ferretdb_boot_test', mayInstall: false, say });
      expect(again?.kind).to.match(/already running/);
      expect(again?.url).to.equal(first!.url);
      expect(again?.stop, 'a run that did not start it does not stop it').to.equal(undefined);
      await first!.stop!();
      expect(await postgresAnswers(first!.url)).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('error: an unreachable POSTGRES_URL is named and the next choice is used', async function () {
    if (!(await postgresAnswers(LOCAL_POSTGRES_URL))) return this.skip();
    said.length = 0;
    const bad = `postgres://postgres:secret@127.0.0.1:${await deadPort()}/x`;
    const got = await ensurePostgres({ postgresUrl: bad, clusterDir: '/nonexistent', database: 'ferretdb_boot_test2', mayInstall: false, say });
    try {
      expect(got?.kind).to.match(/127\.0\.0\.1:5432/);
      expect(said.join('\n')).to.match(/POSTGRES_URL .* is not reachable/);
      expect(said.join('\n'), 'the password is not printed').not.to.include('secret');
    } finally {
      await dropDatabase(LOCAL_POSTGRES_URL, 'ferretdb_boot_test2');
    }
  });

  it('happy: the URL FerretDB gets names its own database on the chosen server', () => {
    expect(withDatabase('postgres://u:p@h:5433/postgres?sslmode=disable', 'ferretdb_x')).to.equal('postgres://u:p@h:5433/ferretdb_x?sslmode=disable');
  });
});
