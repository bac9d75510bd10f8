import { AggregatorRegistry, Gauge, Registry } from 'prom-client';
import { errorMessage } from '../errorFields';
import { childLogger } from '../logger';
import { ownSnapshotKey, readSnapshots, type MetricsJson, type Snapshot } from './publish';
import { metricsProcess, processRegistry } from './registry';
import { scrapeState, type QueueSource } from './scrape';

/**
 * The whole deployment's metrics in the Prometheus text format: the snapshots every process
 * published (this process read live instead of its last snapshot), summed per label set, so the
 * copies of one process kind add up under their `process` label; then the scrape-time state
 * (`queues`: the queues whose depth and age it reads).
 */
export async function collectMetrics(queues: QueueSource): Promise<{ contentType: string; body: string }> {
  const own: MetricsJson = await processRegistry.getMetricsAsJSON();
  let others: Snapshot[] = [];
  let snapshotsUp = 1;
  try {
    const skip = ownSnapshotKey();
    others = (await readSnapshots()).filter((s) => s.key !== skip);
  } catch (err) {
    snapshotsUp = 0;
    childLogger({ component: 'metrics' }).warn({ err: errorMessage(err) }, 'reading published metrics failed; serving this process only');
  }
  const summed = AggregatorRegistry.aggregate<typeof Registry.PROMETHEUS_CONTENT_TYPE>([own, ...others.map((s) => s.metrics)]);
  const state = await scrapeState(queues);
  const meta = new Registry();
  const processes = new Gauge({
    name: 'odds_metrics_processes',
    help: 'Processes whose metrics this answer includes, per process name (the answering one included).',
    labelNames: ['process'] as const,
    registers: [meta],
  });
  for (const p of [metricsProcess(), ...others.map((s) => s.process)]) processes.inc({ process: p });
  new Gauge({ name: 'odds_metrics_snapshots_up', help: "Whether the other processes' published metrics could be read from Redis (1) or not (0).", registers: [meta] }).set(snapshotsUp);
  const merged = Registry.merge([summed, state, meta]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
