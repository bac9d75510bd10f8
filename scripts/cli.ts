/**
 * Operator CLI: `npm run cli -- <command> [options]` (`--json` for machine-readable output).
 * Parses and prints only; the logic is in shared/app/billing and shared/app/settlement.
 */
import '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closeQueues } from '../shared/platform/queues/client';
import { BillingInputError } from '../shared/domain/billing/errors';
import { accountSummary, addCredits, clearAutoRecharge, createAccount, createKey, listKeys, revokeKey, setAutoRecharge } from '../shared/app/billing/accounts';
import { demoKey } from './demoKey';
import { checkLedger } from '../shared/app/billing/ledgerCheck';
import type { KeyMode } from '../shared/domain/billing/keys';
import { bootstrapEnv, getConfigOrExit, setEnvForChildren } from '../shared/platform/config';
import { checkPerformance, performanceCheckPassed, type PerformanceCheck, type PerformanceMismatch } from '../shared/app/settlement/check';
import { processContext } from '../shared/app/processContext';
import { CorrectionInputError, correctResult, parseCorrection, STATS_OPTIONS, type CorrectionOutcome } from '../shared/app/settlement/correct';
import { startLocalServices } from './services';
import { MAX_PROOF_PATH } from '../shared/domain/commitments/chain';
import { downloadChain, remoteGetter, verifyRecord, type VerifyReport } from '../shared/app/commitments/verifyRemote';
import { breakdown, breakdownText, chainBets } from '../shared/domain/trackRecord/breakdown';

/** Where the API a user started answers: PUBLIC_URL, else this machine on PORT. */
const publicBase = () => getConfigOrExit().PUBLIC_URL.replace(/\/+$/, '') || `http://localhost:${getConfigOrExit().PORT}`;
import { connectMongo, disconnectMongo } from '../shared/platform/db/mongo';
import { closeAllRedis } from '../shared/platform/db/redis';
import { logToStderr } from '../shared/platform/logger';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

/** R is the result of run: human and failed are checked against it (see defineCommand). */
interface Command<R> {
  usage: string;
  options: Options;
  required?: string[];
  run(v: Values): Promise<R>;
  human(r: R): string;
  /** A word for the person at the terminal, on stderr: stdout stays the answer alone (`KEY=$(npm run -s cli -- demo-key)`). */
  note?(r: R): string;
  /** A result that reports a problem (a failed check) exits 1. */
  failed?(r: R): boolean;
  /** Talks to a running API only: no database, no local services. */
  remote?: boolean;
}

/** Types one entry of COMMANDS by its run's result; the table holds them with the result erased. */
const defineCommand = <R>(c: Command<R>): Command<unknown> => c;

class UsageError extends Error {}

