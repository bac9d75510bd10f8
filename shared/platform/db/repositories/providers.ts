import { ProviderState } from '../models';
import type { ProviderStateDoc } from '../models/providerState';

/** What the last poll of each provider did. */

/** Every provider's state. */
export async function findAllProviderStates() {
  return ProviderState.find().lean();
}

/** Repository of ProviderState: what the last poll of each provider did. */

/** Fields of a provider's state a writer sets (upserting the document). */
export type ProviderStateFields = Partial<Omit<ProviderStateDoc, 'createdAt' | 'updatedAt'>>;

/** Sets fields of a provider's state, creating the document if missing. */
export async function upsertProviderStateFields(provider: string, fields: ProviderStateFields): Promise<void> {
  await ProviderState.updateOne({ _id: provider }, { $set: fields }, { upsert: true });
}

/** Every provider's last success, stale flag and breaker state (the scrape-time metrics). */
export async function findProviderStatesForMetrics() {
  return ProviderState.find({}, { lastSuccessAt: 1, stale: 1, breaker: 1 }).lean();
}

/** One provider's state; null before its first poll. */
export async function findProviderState(provider: string) {
  return ProviderState.findById(provider).lean();
}
