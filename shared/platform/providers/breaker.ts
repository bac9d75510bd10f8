import type { EventEmitter } from 'node:events';
import CircuitBreaker from 'opossum';
import { QuotaExhaustedError } from '../../domain/providers/types';
import { errorField } from '../errorFields';

export type BreakerState = 'closed' | 'open' | 'halfOpen';

export interface BreakerOptions {
  /** Per-call timeout; the call's request is aborted when it passes. */
  timeoutMs: number;
  /** How long the breaker stays open before letting one trial call through (half-open). */
  resetTimeoutMs: number;
  /** Calls in the rolling window before the error rate may open the breaker. */
  volumeThreshold: number;
  errorThresholdPercentage: number;
  rollingCountTimeoutMs: number;
}

export const DEFAULT_BREAKER: Omit<BreakerOptions, 'timeoutMs'> = {
  resetTimeoutMs: 30_000,
  volumeThreshold: 3,
  errorThresholdPercentage: 50,
  rollingCountTimeoutMs: 120_000,
};

type Action = (signal: AbortSignal) => Promise<unknown>;

/** The error a call gets while the breaker is open: the provider was not contacted. */
export class BreakerOpenError extends Error {
  override name = 'BreakerOpenError';
  readonly code = 'EOPENBREAKER';
}

/**
 * One opossum breaker per provider. Every call gets its own AbortController: when opossum's
 * timeout fires, that call's request is aborted (not left running in the background), and a
 * quota refusal is not counted as a provider fault.
 */
export class ProviderBreaker {
  private readonly breaker: CircuitBreaker<[AbortController, Action], unknown>;

  constructor(
    readonly name: string,
    opts: BreakerOptions,
    onState?: (state: BreakerState) => void,
  ) {
    this.breaker = new CircuitBreaker(async (controller: AbortController, action: Action) => action(controller.signal), {
      name,
      timeout: opts.timeoutMs,
      resetTimeout: opts.resetTimeoutMs,
      volumeThreshold: opts.volumeThreshold,
      errorThresholdPercentage: opts.errorThresholdPercentage,
      rollingCountTimeout: opts.rollingCountTimeoutMs,
      rollingCountBuckets: 10,
      enableSnapshots: false,
      errorFilter: (err: unknown) => err instanceof QuotaExhaustedError,
    });
    // opossum passes the call's arguments with the timeout event (its typings omit them): the
    // event is heard as the emitter the breaker is.
    const emitter: EventEmitter = this.breaker;
    emitter.on('timeout', (_err: unknown, _latency: unknown, args: unknown) => {
      const controller: unknown = Array.isArray(args) ? args[0] : undefined;
      if (controller instanceof AbortController) controller.abort(new Error(`${name}: timed out after ${opts.timeoutMs} ms`));
    });
    if (onState) {
      this.breaker.on('open', () => onState('open'));
      this.breaker.on('halfOpen', () => onState('halfOpen'));
      this.breaker.on('close', () => onState('closed'));
    }
  }

  get state(): BreakerState {
    return this.breaker.opened ? 'open' : this.breaker.halfOpen ? 'halfOpen' : 'closed';
  }

  async fire<T>(action: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // The breaker answers what the action resolved to, as unknown: the action's own result is kept here.
    let result: { value: T } | undefined;
    try {
      await this.breaker.fire(new AbortController(), async (signal) => {
        result = { value: await action(signal) };
      });
    } catch (err) {
      if (errorField(err, 'code') === 'EOPENBREAKER') throw new BreakerOpenError(`${this.name}: circuit open, provider not called`);
      throw err;
    }
    if (!result) throw new Error(`${this.name}: the breaker resolved without the call's result`);
    return result.value;
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A provider call through its breaker, retried at most once (outside the breaker, so the retry
 * is itself counted) unless the breaker is open or the quota is spent.
 */
export async function guardedCall<T>(breaker: ProviderBreaker, action: (signal: AbortSignal) => Promise<T>, retryDelayMs = 250): Promise<T> {
  try {
    return await breaker.fire(action);
  } catch (err) {
    if (err instanceof BreakerOpenError || err instanceof QuotaExhaustedError) throw err;
    await sleep(retryDelayMs);
    return breaker.fire(action);
  }
}
