/**
 * What the change feed carries and how one change is spelled as a Redis stream entry. Pure (no
 * Redis, no config), so the unit tier checks the encoding and a reader of the stream in another
 * language needs only docs/ingestion.md ("The change feed").
 */

export const CHANGE_KINDS = ['price', 'status', 'score', 'lineups', 'closing', 'settled', 'result', 'recommendation'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One change a writer applied to an event. */
export interface Change {
  eventId: string;
  kind: ChangeKind;
  /** World time of the change (simulated time under SIM_SPEED), not the time it was published. */
  at: Date;
  /** The new values; JSON, so a Date in it comes back as its ISO string. */
  data: unknown;
  provider?: string;
}

/** A change as read back, with the stream entry id that orders it and the batch that wrote it. */
export interface ChangeEntry {
  id: string;
  poll: string;
  change: Change;
}

/** The fields of every entry, in the order they are written. */
export const ENTRY_FIELDS = ['eventId', 'kind', 'at', 'data', 'provider', 'poll'] as const;

const KINDS: ReadonlySet<string> = new Set(CHANGE_KINDS);
const isChangeKind = (kind: string): kind is ChangeKind => KINDS.has(kind);
const ENTRY_ID = /^(\d{1,20})-(\d{1,20})$/;

export class ChangeEncodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChangeEncodingError';
  }
}

/**
 * The entry's field/value list for XADD (`ENTRY_FIELDS` order, 12 strings). Throws on a change
 * the stream could not give back as it was, before anything is written.
 */
export function encodeChange(change: Change, poll: string): string[] {
  if (typeof change.eventId !== 'string' || !change.eventId) throw new ChangeEncodingError('a change needs an eventId');
  if (!KINDS.has(change.kind)) throw new ChangeEncodingError(`unknown change kind "${String(change.kind)}" (event ${change.eventId})`);
  const at = change.at instanceof Date ? change.at.getTime() : NaN;
  if (!Number.isFinite(at)) throw new ChangeEncodingError(`change ${change.kind} of event ${change.eventId} has no valid date`);
  if (typeof poll !== 'string' || !poll) throw new ChangeEncodingError('a change batch needs an id');
  // JSON.stringify(undefined) is undefined, which no stream field can hold: it reads back as null.
  const data = JSON.stringify(change.data) ?? 'null';
  return ['eventId', change.eventId, 'kind', change.kind, 'at', String(at), 'data', data, 'provider', change.provider ?? '', 'poll', poll];
}

/** A stream entry's field/value list (as XRANGE returns it) back to its change and batch id. */
export function decodeChange(fields: readonly string[]): { change: Change; poll: string } {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i], fields[i + 1]);
  const eventId = values.get('eventId');
  const kind = values.get('kind');
  const atText = values.get('at');
  const dataText = values.get('data');
  if (!eventId) throw new ChangeEncodingError('entry without eventId');
  if (kind === undefined || !isChangeKind(kind)) throw new ChangeEncodingError(`entry of event ${eventId} with unknown kind "${kind}"`);
  if (atText === undefined || !/^-?\d+$/.test(atText)) throw new ChangeEncodingError(`entry of event ${eventId} with an invalid at "${atText}"`);
  if (dataText === undefined) throw new ChangeEncodingError(`entry of event ${eventId} without data`);
  let data: unknown;
  try {
    data = JSON.parse(dataText);
  } catch {
    throw new ChangeEncodingError(`entry of event ${eventId} whose data is not JSON`);
  }
  const provider = values.get('provider');
  const change: Change = { eventId, kind, at: new Date(Number(atText)), data };
  if (provider) change.provider = provider;
  return { change, poll: values.get('poll') ?? '' };
}

/** Whether `id` is a complete stream entry id (`<ms>-<seq>`), the only form a reader may resume from. */
export function isChangeId(id: string): boolean {
  return ENTRY_ID.test(id);
}

/**
 * Orders two entry ids (negative when `a` is older). Numeric per part: as strings, `9-0` would
 * sort after `10-0` and `5-10` before `5-2`.
 */
export function compareChangeIds(a: string, b: string): number {
  const pa = ENTRY_ID.exec(a);
  const pb = ENTRY_ID.exec(b);
  if (!pa || !pb) throw new ChangeEncodingError(`not a stream entry id: "${pa ? b : a}"`);
  const ms = BigInt(pa[1]) - BigInt(pb[1]);
  const diff = ms !== 0n ? ms : BigInt(pa[2]) - BigInt(pb[2]);
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}
