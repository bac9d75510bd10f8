/**
 * The soak's end checks as pure functions of what it recorded and read back (scripts/soak.ts
 * gathers the inputs; the use cases' own checks, checkLedger, checkPerformance and verifyRecord,
 * are called there). Each returns a line: PASS or FAIL with its figure.
 */
import { mulberry32 } from '../../shared/domain/ai/random';

export interface CheckResult {
  name: string;
  pass: boolean;
  figure: string;
  /** Lines printed under the result (failed jobs with their reasons, the faults one by one). */
  details?: string[];
}

export const FAULT_KINDS = ['kill-worker', 'redis-restart', 'store-restart', 'pause'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
/** Faults that take a server away: /v2/health must answer 503 or degraded while they last. */
export const STORE_FAULTS: readonly FaultKind[] = ['redis-restart', 'store-restart'];

export interface Fault {
  kind: FaultKind;
  target: string;
  /** When the fault began and when it was undone (server back, process continued), ms since the epoch. */
  start: number;
  end: number;
}

/** One answer the traffic got: status 0 when no status line came back (refused, reset, timed out). */
export interface Answer {
  /** When the request was sent. */
  at: number;
  /** When its answer (or the end of the connection) came; `at` when unknown. */
  doneAt?: number;
  status: number;
  /** For a 5xx: the request line and the answer's message (the report names the strays). */
  what?: string;
}

export interface HealthSample {
  at: number;
  /** 0: no answer. */
  http: number;
  status: 'ok' | 'degraded' | null;
  /** The largest time since a provider's last successful poll, null when unknown. */
  staleMs: number | null;
  /** Why health said degraded (its `reasons`), empty when ok or unknown. */
  reasons?: readonly string[];
}

/** How often each degraded reason was given, its figures blanked ("an analysis has waited # s"), most frequent first. */
export function reasonCounts(samples: readonly HealthSample[]): string[] {
  const counts = new Map<string, number>();
  for (const s of samples) for (const r of new Set((s.reasons ?? []).map((x) => x.replace(/\d+(\.\d+)?/g, '#')))) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([r, n]) => `degraded in ${n} of ${samples.length} samples: ${r}`);
}

/**
 * The chaos plan: fault kinds in a seeded order that goes through all four before repeating, and
 * the gap before each, drawn from [min, max] seconds, until `durationMs` is used up (each fault
 * is given `faultMs` of its own).
 */
export function chaosPlan(seed: number, durationMs: number, gapS: { min: number; max: number }, faultMs: (k: FaultKind) => number): { kind: FaultKind; afterMs: number }[] {
  const rand = mulberry32(seed); // the same seed, the same faults at the same moments
  const plan: { kind: FaultKind; afterMs: number }[] = [];
  let bag: FaultKind[] = [];
  let used = 0;
  for (;;) {
    if (bag.length === 0) {
      bag = [...FAULT_KINDS];
      for (let i = bag.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [bag[i], bag[j]] = [bag[j], bag[i]];
      }
    }
    const gap = Math.round((gapS.min + rand() * (gapS.max - gapS.min)) * 1000);
    const kind = bag[0];
    if (used + gap + faultMs(kind) > durationMs) return plan;
    bag.shift();
    plan.push({ kind, afterMs: gap });
    used += gap + faultMs(kind);
  }
}

/** In flight at some moment of an outage or its grace: sent before a server died and answered after counts. */
const inFlightDuring = (a: Answer, faults: readonly Fault[], graceMs: number) => faults.some((f) => a.at <= f.end + graceMs && (a.doneAt ?? a.at) >= f.start);

/** No 5xx but 503, and a 503 only while a server was down or within `graceMs` after it came back. */
export function checkStatuses(answers: readonly Answer[], faults: readonly Fault[], graceMs: number): CheckResult {
  const store = faults.filter((f) => STORE_FAULTS.includes(f.kind));
  const count = (p: (a: Answer) => boolean) => answers.filter(p).length;
  const other5xx = answers.filter((a) => a.status >= 500 && a.status !== 503);
  const stray503 = answers.filter((a) => a.status === 503 && !inFlightDuring(a, store, graceMs));
  const byStatus = new Map<number, number>();
  for (const a of other5xx) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  const figure =
    `${answers.length} answers: ${count((a) => a.status >= 200 && a.status < 400)} 2xx/3xx, ${count((a) => a.status >= 400 && a.status < 500)} 4xx, ` +
    `${count((a) => a.status === 503)} 503 (${stray503.length} outside a server's outage + ${Math.round(graceMs / 1000)} s), ${other5xx.length} other 5xx` +
    `${other5xx.length ? ` (${[...byStatus].map(([s, n]) => `${n}x${s}`).join(', ')})` : ''}, ${count((a) => a.status === 0)} without an answer`;
  const t0 = answers[0]?.at ?? 0;
  const details = [...stray503, ...other5xx].slice(0, 10).map((a) => `${a.status} at +${((a.at - t0) / 1000).toFixed(1)} s: ${a.what ?? '?'}`);
  return { name: 'no 5xx but 503 while a server was down', pass: other5xx.length === 0 && stray503.length === 0, figure, details };
}

