/**
 * Thrown when a bet cannot be graded because the bet itself is malformed (as opposed to the
 * event data being incomplete, which settles as push). The settlement worker records the code
 * on the bet and leaves it unsettled for review instead of guessing a result.
 */
export type GradingErrorCode = 'UNKNOWN_MARKET' | 'UNKNOWN_CODE' | 'MISSING_LINE' | 'INVALID_LINE' | 'INVALID_ODDS' | 'INVALID_STATS' | 'EMPTY_PARLAY';

export class GradingError extends Error {
  override readonly name = 'GradingError';
  constructor(
    readonly code: GradingErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isGradingError(err: unknown): err is GradingError {
  return err instanceof GradingError;
}
