import { expect } from 'chai';
import mongoose from 'mongoose';
import { INSERT_BATCH, insertInBatches } from '../../../shared/platform/db/bulk';
import { isDuplicateKey } from '../../../shared/platform/db/duplicateKey';
import { connectMongo } from '../../../shared/platform/db/mongo';

/**
 * Every batch of inserts goes through insertInBatches: unordered, in batches, and (for append-only
 * writes such as odds history) a key already stored is skipped rather than failing the write.
 */
describe('inserts in batches (shared/platform/db/bulk insertInBatches)', function () {
  this.timeout(120000);
  const name = `batch_inserts_${process.pid}`;
  const coll = () => mongoose.connection.db!.collection<{ _id?: unknown; k: string; n: number }>(name);

  before(async () => {
    await connectMongo();
    await coll().createIndex({ k: 1 }, { unique: true });
  });
  after(async () => {
    await coll()
      .drop()
      .catch(() => undefined);
  });
  beforeEach(async () => void (await coll().deleteMany({})));

  it('happy: more documents than one batch holds are all written, and the count says so', async () => {
    const docs = Array.from({ length: INSERT_BATCH + 7 }, (_, n) => ({ k: `a${n}`, n }));
    expect(await insertInBatches(coll(), docs)).to.equal(INSERT_BATCH + 7);
    expect(await coll().countDocuments({})).to.equal(INSERT_BATCH + 7);
  });

  it('happy: with ignoreDuplicates, stored keys are skipped and every new one is written (unordered: after the duplicates too)', async () => {
    await insertInBatches(coll(), [
      { k: 'd1', n: 1 },
      { k: 'd3', n: 3 },
    ]);
    const inserted = await insertInBatches(
      coll(),
      [1, 2, 3, 4].map((n) => ({ k: `d${n}`, n: 10 + n })),
      { ignoreDuplicates: true },
    );
    expect(inserted).to.equal(2);
    const stored = await coll().find({}).sort({ k: 1 }).toArray();
    expect(stored.map((d) => [d.k, d.n])).to.deep.equal([
      ['d1', 1],
      ['d2', 12],
      ['d3', 3],
      ['d4', 14],
    ]);
  });

  it('error: without ignoreDuplicates a stored key is a duplicate-key failure, and the other documents are still written', async () => {
    await insertInBatches(coll(), [{ k: 'e1', n: 1 }]);
    const err = await insertInBatches(coll(), [
      { k: 'e1', n: 2 },
      { k: 'e2', n: 2 },
    ]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDuplicateKey(err)).to.equal(true);
    expect(await coll().countDocuments({ k: 'e2' })).to.equal(1);
  });

  it('happy: nothing to insert writes nothing', async () => {
    expect(await insertInBatches(coll(), [])).to.equal(0);
  });
});
