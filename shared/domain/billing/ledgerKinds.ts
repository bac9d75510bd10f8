/** The kinds of credit ledger entries (grant, purchase and recharge are top-ups). */
export const LEDGER_KINDS = ['grant', 'debit', 'refund', 'purchase', 'recharge', 'adjustment'] as const;