const int = (name: string, raw: Values[string]): number => {
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number (got "${raw ?? ''}")`);
  return Number(raw);
};
const str = (v: Values, name: string) => v[name] as string;
const proofLimit = (raw: Values[string]): number => {
  const n = int('proof-limit', raw);
  if (n < 1 || n > MAX_PROOF_PATH) throw new UsageError(`--proof-limit must be from 1 to ${MAX_PROOF_PATH} (got "${raw as string}")`);
  return n;
};
/** Rows of scalars (the billing reads' flat rows): each printed as k=v, a missing value as '-'. */
const table = (rows: Record<string, string | number | boolean | Date | null | undefined>[]) =>
  rows.length === 0
    ? '(none)'
    : rows
        .map((r) =>
          Object.entries(r)
            .map(([k, v]) => `${k}=${v instanceof Date ? v.toISOString() : (v ?? '-')}`)
            .join('  '),
        )
        .join('\n');

const mismatchLines = (ms: PerformanceMismatch[]) => ms.map((m) => `  ${m.day} ${m.confidence} ${m.counter}: stored ${m.stored}, recomputed ${m.recomputed}`).join('\n');

function performanceHuman(r: PerformanceCheck): string {
  const ok = (c: Omit<PerformanceCheck, 'fixed'>) =>
    `performance OK: ${c.storedRollups} stored rollups over ${c.days} days equal the recomputation from ${c.settledRecommendations} settled recommendations`;
  if (r.equal) return ok(r);
  const lines = r.mismatches.length
    ? [`PERFORMANCE MISMATCH: ${r.mismatches.length} counters differ from the recomputation (${r.settledRecommendations} settled recommendations):`, mismatchLines(r.mismatches)]
    : [];
  if (r.invalidBets.length) {
    lines.push(`SETTLED BETS THAT CANNOT BE COUNTED (left out of the rollups; re-settle or repair them):`);
    lines.push(...r.invalidBets.map((b) => `  ${b.id}: ${b.problem}`));
  }
  if (r.fixed) {
    if (r.fixed.days.length) lines.push(`rewrote the rollups of ${r.fixed.days.join(', ')}`);
    lines.push(r.fixed.after.equal ? ok(r.fixed.after) : `STILL DIFFERENT after the fix:\n${mismatchLines(r.fixed.after.mismatches)}`);
  } else lines.push('run again with --fix to rewrite those days from the bets');
  return lines.join('\n');
}

function correctionHuman(r: CorrectionOutcome): string {
  if (!r.changed) return `event ${r.eventId} already has these values; resultVersion stays ${r.resultVersion}${r.jobId ? ` (not settled yet: ${r.jobId} enqueued)` : ''}`;
  const what = r.changes.map((c) => `${c.field} ${c.from ?? 'null'} -> ${c.to ?? 'null'}`).join(', ');
  return `event ${r.eventId} corrected (${what}); resultVersion ${r.previousVersion} -> ${r.resultVersion}; ${r.jobId} enqueued`;
}

const statsOptions = Object.fromEntries(Object.keys(STATS_OPTIONS).map((o) => [o, { type: 'string' as const }]));

const pendingLine = (n: number) =>
  n > 0 ? `; ${n} charges of served requests are on their way to it (the ledger consumer's backlog)` : n < 0 ? '; Redis not reachable: charges on their way not counted' : '';

const testLine = (testBalances: Record<string, number>) => {
  const n = Object.keys(testBalances).length;
  return n > 0 ? `, and the test credits of ${n} ${n === 1 ? 'account' : 'accounts'} to their test balance (a ledger apart)` : '';
};

/** Proves the ledger sums; `ledger-check` and `check-ledger` are one command. */
const checkLedgerCommand = defineCommand({
  usage: 'check-ledger (or ledger-check)',
  options: {},
  run: () => checkLedger(processContext()),
  failed: (r) => r.problems.length > 0,
  human: (r) =>
    r.problems.length === 0
      ? `ledger OK: ${r.accounts} accounts, ${r.entries} entries; every account's entries sum to its balance${testLine(r.testBalances)}${pendingLine(r.chargesPending)}`
      : `LEDGER MISMATCH:\n${r.problems.map((p: { accountId: string; problem: string }) => `  ${p.accountId}: ${p.problem}`).join('\n')}`,
});

const COMMANDS: Record<string, Command<unknown>> = {
  'create-account': defineCommand({
    usage: 'create-account --name <name> [--email <email>]',
    options: { name: { type: 'string' }, email: { type: 'string' } },
    required: ['name'],
    run: (v) => createAccount(processContext(), { name: str(v, 'name'), email: (v.email as string) ?? null }),
    human: (r) => `account ${r.id} (${r.name}) created with ${r.balance} free credits`,
  }),
  'create-key': defineCommand({
    usage: 'create-key --account <id> --name <name> [--mode live|test]',
    options: { account: { type: 'string' }, name: { type: 'string' }, mode: { type: 'string' } },
    required: ['account', 'name'],
    run: (v) => createKey(processContext(), { accountId: str(v, 'account'), name: str(v, 'name'), mode: (v.mode as string) ?? 'live' }),
    human: (r) => `key ${r.id} (${r.mode}, "${r.name}") for ${r.accountId}:\n\n  ${r.key}\n\nThis is the only time the key is shown; it is stored hashed.`,
  }),
  'list-keys': defineCommand({
    usage: 'list-keys --account <id>',
    options: { account: { type: 'string' } },
    required: ['account'],
    run: (v) => listKeys(processContext(), str(v, 'account')),
    human: (r) => table(r),
  }),
  'revoke-key': defineCommand({
    usage: 'revoke-key --key <keyId>',
    options: { key: { type: 'string' } },
    required: ['key'],
    run: (v) => revokeKey(processContext(), str(v, 'key')),
    human: (r) => (r.alreadyRevoked ? `key ${r.id} was already revoked (${r.revokedAt.toISOString()})` : `key ${r.id} revoked`),
  }),
  'add-credits': defineCommand({
    usage: 'add-credits --account <id> --package 20000|100000|500000|2000000',
    options: { account: { type: 'string' }, package: { type: 'string' } },
    required: ['account', 'package'],
    run: (v) => addCredits(processContext(), { accountId: str(v, 'account'), packageCredits: int('package', v.package) }),
    human: (r) => `added ${r.credits} credits to ${r.accountId} ($${(r.priceCents / 100).toFixed(2)}); balance ${r.balance}`,
  }),
  balance: defineCommand({
    usage: 'balance --account <id> [--days 30]',
    options: { account: { type: 'string' }, days: { type: 'string' } },
    required: ['account'],
    run: (v) => accountSummary(processContext(), str(v, 'account'), v.days === undefined ? 30 : int('days', v.days)),
    human: (r) =>
      [
        `${r.id} (${r.name}): balance ${r.balance} credits${r.testBalance ? `; test credits ${r.testBalance} (bought through the test gateway: test keys see them, nothing spends them)` : ''}`,
        `auto-recharge: ${r.autoRecharge.enabled ? `on, below ${r.autoRecharge.threshold} buy ${r.autoRecharge.packageCredits} with ${r.autoRecharge.paymentMethod}` : `off${r.autoRecharge.disabledReason ? ` (${r.autoRecharge.disabledReason})` : ''}`}`,
        `usage over ${r.usage.days} days:`,
        table(r.usage.endpoints),
        'recent recharges:',
        table(r.recharges),
      ].join('\n'),
  }),
  'set-auto-recharge': defineCommand({
    // Without --payment-method the account's saved one is charged. With it, the operator saves that
    // payment method on the account (--customer is then required when PAYMENT_GATEWAY=stripe).
    usage: 'set-auto-recharge --account <id> --threshold <credits> --package <credits> [--payment-method <pm_...> [--customer <cus_...>]]',
    options: { account: { type: 'string' }, threshold: { type: 'string' }, package: { type: 'string' }, 'payment-method': { type: 'string' }, customer: { type: 'string' } },
    required: ['account', 'threshold', 'package'],
    run: (v) =>
      setAutoRecharge(processContext(), {
        accountId: str(v, 'account'),
        threshold: int('threshold', v.threshold),
        packageCredits: int('package', v.package),
        ...(v['payment-method'] !== undefined ? { paymentMethod: str(v, 'payment-method'), customer: (v.customer as string | undefined) ?? null } : {}),
        operator: true,
      }),
    human: (r) => `auto-recharge on for ${r.accountId}: below ${r.threshold} credits buy ${r.packageCredits} with ${r.paymentMethod}${r.customer ? ` of ${r.customer}` : ''}`,
  }),
  'clear-auto-recharge': defineCommand({
    usage: 'clear-auto-recharge --account <id>',
    options: { account: { type: 'string' } },
    required: ['account'],
    run: (v) => clearAutoRecharge(processContext(), str(v, 'account')),
    human: (r) => `auto-recharge off for ${r.accountId}`,
  }),
  'check-ledger': checkLedgerCommand,
  'ledger-check': checkLedgerCommand,
  'check-performance': defineCommand({
    usage: 'check-performance [--fix]',
    options: { fix: { type: 'boolean' } },
    run: (v) => checkPerformance(processContext(), { fix: Boolean(v.fix) }),
    human: performanceHuman,
    failed: (r) => !performanceCheckPassed(r),
  }),
  'correct-result': defineCommand({
    usage: `correct-result --event <id> ${Object.keys(STATS_OPTIONS)
      .map((o) => `[--${o} n|null]`)
      .join(' ')} [--void true|false]`,
    options: { event: { type: 'string' }, ...statsOptions, void: { type: 'string' } },
    required: ['event'],
    run: (v) => correctResult(processContext(), parseCorrection(str(v, 'event'), v as Record<string, string | undefined>)),
    human: correctionHuman,
  }),
  'demo-key': defineCommand({
    usage: 'demo-key [--mode live|test]',
    options: { mode: { type: 'string' } },
    run: (v) => demoKey(processContext(), ((v.mode as string) ?? 'live') as KeyMode),
    human: (r) => r.key,
    note: (r) => `(demo account ${r.accountId}; try: curl -H "Authorization: Bearer ${r.key}" ${publicBase()}/v2/matches)`,
  }),
  'verify-record': defineCommand({
    usage: 'verify-record --url <base> --key <key> [--proofs 20] [--proof-limit 1000]',
    options: { url: { type: 'string' }, key: { type: 'string' }, proofs: { type: 'string' }, 'proof-limit': { type: 'string' } },
    required: ['url', 'key'],
    remote: true,
    run: (v) =>
      verifyRecord({
        url: str(v, 'url'),
        key: str(v, 'key'),
        proofs: v.proofs === undefined ? 20 : int('proofs', v.proofs),
        proofLimit: v['proof-limit'] === undefined ? undefined : proofLimit(v['proof-limit']),
      }),
    failed: (r) => !r.ok,
    human: verifyHuman,
  }),
  'record-breakdown': defineCommand({
    usage: 'record-breakdown --url <base> --key <key>',
    options: { url: { type: 'string' }, key: { type: 'string' } },
    required: ['url', 'key'],
    remote: true,
    run: async (v) => {
      const { links, head } = await downloadChain(remoteGetter(str(v, 'url'), str(v, 'key')));
      return { head, rows: breakdown(chainBets(links.map((l) => l.record))) };
    },
    human: (r) => breakdownText(r.head, r.rows),
  }),
};

function verifyHuman(r: VerifyReport): string {
  if (r.firstBad) return `CHAIN BROKEN at link ${r.firstBad.seq}: ${r.firstBad.problem}\n(${r.links} links downloaded)`;
  return `chain OK: ${r.links} links recompute to head ${r.head.hash} (length ${r.head.length}); ${r.publishedHeadsChecked} published heads and ${r.proofsChecked} proofs agree`;
}

function help(): string {
  return `usage: npm run cli -- <command> [options] [--json]\n\ncommands:\n${Object.values(COMMANDS)
    .map((c) => `  ${c.usage}`)
    .join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  let values: Values;
  try {
    values = parseArgs({ args: rest, options: { ...command.options, json: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
    for (const r of command.required ?? []) if (values[r] === undefined || values[r] === '') throw new UsageError(`--${r} is required`);
  } catch (err) {
    process.stderr.write(`${name}: ${(err as Error).message.replace(/^Unknown option/, 'unknown option')}\nusage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  const json = Boolean(values.json);
  logToStderr();
  if (command.remote) return runRemote(name, command, values, json);
  // Without MONGODB_URI the CLI works on the embedded default: the servers `npm start` runs
  // (recorded in .local/services.json), or servers it starts for this one command.
  const local = bootstrapEnv().mongodbUri ? undefined : await startLocalServices();
  if (local) setEnvForChildren(local.env);
  getConfigOrExit();
  try {
    await connectMongo();
    const result = await command.run(values);
    process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${command.human(result)}\n`);
    if (!json && command.note) process.stderr.write(`${command.note(result)}\n`);
    return command.failed?.(result) ? 1 : 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof BillingInputError || err instanceof CorrectionInputError) {
      const message = err instanceof UsageError ? err.message : `--${err.argument}: ${err.message.slice(err.argument.length + 2)}`;
      process.stderr.write(json ? `${JSON.stringify({ error: message })}\n` : `${name}: ${message}\nusage: npm run cli -- ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await closeQueues();
    await closeAllRedis();
    await disconnectMongo();
    await local?.stop();
  }
}

/** A command that only calls a running API: no configuration of this machine's stores is read. */
async function runRemote(name: string, command: Command<unknown>, values: Values, json: boolean): Promise<number> {
  try {
    const result = await command.run(values);
    process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : `${command.human(result)}\n`);
    if (!json && command.note) process.stderr.write(`${command.note(result)}\n`);
    return command.failed?.(result) ? 1 : 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${name}: ${err.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`${name} failed: ${(err as Error).message}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
