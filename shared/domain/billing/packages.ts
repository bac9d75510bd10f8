/** The credit packages of the API contract (sizes in credits). */
export const CREDIT_PACKAGES = [20000, 100000, 500000, 2000000] as const;
/** The credits every new account is granted. */
export const FREE_CREDITS = 500;

/**
 * Prices of the credit packages of the API contract (which gives sizes, not prices): our choice, in US
 * cents, cheaper per credit as packages grow. One table, used by purchases and auto-recharge.
 */
export const PACKAGE_PRICES_CENTS: Readonly<Record<(typeof CREDIT_PACKAGES)[number], number>> = {
  20000: 1000,
  100000: 4500,
  500000: 20000,
  2000000: 70000,
};

export const CURRENCY = 'usd';

export type PackageCredits = (typeof CREDIT_PACKAGES)[number];

export function isPackage(n: number): n is PackageCredits {
  return CREDIT_PACKAGES.some((size) => size === n);
}
