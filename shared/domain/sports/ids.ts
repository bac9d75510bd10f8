/**
 * The sports the service carries, by id. The ids are part of the public API contract (served as
 * each event's sportId): never renumber. A new sport is a new id here and its definition in the
 * registry (registry.ts); every table keyed by SportId then fails to compile until it is given
 * its piece.
 */
export const SPORT_IDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

export type SportId = (typeof SPORT_IDS)[number];

const KNOWN: ReadonlySet<number> = new Set(SPORT_IDS);

/** Whether a stored or requested number names a sport the service carries. */
export function isSportId(id: number): id is SportId {
  return KNOWN.has(id);
}
