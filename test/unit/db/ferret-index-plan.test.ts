import { expect } from 'chai';
import { Schema } from 'mongoose';
import { ginIndexName, jsonbExpression, planFerretIndexes } from '../../../shared/platform/db/ferretIndexes';
import { Event, Recommendation } from '../../../shared/platform/db/models';
import { defineModel } from '../../../shared/platform/db/models/define';

/** The GIN indexes for FerretDB's PostgreSQL backend come from the indexes the models declare, where they mark a key `gin`. */
describe('FerretDB PostgreSQL index plan', () => {
  const tables = new Map([
    ['recommendations', 'recommendations_1a2b3c4d'],
    ['events', 'events_5e6f7a8b'],
  ]);
  const plan = planFerretIndexes([Recommendation, Event], tables, 'odds');
  const fieldsOf = (collection: string) => plan.filter((p) => p.collection === collection).map((p) => p.field);

  it('happy: _id and every key a declared index marks gin get one GIN index each', () => {
    expect(fieldsOf('recommendations')).to.have.members(['_id', 'eventId', 'settled']);
    expect(fieldsOf('events')).to.have.members(['_id', 'status', 'competitionId', 'sportId']);
  });

  it('happy: keys no named read filters on by equality (dates, descending keys: ranges and sorts) get none', () => {
    expect(fieldsOf('recommendations')).not.to.include.members(['createdAt']);
    expect(fieldsOf('recommendations')).not.to.include('edgePercentage');
    expect(fieldsOf('events')).not.to.include('startDateTime');
  });

  it('error: a GIN key that is not a key of its index is refused when the model is defined', () => {
    const schema = new Schema({ a: String, b: String });
    expect(() => defineModel('GinKeyOutsideItsIndex', schema, [[{ a: 1 }, { read: 'x.ts:y', gin: { b: 'x.ts:y' } }]])).to.throw(/GinKeyOutsideItsIndex: GIN keys b /);
  });

  it('happy: the index expression is the one FerretDB filters on (-> for a field, #> for a dotted path), in its schema', () => {
    expect(jsonbExpression('eventId')).to.equal("_jsonb -> 'eventId'");
    expect(jsonbExpression('homeTeam.id')).to.equal("_jsonb #> '{homeTeam,id}'");
    const byEvent = plan.find((p) => p.collection === 'recommendations' && p.field === 'eventId')!;
    expect(byEvent.sql).to.equal(`CREATE INDEX IF NOT EXISTS "recommendations_1a2b3c4d_eventid_gin" ON "odds"."recommendations_1a2b3c4d" USING gin ((_jsonb -> 'eventId') jsonb_path_ops)`);
  });

  it('security: a quote in a name cannot leave its SQL literal or identifier', () => {
    expect(jsonbExpression("a'b")).to.equal("_jsonb -> 'a''b'");
    const [p] = planFerretIndexes([Recommendation], new Map([['recommendations', 'x"y']]), 'o"db');
    expect(p.sql).to.contain('"o""db"."x""y"');
  });

  it('happy: names stay within PostgreSQL 63 characters and collections not yet created are skipped', () => {
    expect(ginIndexName('t'.repeat(60), 'homeTeam.id').length).to.be.at.most(63);
    expect(planFerretIndexes([Recommendation], new Map(), 'odds')).to.deep.equal([]);
  });
});
