/** A bad argument; `argument` names it (the CLI turns it into a message and a non-zero exit). */
export class BillingInputError extends Error {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(`${argument}: ${message}`);
    this.name = 'BillingInputError';
  }
}
