/**
 * Another writer of the commitments chain, as its own OS process: appends `count` records tagged
 * `tag` one call each, all at once, then prints how many links it added. argv: tag count.
 */
import mongoose from 'mongoose';
import { appendCommitments } from '../../shared/app/commitments/append';
import { processContext } from '../../shared/app/processContext';
import { canonicalize } from '../../shared/domain/commitments/canonical';
import { connectMongo } from '../../shared/platform/db/mongo';

async function run(): Promise<void> {
  const [tag, count] = [process.argv[2], Number(process.argv[3])];
  await connectMongo();
  const added = await Promise.all(
    Array.from({ length: count }, (_, i) => appendCommitments(processContext(), [{ kind: 'recommendation', recordId: `${tag}-${i}`, record: canonicalize({ id: `${tag}-${i}` }) }])),
  );
  process.stdout.write(`added ${added.reduce((a, b) => a + b, 0)}\n`);
  await mongoose.disconnect();
}

run().catch((err) => {
  process.stderr.write(String(err?.stack ?? err));
  process.exit(1);
});
