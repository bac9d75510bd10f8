import { ProviderState } from '../models';

/** What the last poll of each provider did. */

/** Every provider's state. */
export async function findAllProviderStates() {
  return ProviderState.find().lean();
}
