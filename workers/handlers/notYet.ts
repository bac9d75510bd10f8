/**
 * Marks a declared job whose capability is not built yet. It fails the job with a clear reason
 * (visible in Bull Board) instead of pretending success; the job stays retryable for when it is.
 */
export class NotBuiltYetError extends Error {
  override name = 'NotBuiltYetError';
}

export const notBuiltYet = (what: string) => async (): Promise<never> => {
  throw new NotBuiltYetError(`${what} is not built yet`);
};
