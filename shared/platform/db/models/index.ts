import { definedModels } from './define';

export { Account } from './account';
export { ApiKey } from './apiKey';
export { ChainHead } from './chainHead';
export { Commitment } from './commitment';
export { Competition } from './competition';
export { Credential } from './credential';
export { CreditLedger } from './creditLedger';
export { Event } from './event';
export { EventPrices } from './eventPrices';
export { EventSettlement } from './eventSettlement';
export { EventView } from './eventView';
export { Insight } from './insight';
export { LiveEventData } from './liveEventData';
export { ModelFit } from './modelFit';
export { MeterHold } from './meterHold';
export { OddsHistory } from './oddsHistory';
export { PerformanceRollup } from './performanceRollup';
export { Pick } from './pick';
export { ProviderState } from './providerState';
export { Recommendation } from './recommendation';
export { RechargeAttempt } from './rechargeAttempt';
export { Region } from './region';
export { Session } from './session';
export { Team } from './team';
export { WebhookDelivery } from './webhookDelivery';
export { WebhookEndpoint } from './webhookEndpoint';

/** Every model exported above: the re-exports load their files before this line runs. */
export const ALL_MODELS = definedModels();
