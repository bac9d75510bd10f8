import { createHash } from 'node:crypto';
import type { RedisClient } from './redis';
import { errorMessage } from '../errorFields';

type Arg = string | number | Buffer;

/**
 * A Lua script run by its SHA-1 (EVALSHA), loaded on first use (EVAL after NOSCRIPT, also after a
 * Redis restart): a request's scripts cost a few bytes each, not their source. Measured on the
 * metered hot path: sending the sources with every EVAL was an eighth of the API's CPU.
 */
export function luaScript(source: string, numberOfKeys: number): (client: RedisClient, ...keysThenArgs: Arg[]) => Promise<unknown> {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (client, ...keysThenArgs) => {
    try {
      return await client.evalsha(sha, numberOfKeys, ...keysThenArgs);
    } catch (err) {
      if (!/NOSCRIPT/.test(errorMessage(err))) throw err;
      return client.eval(source, numberOfKeys, ...keysThenArgs);
    }
  };
}