export interface FaultRecovery {
  fault: Fault;
  /** A sample during the fault (or within 5 s after) answered 503, nothing, or degraded. */
  degradedSeen: boolean;
  /** From the fault's end to the first sample answering 200 ok; null when none did. */
  okAfterMs: number | null;
  /** From the fault's end to the first sample with every provider polled within three intervals. */
  caughtUpAfterMs: number | null;
}

export function recoveries(faults: readonly Fault[], samples: readonly HealthSample[], stallMs: number): FaultRecovery[] {
  return faults.map((fault) => {
    const during = samples.filter((s) => s.at >= fault.start && s.at <= fault.end + 5000);
    const after = samples.filter((s) => s.at >= fault.end);
    const ok = after.find((s) => s.http === 200 && s.status === 'ok');
    const caught = after.find((s) => s.http === 200 && s.staleMs !== null && s.staleMs < stallMs);
    return {
      fault,
      degradedSeen: during.some((s) => s.http !== 200 || s.status !== 'ok'),
      okAfterMs: ok ? ok.at - fault.end : null,
      caughtUpAfterMs: caught ? caught.at - fault.end : null,
    };
  });
}

const secs = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

export function faultLine(r: FaultRecovery, t0: number): string {
  const f = r.fault;
  return `${f.kind.padEnd(13)} ${f.target.padEnd(22)} at +${((f.start - t0) / 1000).toFixed(0)} s for ${((f.end - f.start) / 1000).toFixed(1)} s: health ${r.degradedSeen ? 'degraded/503 during it' : 'stayed ok'}, ok ${secs(r.okAfterMs)} after, ingest caught up ${secs(r.caughtUpAfterMs)} after`;
}

/**
 * /v2/health degraded (or 503) during each server outage, and ok within `recoveryMs` after every
 * fault. A killed or paused worker has copies beside it: health need not degrade for it.
 */
export function checkHealth(rs: readonly FaultRecovery[], samples: readonly HealthSample[], recoveryMs: number, t0: number): CheckResult {
  const name = `/v2/health degraded during each outage, ok within ${Math.round(recoveryMs / 1000)} s after each fault`;
  const okShare = `${samples.filter((s) => s.http === 200 && s.status === 'ok').length} of ${samples.length} samples ok`;
  if (rs.length === 0) return { name, pass: true, figure: `no faults; ${okShare}`, details: reasonCounts(samples) };
  const missed = rs.filter((r) => STORE_FAULTS.includes(r.fault.kind) && !r.degradedSeen);
  const slow = rs.filter((r) => r.okAfterMs === null || r.okAfterMs > recoveryMs);
  const oks = rs.flatMap((r) => (r.okAfterMs === null ? [] : [r.okAfterMs]));
  return {
    name,
    pass: missed.length === 0 && slow.length === 0,
    figure: `${rs.length} faults: ${missed.length} outages not seen by health, ${slow.length} not ok within the time; ok after max ${secs(oks.length ? Math.max(...oks) : null)}; ${okShare}`,
    details: [...rs.map((r) => faultLine(r, t0)), ...reasonCounts(samples)],
  };
}

/** Ingest caught up after each fault: every provider's last successful poll under three intervals again within `recoveryMs`. */
export function checkCaughtUp(rs: readonly FaultRecovery[], samples: readonly HealthSample[], stallMs: number, recoveryMs: number): CheckResult {
  const name = `ingest caught up after each fault (staleness < ${Math.round(stallMs / 1000)} s within ${Math.round(recoveryMs / 1000)} s)`;
  const fresh = samples.filter((s) => s.staleMs !== null && s.staleMs < stallMs).length;
  const share = `${fresh} of ${samples.length} samples under three intervals`;
  if (rs.length === 0) {
    const last = samples.filter((s) => s.http === 200).at(-1);
    const pass = last !== undefined && last.staleMs !== null && last.staleMs < stallMs;
    return { name, pass, figure: `no faults; last sample ${last ? secs(last.staleMs) : 'missing'} since a poll; ${share}` };
  }
  const late = rs.filter((r) => r.caughtUpAfterMs === null || r.caughtUpAfterMs > recoveryMs);
  const times = rs.flatMap((r) => (r.caughtUpAfterMs === null ? [] : [r.caughtUpAfterMs]));
  return { name, pass: late.length === 0, figure: `${rs.length - late.length} of ${rs.length} faults caught up in time (max ${secs(times.length ? Math.max(...times) : null)}); ${share}` };
}

export interface BetRow {
  settled: boolean;
  settlementWrites: number;
  corrections: number;
}

