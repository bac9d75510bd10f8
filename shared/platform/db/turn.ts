/**
 * Redis work of one turn of the event loop, sent together: each caller's commands are issued by
 * one callback once the turn's I/O has been read (setImmediate), so they join one auto-pipeline
 * (shared/platform/db/redis.ts) and travel in one write and one round trip. The shared client runs
 * one pipeline at a time: commands issued from separate callbacks would each wait for the one
 * before. A request's key check, the page cache's versions and the settlements of the requests
 * that closed meanwhile go out this way, so a metered request waits for one round trip, not two.
 */
const sends: (() => void)[] = [];
let scheduled = false;

function runSends(): void {
  scheduled = false;
  for (const send of sends.splice(0)) send();
}

/** Runs `send` at the end of this turn, with every other send of the turn. */
export function atTurnEnd(send: () => void): void {
  sends.push(send);
  if (scheduled) return;
  scheduled = true;
  setImmediate(runSends);
}
