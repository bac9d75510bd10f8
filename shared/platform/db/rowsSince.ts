import { luaScript } from './luaScript';
import type { RedisClient } from './redis';

/**
 * The read step of the read models kept as rows with a write sequence (the value opportunities,
 * the betting recommendations): KEYS rows (hash id -> row), seq, changes (id scored by the number
 * of its last write), valid (the generation the rows are complete at). A reader gives the
 * generation and number it last saw and gets every row when the generation moved, else only the
 * rows written since; null while no generation is valid (the caller rebuilds).
 */
const READ = luaScript(
  `
local gen = redis.call('GET', KEYS[4])
if not gen then return 0 end
local seq = redis.call('GET', KEYS[2]) or '0'
if gen ~= ARGV[1] then return {gen, seq, 1, redis.call('HGETALL', KEYS[1])} end
local out = {}
if seq ~= ARGV[2] then
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '(' .. ARGV[2], '+inf')) do
    out[#out + 1] = id
    out[#out + 1] = redis.call('HGET', KEYS[1], id) or ''
  end
end
return {gen, seq, 0, out}
`,
  4,
);

export interface RowsSince {
  gen: string;
  seq: string;
  /** Every row (the generation moved), not only those written since. */
  whole: boolean;
  /** id, row JSON, id, row JSON, ... (an empty row: none stored). */
  flat: string[];
}

export async function readRowsSince(client: RedisClient, keys: readonly string[], gen: string, seq: string): Promise<RowsSince | null> {
  const out: unknown = await READ(client, ...keys, gen, seq);
  if (out === 0) return null;
  if (!Array.isArray(out)) throw new TypeError('unexpected read-model reply');
  const reply: unknown[] = out;
  const [g, s, whole, flat] = reply;
  if (typeof g !== 'string' || typeof s !== 'string' || typeof whole !== 'number' || !Array.isArray(flat)) throw new TypeError('unexpected read-model reply');
  const items: unknown[] = flat;
  return { gen: g, seq: s, whole: whole === 1, flat: items.map(String) };
}
