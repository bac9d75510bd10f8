import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createAccount, createKey } from '../shared/app/billing/accounts';
import type { AppContext } from '../shared/app/context';
import { BillingInputError } from '../shared/domain/billing/errors';
import { hashKey, KEY_MODES, type KeyMode } from '../shared/domain/billing/keys';

export const DEMO_ACCOUNT_ID = 'acct_demo';
const DEMO_KEY_FILE = join(resolve(__dirname, '..'), '.local', 'demo-key.json');

/**
 * A working key for the embedded default. The demo account is created once. Keys are stored only
 * hashed, so the demo key's plaintext is kept in .local/demo-key.json (gitignored, mode 0600, this
 * machine only) and printed again while it still works; otherwise a new one is made.
 */
export async function demoKey(ctx: AppContext, mode: KeyMode = 'live') {
  if (!KEY_MODES.includes(mode)) throw new BillingInputError('mode', 'must be live or test');
  if (!(await ctx.accounts.accountExists(DEMO_ACCOUNT_ID))) {
    await createAccount(ctx, { id: DEMO_ACCOUNT_ID, name: 'Demo account' }).catch((err: unknown) => {
      // Created concurrently by another demo-key.
      if (!(err instanceof BillingInputError && err.argument === 'id')) throw err;
    });
  }
  const scope = `${ctx.config.MONGODB_URI}/${ctx.config.MONGODB_DB}`;
  const saved = readSaved();
  const existing = saved[`${scope}|${mode}`];
  if (existing) {
    const doc = await ctx.accounts.findApiKeyByHash(hashKey(existing));
    if (doc && !doc.revokedAt && doc.accountId === DEMO_ACCOUNT_ID) return { accountId: DEMO_ACCOUNT_ID, id: doc._id, mode, key: existing, created: false };
  }
  const created = await createKey(ctx, { accountId: DEMO_ACCOUNT_ID, name: `demo (${mode})`, mode });
  saved[`${scope}|${mode}`] = created.key;
  mkdirSync(join(DEMO_KEY_FILE, '..'), { recursive: true });
  writeFileSync(DEMO_KEY_FILE, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return { accountId: DEMO_ACCOUNT_ID, id: created.id, mode, key: created.key, created: true };
}

function readSaved(): Record<string, string> {
  try {
    if (!existsSync(DEMO_KEY_FILE)) return {};
    const parsed: unknown = JSON.parse(readFileSync(DEMO_KEY_FILE, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
