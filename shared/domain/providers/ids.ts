/**
 * Stable identifiers derived from names: the same provider event, team or competition gets the
 * same id on every poll and in every worker, with no lookup table to share.
 */

/** FNV-1a, 32 bits. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 52 bits from two independent 32-bit hashes: collision-free in practice for our volumes. */
function hash52(text: string): number {
  const hi = hash32(text) & 0xfffff;
  const lo = hash32(`${text.length}:${text}:salt`);
  return hi * 0x100000000 + lo;
}

/** An integer in [min, max) from a text key. */
export function hashInt(text: string, min: number, max: number): number {
  return min + (hash52(text) % (max - min));
}

/** Lower-case, accent-free, single-spaced: what team search compares. */
export function searchName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** A team's id: the same team name in the same sport is the same team, whichever provider. */
export function teamId(sportId: number, name: string): number {
  return hashInt(`team|${sportId}|${searchName(name)}`, 10_000_000, 9_000_000_000_000);
}

/** An event id for a provider's own event id: numeric, so `<id>-<slug>` stays parseable. */
export function providerEventId(provider: string, sourceId: string): string {
  return String(hashInt(`event|${provider}|${sourceId}`, 100_000_000_000_000, 900_000_000_000_000));
}

/** Mixes integers into one 32-bit value (murmur3 finalizer steps). */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const v of values) {
    h ^= Math.imul(((v | 0) ^ (v / 4294967296)) | 0, 0xcc9e2d51);
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform in [0, 1) from a 32-bit value. */
export const unit = (h: number) => h / 4294967296;
