import { expect } from 'chai';
import mongoose, { Schema } from 'mongoose';
import { findWhereIn } from '../../../shared/platform/db/lookup';
import { connectMongo } from '../../../shared/platform/db/mongo';

/**
 * findWhereIn answers exactly what `{ field: { $in: values }, ...and }` answers, whichever way it
 * asks: value by value on FerretDB for a short list, one `$in` for a long one (and on MongoDB).
 */
describe('lookups by a list of values (shared/platform/db/lookup findWhereIn)', function () {
  this.timeout(120000);
  const name = `where_in_${process.pid}`;
  const Doc = mongoose.model(name, new Schema({ _id: String, team: Number, tags: [String], open: Boolean, body: String }, { collection: name, versionKey: false }));
  const ids = (docs: { _id: unknown }[]) => docs.map((d) => String(d._id)).sort();
  const expected = async (field: string, values: unknown[], and: Record<string, unknown> = {}) => ids(await Doc.find({ ...and, [field]: { $in: values } }).lean());

  before(async () => {
    await connectMongo();
    await Doc.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: `d${i}`, team: i % 40, tags: [`t${i % 7}`, `u${i % 11}`], open: i % 3 === 0, body: 'x'.repeat(50) })));
  });
  after(async () => {
    await Doc.collection.drop().catch(() => undefined);
    mongoose.deleteModel(name);
  });

  it('happy: a short list of ids (equality lookups on FerretDB) finds each document once, unknown ids nothing', async () => {
    const values = ['d1', 'd5', 'd5', 'd299', 'nope'];
    const got = await findWhereIn<{ _id: string }>(Doc, '_id', values);
    expect(ids(got)).to.deep.equal(['d1', 'd299', 'd5']);
    expect(ids(got)).to.deep.equal(await expected('_id', values));
  });

  it('happy: a field shared by many documents, with an extra equality and a projection', async () => {
    const got = await findWhereIn<{ _id: string; team: number; body?: string }>(Doc, 'team', [3, 17], { team: 1 }, { open: true });
    expect(ids(got)).to.deep.equal(await expected('team', [3, 17], { open: true }));
    expect(got.length).to.be.greaterThan(0);
    expect(got.every((d) => d.body === undefined && [3, 17].includes(d.team))).to.equal(true);
  });

  it('happy: an array field matches a document once even when two of its values are listed', async () => {
    const got = await findWhereIn<{ _id: string }>(Doc, 'tags', ['t1', 'u1']);
    expect(ids(got)).to.deep.equal(await expected('tags', ['t1', 'u1']));
    expect(new Set(ids(got)).size).to.equal(got.length);
  });

  it('happy: a list longer than the equality limit (one $in) answers the same', async () => {
    const values = Array.from({ length: 150 }, (_, i) => `d${i * 2}`);
    expect(ids(await findWhereIn(Doc, '_id', values))).to.deep.equal(await expected('_id', values));
  });

  it('happy: an empty list finds nothing', async () => {
    expect(await findWhereIn(Doc, '_id', [])).to.deep.equal([]);
  });
});