/** Exactly one result write per settled bet plus one per correction; none for an unsettled one. */
export function checkGradedOnce(kind: string, bets: readonly BetRow[]): CheckResult {
  const settled = bets.filter((b) => b.settled);
  const bad = bets.filter((b) => (b.settled ? b.settlementWrites !== 1 + b.corrections : b.settlementWrites !== 0));
  const twice = bets.filter((b) => b.settlementWrites > 1 + b.corrections).length;
  return {
    name: `every ${kind} graded exactly once`,
    pass: bad.length === 0,
    figure: `${settled.length} of ${bets.length} settled; ${bad.length} with settlementWrites != 1 + corrections (${twice} written twice)`,
  };
}

/** Duplicate refs: a charge, grant or recharge written twice. */
export function checkUniqueRefs(refs: readonly string[]): CheckResult {
  const seen = new Map<string, number>();
  for (const r of refs) seen.set(r, (seen.get(r) ?? 0) + 1);
  const dups = [...seen].filter(([, n]) => n > 1);
  return {
    name: 'ledger refs unique (no charge or credit written twice)',
    pass: dups.length === 0,
    figure: `${refs.length} entries, ${seen.size} refs, ${dups.length} duplicated`,
    details: dups.slice(0, 10).map(([r, n]) => `${r}: ${n} entries`),
  };
}

export interface AccountUsage {
  name: string;
  /** Credits the answers said were consumed (X-Credits-Consumed of every answer the client read). */
  servedCredits: number;
  /** Credits the account was given or bought: the ledger's positive entries (grant, purchases, recharges). */
  paidCredits: number;
  /** The ledger's debits less its refunds. */
  ledgerDebited: number;
  /** Answers refused for credits (402, 403). */
  refusedForCredits: number;
}

/** No account was served more credits than it was given or bought. */
export function checkNotOverServed(accounts: readonly AccountUsage[]): CheckResult {
  const over = accounts.filter((a) => a.servedCredits > a.paidCredits);
  return {
    name: 'no request served beyond the credits paid',
    pass: over.length === 0,
    figure: accounts.map((a) => `${a.name} served ${a.servedCredits} of ${a.paidCredits} paid (ledger debited ${a.ledgerDebited}, ${a.refusedForCredits} refused 402/403)`).join('; '),
  };
}

export interface GatewayCharge {
  status: string;
  idempotencyKey: string;
}

/** `recharge-<account>-<window>-a<attempt>` (shared/app/billing/recharge.ts). */
const RECHARGE_KEY = /^recharge-(.+)-(v\d+s\d+)-a(\d+)$/;

/**
 * Each recharge trigger (an account's low-balance window) charged at most once: at most one
 * succeeded charge per window in the test gateway's record, and every success credited once.
 */
export function checkRecharges(charges: readonly GatewayCharge[], ledgerRecharges: number): CheckResult {
  const windows = new Map<string, number>();
  let unparsed = 0;
  for (const c of charges) {
    const m = RECHARGE_KEY.exec(c.idempotencyKey);
    if (!m) {
      unparsed++;
      continue;
    }
    const w = `${m[1]}|${m[2]}`;
    windows.set(w, (windows.get(w) ?? 0) + (c.status === 'succeeded' ? 1 : 0));
  }
  const twice = [...windows].filter(([, n]) => n > 1);
  const succeeded = charges.filter((c) => c.status === 'succeeded').length;
  return {
    name: 'each recharge trigger charged at most once',
    pass: twice.length === 0 && unparsed === 0 && succeeded === ledgerRecharges,
    figure: `${charges.length} gateway charges (${succeeded} succeeded, ${charges.length - succeeded} declined) over ${windows.size} windows; ${twice.length} windows charged twice; ${ledgerRecharges} recharge credits in the ledger`,
  };
}

export interface JobRow {
  queue: string;
  id: string;
  name: string;
  state: 'active' | 'waiting' | 'delayed' | 'failed';
  /** active: since it started; waiting: since it was added; delayed: past its due time (0 when not due); failed: since it failed. */
  ageMs: number;
  failedReason?: string;
}

export const STUCK_MS = { active: 120_000, delayed: 120_000, waiting: 300_000 } as const;

/** No job stuck: none active past 2 min, none delayed 2 min past due, none waiting 5 min. Failed jobs are listed with their reasons. */
export function checkStuckJobs(jobs: readonly JobRow[]): CheckResult {
  const stuck = jobs.filter((j) => j.state !== 'failed' && j.ageMs > STUCK_MS[j.state]);
  const failed = jobs.filter((j) => j.state === 'failed');
  return {
    name: 'no job left stuck',
    pass: stuck.length === 0,
    figure: `${stuck.length} stuck (active > 2 min, delayed > 2 min past due, waiting > 5 min); ${failed.length} failed`,
    details: [
      ...stuck.map((j) => `stuck ${j.state} ${j.queue}/${j.name} ${j.id} for ${secs(j.ageMs)}`),
      ...failed.slice(0, 20).map((j) => `failed ${j.queue}/${j.name} ${j.id}: ${j.failedReason ?? '(no reason)'}`),
    ],
  };
}

export function formatResult(r: CheckResult): string {
  return [`${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.figure}`, ...(r.details ?? []).map((d) => `        ${d}`)].join('\n');
}
