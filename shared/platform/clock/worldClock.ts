import { luaScript } from '../db/luaScript';
import { processMemo } from '../processScope';
import { getConfig } from '../config';
import { key, redis } from '../db/redis';
import { childLogger } from '../logger';
import { replayEpoch } from '../providers/replay/configured';
import { isRealTime, parseAnchor, reconcileAnchor, simAt, skipAnchor, type ClockAnchor, type ClockSettings } from '../../domain/clock/anchor';

/**
 * The deployment's simulated clock: one anchor in Redis that every process reads, so the ingest
 * worker's feed, the AI worker's kickoff rule and the API's "today" agree. With SIM_SPEED 1 and no
 * SIM_EPOCH the world runs on real time and nothing is stored.
 */
const REFRESH_MS = 5000;
/** Replaces the stored anchor only if it is still the one this process read. */
const COMPARE_AND_SET = `local cur = redis.call('get', KEYS[1]) or '' if cur == ARGV[1] then redis.call('set', KEYS[1], ARGV[2]) return 1 else return 0 end`;
const runCompareAndSet = luaScript(COMPARE_AND_SET, 1);

/** SIM_SPEED 1 without SIM_EPOCH: the world's time is the real time. */
const REAL_TIME: ClockAnchor = { realMs: 0, simMs: 0, speed: 1, epoch: null };

// In the process scope (shared/platform/processScope.ts): a test file with stores of its own starts unanchored.
const held = processMemo((): { anchor?: ClockAnchor } => ({}));
let timer: NodeJS.Timeout | undefined;

export function clockSettings(): ClockSettings {
  const cfg = getConfig();
  // A replay starts its clock a few hours before its first match unless SIM_EPOCH says otherwise.
  return { speed: cfg.SIM_SPEED, epoch: cfg.SIM_EPOCH || replayEpoch(cfg) };
}

/** This process's anchor; before the shared one is loaded, one starting now (tests, benches). */
function current(): ClockAnchor {
  const h = held();
  if (!h.anchor) {
    const s = clockSettings();
    h.anchor = isRealTime(s) ? REAL_TIME : reconcileAnchor(null, s, Date.now()).anchor;
  }
  return h.anchor;
}

/** The simulated instant of a real one. */
export function toWorldTime(realMs: number): number {
  return simAt(current(), realMs);
}

/** Now, in the world the providers describe (real time unless SIM_SPEED or SIM_EPOCH say otherwise). */
export function worldNow(): Date {
  return new Date(toWorldTime(Date.now()));
}

/** Reads the shared anchor, replacing it (once, whoever races) when it does not fit this configuration. */
export async function syncWorldClock(): Promise<ClockAnchor> {
  const s = clockSettings();
  if (isRealTime(s)) return (held().anchor = REAL_TIME);
  const k = key('clock', 'anchor');
  for (let attempt = 0; attempt < 5; attempt++) {
    const raw = await redis().get(k);
    const stored = parseAnchor(raw);
    const { anchor: next, replaced } = reconcileAnchor(stored, s, Date.now());
    if (next === stored) {
      held().anchor = next;
      return next;
    }
    if ((await runCompareAndSet(redis(), k, raw ?? '', JSON.stringify(next))) === 1) {
      const log = childLogger({ component: 'world-clock' });
      if (raw && !stored) log.warn({ stored: raw }, 'unreadable simulated clock anchor discarded');
      if (replaced) log.warn({ anchor: next }, `simulated clock of an earlier configuration discarded: ${replaced}`);
      else log.info({ anchor: next }, 'simulated clock anchored');
      held().anchor = next;
      return next;
    }
  }
  throw new Error('could not agree on the simulated clock anchor (it kept changing)');
}

/**
 * Moves the shared simulated clock forward to `toSimMs` (never back, never on real time); true
 * when this call moved it. The other processes follow within REFRESH_MS.
 */
export async function skipWorldClockTo(toSimMs: number): Promise<boolean> {
  if (isRealTime(clockSettings())) return false;
  const k = key('clock', 'anchor');
  for (let attempt = 0; attempt < 5; attempt++) {
    const raw = await redis().get(k);
    const stored = parseAnchor(raw) ?? current();
    const next = skipAnchor(stored, Date.now(), toSimMs);
    if (!next) return false;
    if ((await runCompareAndSet(redis(), k, raw ?? '', JSON.stringify(next))) === 1) {
      childLogger({ component: 'world-clock' }).info(
        { from: new Date(simAt(stored, Date.now())).toISOString(), to: new Date(toSimMs).toISOString() },
        'simulated clock skipped a stretch with nothing to poll',
      );
      held().anchor = next;
      return true;
    }
  }
  return false;
}

/** Loads the anchor and follows it (another process may start it over, e.g. a season ahead). */
export async function startWorldClock(): Promise<{ name: string; stop: () => Promise<void> }> {
  await syncWorldClock();
  if (!isRealTime(clockSettings())) {
    timer = setInterval(() => void syncWorldClock().catch(() => undefined), REFRESH_MS);
    timer.unref();
  }
  return {
    name: 'world-clock',
    stop: async () => {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/** The real instant at which the world showed a simulated one (under the current anchor). */
export function toRealTime(worldMs: number): number {
  const a = current();
  return a.realMs + (worldMs - a.simMs) / a.speed;
}
