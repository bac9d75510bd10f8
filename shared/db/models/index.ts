import { Account } from './account';
import { ApiKey } from './apiKey';
import { ChainHead } from './chainHead';
import { Commitment } from './commitment';
import { Competition } from './competition';
import { Credential } from './credential';
import { CreditLedger } from './creditLedger';
import { Event } from './event';
import { Insight } from './insight';
import { LiveEventData } from './liveEventData';
import { LiveOddsSnapshot } from './liveOddsSnapshot';
import { ModelFit } from './modelFit';
import { MeterHold } from './meterHold';
import { OddsHistory } from './oddsHistory';
import { PerformanceRollup } from './performanceRollup';
import { Pick } from './pick';
import { ProviderState } from './providerState';
import { Recommendation } from './recommendation';
import { RechargeAttempt } from './rechargeAttempt';
import { Region } from './region';
import { Session } from './session';
import { Team } from './team';

export {
  Account,
  ApiKey,
  ChainHead,
  Commitment,
  Competition,
  Credential,
  CreditLedger,
  Event,
  Insight,
  LiveEventData,
  LiveOddsSnapshot,
  ModelFit,
  MeterHold,
  OddsHistory,
  PerformanceRollup,
  Pick,
  ProviderState,
  Recommendation,
  RechargeAttempt,
  Region,
  Session,
  Team,
};

export const ALL_MODELS = [
  Account,
  ApiKey,
  ChainHead,
  Commitment,
  Competition,
  Credential,
  CreditLedger,
  Event,
  Insight,
  LiveEventData,
  LiveOddsSnapshot,
  ModelFit,
  MeterHold,
  OddsHistory,
  PerformanceRollup,
  Pick,
  ProviderState,
  Recommendation,
  RechargeAttempt,
  Region,
  Session,
  Team,
] as const;
