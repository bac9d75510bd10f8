import { createHash } from 'node:crypto';
import type { RedisClient } from './redis';
import { errorMessage } from '../errorFields';

type Arg = string | number | Buffer;
/**
 * A script's keys and arguments; a list stands for its items in place. Long lists go as lists: a
 * spread of a few hundred thousand arguments overflows the call stack (the first poll of a
 * 5,000-event world did), while the client flattens a list without the stack.
 */
type ScriptArg = Arg | readonly Arg[];
const isList = (a: ScriptArg): a is readonly Arg[] => Array.isArray(a);

/**
 * A Lua script run by its SHA-1 (EVALSHA), loaded on first use (EVAL after NOSCRIPT, also after a
 * Redis restart): a request's scripts cost a few bytes each, not their source. Measured on the
 * metered hot path: sending the sources with every EVAL was an eighth of the API's CPU.
 */
/**
 * A script's reply as Redis returns a Lua table: integers and strings (a missing field ends the
 * table). Anything else means the script and its caller disagree: it throws, naming the reply.
 */
export function replyList(reply: unknown): (number | string)[] {
  if (!Array.isArray(reply) || !reply.every((x): x is number | string => typeof x === 'number' || typeof x === 'string')) {
    throw new Error(`unexpected script reply: ${JSON.stringify(reply)}`);
  }
  return reply;
}

/** A script's reply of integers (a numeric string counts as its number). */
export const replyNumbers = (reply: unknown): number[] => replyList(reply).map(Number);

export function luaScript(source: string, numberOfKeys: number): (client: RedisClient, ...keysThenArgs: ScriptArg[]) => Promise<unknown> {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (client, ...keysThenArgs) => {
    const args: (string | Buffer)[] = [];
    const add = (a: Arg) => args.push(typeof a === 'number' ? String(a) : a);
    for (const a of keysThenArgs) {
      if (isList(a)) for (const item of a) add(item);
      else add(a);
    }
    try {
      return await client.evalsha(sha, numberOfKeys, args);
    } catch (err) {
      if (!/NOSCRIPT/.test(errorMessage(err))) throw err;
      return client.eval(source, numberOfKeys, args);
    }
  };
}
