const integer = new Intl.NumberFormat('en-US');
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

export const credits = (n) => integer.format(n);
export const cents = (n) => money.format(n / 100);

export function when(value) {
  if (!value) return 'never';
  const d = new Date(value);
  return Number.isNaN(+d) ? String(value) : dateTime.format(d);
}

/** "2024-05-01" (a UTC day of the ledger) as "1 May". */
export function day(iso) {
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(+d) ? iso : dayMonth.format(d);
}

/** "GET /v2/matches/{eventId}" as "/matches/{eventId}": the method is always GET. */
export function endpointLabel(endpoint) {
  return String(endpoint)
    .replace(/^GET\s+/, '')
    .replace(/^\/v2(?=\/)/, '');
}
