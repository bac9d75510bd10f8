/**
 * What this process keeps in memory about the stores (memos of what it wrote, cached ledger heads,
 * kept figures, the page cache's memory tier, the simulated clock's anchor) lives in one scope per
 * process. Each keeper declares its slot with `processMemo`, created empty on first use; renewing
 * the scope (`renewProcessScope`: a test file that gets stores of its own, a bench that wipes them)
 * empties every slot at once, so no keeper needs a reset hook of its own and none can be forgotten.
 */
let generation = 0;

export interface ProcessMemo<T> {
  /** The slot's value in the current scope (created by its factory on the first call after a renewal). */
  (): T;
}

export function processMemo<T>(create: () => T): ProcessMemo<T> {
  let held: { value: T; bornIn: number } | undefined;
  return () => {
    if (held?.bornIn !== generation) held = { value: create(), bornIn: generation };
    return held.value;
  };
}

/** Starts a new scope: every memo of this process is created afresh on its next use. */
export function renewProcessScope(): void {
  generation++;
}
