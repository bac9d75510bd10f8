import Ajv from 'ajv';
import { DEVIG_METHODS } from '../domain/ai/devig';

/**
 * The one reader of process.env. Every variable is declared here with its type, default and
 * rule, validated once at start; a bad value stops the process naming the variable.
 */
const PROVIDER_NAMES = ['simulated', 'theoddsapi', 'replay'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

interface VarSpec {
  type: 'string' | 'integer' | 'boolean' | 'list';
  default?: string;
  description: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  secret?: boolean;
}

/** An integer variable: its default (as the environment would spell it), its bounds and what it does. */
const integer = <D extends string>(defaultValue: D, minimum: number, maximum: number, description: string) => ({ type: 'integer' as const, default: defaultValue, minimum, maximum, description });

export const CONFIG_VARS = {
  NODE_ENV: {
    type: 'string',
    default: 'development',
    enum: ['development', 'production', 'test'],
    description: 'Runtime mode: the Procfile runs every process with production (which refuses PAYMENT_GATEWAY=test); npm start runs development, npm test test.',
  },
  HOST: { type: 'string', default: '0.0.0.0', description: 'Interface the web process listens on.' },
  PORT: integer('3000', 0, 65535, 'HTTP port of the web process (0 = any free port).'),
  PUBLIC_URL: {
    type: 'string',
    default: '',
    pattern: '^(https?://.+)?$',
    description: 'Base URL printed at start (default http://localhost:PORT) and written into the OpenAPI servers list (default: the origin each request used).',
  },
  MONGODB_URI: { type: 'string', default: 'mongodb://127.0.0.1:27017', pattern: '^mongodb(\\+srv)?://.+', description: 'MongoDB (or FerretDB) connection string.' },
  FERRETDB_POSTGRES_URL: {
    type: 'string',
    default: '',
    pattern: '^(postgres(ql)?://.+)?$',
    secret: true,
    description:
      "FerretDB's PostgreSQL database, set by the local bootstrap when MONGODB_URI is FerretDB on PostgreSQL: the data layer adds there the indexes FerretDB's SQL can use. Unset on MongoDB.",
  },
  FERRETDB_VACUUM_MS: integer(
    '10000',
    0,
    3600000,
    "How often the scheduler vacuums FerretDB's PostgreSQL tables that autovacuum's rule says are due (0 = never; only with FERRETDB_POSTGRES_URL). Every FerretDB update leaves a dead row, and the server's autovacuum may be off.",
  ),
  MONGODB_DB: { type: 'string', default: 'odds', pattern: '^[A-Za-z0-9_-]{1,60}$', description: 'Database name.' },
  REDIS_URL: { type: 'string', default: 'redis://127.0.0.1:6379', pattern: '^rediss?://.+', description: 'Redis for queues, caches and counters.' },
  REDIS_CLUSTER_NODES: {
    type: 'list',
    default: '',
    pattern: '^[A-Za-z0-9_.-]+:\\d{1,5}$',
    description:
      'Seed nodes of a Redis Cluster (host:port, comma-separated): when set, every process runs on the cluster and REDIS_URL is ignored. Queues and multi-key scripts keep their keys in one hash slot each (docs/architecture.md, Redis keys).',
  },
  REDIS_PREFIX: { type: 'string', default: 'odds', pattern: '^[A-Za-z0-9_-]{1,40}$', description: 'Prefix of every Redis key and queue (lets several deployments or test runs share one Redis).' },
  LOG_LEVEL: { type: 'string', default: 'info', enum: LOG_LEVELS, description: 'pino log level.' },
  PROVIDERS: { type: 'list', default: 'simulated', enum: PROVIDER_NAMES, description: 'Odds providers to poll, comma-separated; the first is the default dataSource.' },
  POLL_INTERVAL_MS: integer('30000', 1000, 3600000, 'Provider poll interval.'),
  SIM_SEED: integer('42', 0, 2147483647, 'Seed of the simulated provider.'),
  SIM_SPEED: integer('1', 1, 100000, 'Simulated seconds per real second.'),
  SIM_SCENARIO: { type: 'string', default: '', description: 'Path of a scenario file that scripts the simulated provider exactly.' },
  SIM_EPOCH: {
    type: 'string',
    default: '',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$',
    description:
      'Simulated instant the clock starts at; unset = the real time of the first start. Every process reads one shared anchor from Redis; a changed SIM_SPEED continues from the simulated instant reached, a changed SIM_EPOCH starts over, and simulated time never runs more than 180 days ahead of real time.',
  },
  SIM_DENSITY: integer('1', 1, 100, "Multiplier on the simulated fixtures per competition and day (capped by each competition's teams); load tests."),
  SIM_ROLLING_LIVE: integer(
    '4',
    0,
    50000,
    'Simulated events live at every instant beside the league calendars (slots of back-to-back matches, a kickoff every 2 h / N): the chain runs at any hour of the simulated day; larger for load tests, 0 for the calendars alone.',
  ),
  SIM_ROLLING_AHEAD: integer('3', 1, 36, 'Upcoming matches each SIM_ROLLING_LIVE slot shows ahead (2 simulated hours apart).'),
  REPLAY_DATA: {
    type: 'string',
    default: '',
    description: 'Folder of football-data.co.uk season files (E0_2223.csv, ...) the replay provider reads (required when PROVIDERS includes replay).',
  },
  REPLAY_SEASONS: {
    type: 'list',
    default: '',
    pattern: '^[A-Z0-9]{1,4}_\\d{4}$',
    description: 'Seasons the replay provider plays, comma-separated file names without .csv (E0_2223,SP1_2021); required when PROVIDERS includes replay.',
  },
  SETTLEMENT_DELAY_MS: integer('', 0, 86400000, 'Delay between an event ending and its settlement; unset = random 120000..300000.'),
  SETTLEMENT_CONCURRENCY: integer('64', 1, 1000, 'Settle jobs one settlement worker runs at once (they are graded together in batches).'),
  SETTLEMENT_SWEEP_MS: integer('60000', 1000, 3600000, 'How often the scheduler sweeps for ended events with unsettled bets (lost jobs, flushed Redis) and re-enqueues them.'),
  SETTLEMENT_LOCK_MS: integer('30000', 1000, 600000, 'Lock of a running settlement job; a job whose worker died is retried after about this long.'),
  LEDGER_CLAIM_IDLE_MS: integer('30000', 100, 3600000, 'How long a charge read by a ledger consumer stays unwritten before another consumer takes it over (a consumer that died).'),
  SHUTDOWN_TIMEOUT_MS: integer('25000', 100, 600000, 'How long a stopping worker lets active jobs finish before releasing them.'),
  ADMIN_USER: { type: 'string', default: '', description: 'Bull Board user (/admin/queues); the dashboard is off unless both user and password are set.' },
  ADMIN_PASSWORD: { type: 'string', default: '', secret: true, description: 'Bull Board password.' },
  ADMIN_QUEUE_ACTIONS: {
    type: 'boolean',
    default: 'false',
    description: 'Whether Bull Board may change the queues (retry, clean, add, promote, pause, obliterate); off: it only shows them.',
  },
  TRUST_PROXY: {
    type: 'string',
    default: '',
    pattern: '^(|loopback|linklocal|uniquelocal|[0-9]{1,2}|[0-9A-Fa-f.:/, ]+)$',
    description:
      "Express's trust proxy: which proxies' X-Forwarded-For and X-Forwarded-Proto are believed (loopback, a hop count, or addresses/CIDRs, comma-separated). Unset: none; the client address is the socket's and https is the socket's own.",
  },
  CACHE_TTL_S: integer('30', 0, 3600, 'Upper bound on the life of a cached API page (pages are also invalidated on data change).'),
  HOT_READS: {
    type: 'boolean',
    default: 'true',
    description:
      "Answers a live key's metered GET of a URL the router already answered from the page cache ahead of the router (its routing and validation skipped; key check, debit, versions and headers as on the routed path). false: every request goes through the router.",
  },
  CREDIT_BLOCKS: {
    type: 'boolean',
    default: 'true',
    description:
      "With HOT_READS: a web process takes a live key's requests in small blocks (rate tokens and their credits in one Redis step) and answers the reads it holds from memory, with no Redis round trip per request; what it spent is charged in batches every few milliseconds (docs/metering.md). false: every request is checked and debited on its own.",
  },
  BLOCK_RESERVE_CREDITS: integer(
    '1000',
    0,
    1000000000,
    'No credit block is taken from a balance below this: near the bottom every request is debited on its own, so the last credits are served and refused exactly.',
  ),
  THEODDSAPI_URL: { type: 'string', default: 'https://api.the-odds-api.com', pattern: '^https?://.+', description: 'The Odds API v4 base URL.' },
  THEODDSAPI_KEY: { type: 'string', default: '', secret: true, description: 'The Odds API key (required when PROVIDERS includes theoddsapi).' },
  THEODDSAPI_SPORTS: { type: 'list', default: 'soccer_epl,basketball_nba', description: 'The Odds API sport keys to poll, comma-separated (all = every active sport we carry; each costs quota).' },
  THEODDSAPI_REGIONS: { type: 'list', default: 'eu', description: 'The Odds API bookmaker regions (us, us2, uk, eu, au), comma-separated; each multiplies the quota cost.' },
  THEODDSAPI_QUOTA_RESERVE: integer('0', 0, 10000000, 'Requests of The Odds API quota never spent: polling stops when the remaining quota reaches it.'),
  PROVIDER_TIMEOUT_MS: integer('10000', 100, 120000, 'Per-call provider timeout (the request is aborted).'),
  AI_CONCURRENCY: integer(
    '3',
    1,
    256,
    'Analysis jobs one ai worker runs at once. They wait on the database: more only queue there and slow the polls (on FerretDB on 2 cores, 3 analyse as many per second as 8); raise it on MongoDB.',
  ),
  AI_NICE: integer(
    '0',
    0,
    19,
    'CPU priority the ai worker process gives up (its nice value, when it runs as a process of its own): an analysis has until kickoff, a poll and a read have seconds, and on a small host they share the cores. 0: the same priority as the others.',
  ),
  AI_YIELD_TO_POLL_MS: integer(
    '0',
    0,
    120000,
    "Per poll, how long the AI worker's jobs wait for the poll's writes to end before they start (0: never). For worlds whose polls write for seconds on a small machine (5,000 events on FerretDB on 2 cores: 15000 halved the median poll). Off by default: where polls write most of their interval (2 s polls under load) the analyses would wait most of the time.",
  ),
  PICKS_REBUILD_SPACING_MS: integer(
    '10000',
    0,
    3600000,
    "Real milliseconds a day's featured picks stay as rebuilt before the next rebuild of that day starts (analyses meanwhile are taken in by that one rebuild). A pick then lives long enough to be read and announced (`pick.created` finds it stored) instead of changing with every analysis. 0: a rebuild after every analysis's request.",
  ),
  AI_REANALYZE_MINUTES: integer(
    '120',
    0,
    10080,
    'Minutes of world time (simulated time under SIM_SPEED) between two analyses of an event that price moves ask for (each event waits this plus a share of up to half of it, fixed by its id, so events do not come due together), while its kickoff is further away than that; within it, and after a status or lineup change, every change is analysed at once. 0 = every price move.',
  ),
  REFIT_INTERVAL_MS: integer(
    '3600000',
    10000,
    86400000,
    "How often (real time) the scheduler asks for a refit of every sport's model, skipped when the world clock's hour has not changed since the last one: hourly in production; a replay at 3000x sets 60000 (a refit every two of its days).",
  ),
  AI_MIN_EDGE: integer('2', 0, 25, 'Minimum edge, in percent of the stake, for the AI worker to write a recommendation (and the default minEdge of /v2/ai/value-opportunities).'),
  AI_DEVIG: {
    type: 'string',
    default: 'shin',
    enum: DEVIG_METHODS,
    description:
      "How the AI worker takes the bookmaker's margin out of a price (the sharp book's fair price and the other books' consensus): shin (Shin's insider model, which corrects the favourite-longshot bias; where it has no answer, power, then proportional), power (each implied probability raised to one power), or proportional (1/odds over their sum). An event is analysed again at its next price move after a change.",
  },
  RATE_LIMIT_LIVE_RPS: integer('20', 1, 1000000, 'Requests per second allowed to one live key (bursts up to twice that).'),
  ACCOUNT_RATE_LIMIT_RPS: integer(
    '0',
    0,
    1000000,
    'Requests per second allowed to all keys of one account together (bursts up to twice that): more keys do not buy more rate. 0: two and a half times RATE_LIMIT_LIVE_RPS.',
  ),
  TEST_KEY_DAILY_REQUESTS: integer('1000', 0, 100000000, 'Requests the test keys of one account may make per UTC day, together (429 past it); live data at volume needs a live key.'),
  TEST_KEY_SNAPSHOT_S: integer(
    '300',
    0,
    86400,
    "The test keys' delay, in seconds: every answer a test key gets shows data at least this old, per data version, not per URL (its Age header tells how old; an answer with no data that old yet is a 503 test_data_pending with Retry-After): test keys see the real shapes, not a live feed. 0: test keys read live answers.",
  ),
  SIGNUP_PER_ADDRESS_PER_HOUR: integer('5', 1, 1000000, 'Sign-ups one client address may attempt per hour (429 past it).'),
  ACCOUNT_API_PER_ADDRESS_PER_MINUTE: integer('120', 1, 1000000, 'Requests one client address may make to /v2/account per minute (429 past it).'),
  RATE_LIMIT_TEST_RPS: integer('2', 1, 1000000, 'Requests per second allowed to one test key (bursts up to twice that).'),
  PAYMENT_GATEWAY: {
    type: 'string',
    default: 'test',
    enum: ['test', 'stripe', 'none'],
    description:
      "Gateway that charges purchases and auto-recharges: test (built in, Stripe's test cards, charges nothing real: what it sells is test credits, which only test keys see; refused with NODE_ENV=production), stripe, or none (this deployment sells nothing: purchases, payment methods and auto-recharge answer 403).",
  },
  STRIPE_API_URL: { type: 'string', default: 'https://api.stripe.com', pattern: '^https?://.+', description: 'Stripe API base URL.' },
  STRIPE_SECRET_KEY: { type: 'string', default: '', secret: true, description: 'Stripe secret key (required when PAYMENT_GATEWAY is stripe).' },
  AUTO_RECHARGE_MAX_PER_DAY: integer('3', 1, 100, 'Auto-recharge charges one account may be made in any 24 hours (declines included); past it the recharge waits until the oldest leaves the window.'),
  PAYMENT_TIMEOUT_MS: integer('10000', 100, 60000, 'Per-call payment gateway timeout (the request is aborted).'),
  PROVIDER_BREAKER_RESET_MS: integer('30000', 100, 3600000, 'How long an open provider circuit breaker waits before one trial call (half-open).'),
  PROVIDER_BREAKER_VOLUME: integer('3', 1, 1000, 'Failed-or-not calls in the rolling window before the error rate may open a provider breaker.'),
  CHANGE_FEED_RETENTION_MS: integer(
    '3600000',
    600000,
    604800000,
    'How long (real time) the change feed (the Redis stream {feed}:changes) keeps an entry: each publish trims older ones (whole stream nodes, so a few stay a little longer). At least 10 minutes, the resume window push delivery promises; CHANGE_FEED_MAXLEN may trim sooner, so size it above what this window holds.',
  ),
  CHANGE_FEED_MAXLEN: integer('200000', 1000, 10000000, 'Entries the change feed keeps at most (about: whole stream nodes), whatever their age; each publish trims the oldest beyond it.'),
  STREAM_RESUME_WINDOW_MS: integer(
    '900000',
    600000,
    604800000,
    'How far back (real time) GET /v2/stream resumes exactly from a Last-Event-ID; an older id gets snapshot_required. At most CHANGE_FEED_RETENTION_MS (docs/stream.md).',
  ),
  STREAM_HEARTBEAT_MS: integer('15000', 100, 300000, 'How often an idle GET /v2/stream connection gets a heartbeat comment (its connection slot is refreshed then too).'),
  STREAM_MAX_PENDING: integer(
    '1000',
    1,
    1000000,
    'Merged messages a GET /v2/stream connection that reads too slowly may have pending; past it the stream ends with snapshot_required (slow_consumer).',
  ),
  STREAM_SLOW_READER_MS: integer(
    '60000',
    1000,
    3600000,
    'How long a GET /v2/stream reader may stay behind the live feed (its socket full and not caught up since) before what it has not read is merged per event and kind (messages marked conflated); until then every entry is a message of its own.',
  ),
  STREAM_MAX_CONNECTIONS_LIVE: integer('5', 1, 100000, 'Concurrent GET /v2/stream connections one live key may hold, across every web process (429 past it).'),
  STREAM_MAX_CONNECTIONS_TEST: integer('2', 1, 100000, 'Concurrent GET /v2/stream connections one test key may hold, across every web process (429 past it).'),
  STREAM_BILLING_INTERVAL_MS: integer(
    '60000',
    100,
    3600000,
    'The metering period of GET /v2/stream: its cost is debited at open and at the start of each further period, and the key is checked again then (a revoked key ends the stream). The cost table prices a minute: change it only for tests.',
  ),
  STREAM_POLL_MS: integer('100', 10, 5000, 'How often the one change feed reader of a web process reads new entries while a stream is open (it fans them out to the streams of that process).'),
  WEBHOOK_ALLOW_PRIVATE: {
    type: 'boolean',
    default: 'false',
    description:
      'Lets webhook endpoints name or resolve to loopback, private, link-local and metadata addresses (checked when an endpoint is saved and at every attempt). Only for local use and tests: a deployment that allows them lets any account make the service call its own network.',
  },
  WEBHOOK_MAX_ENDPOINTS: integer('10', 1, 1000, 'Webhook endpoints one account may hold (409 past it).'),
  WEBHOOK_TIMEOUT_MS: integer('15000', 100, 60000, 'How long one webhook attempt may take, from the connection to the end of the answer; past it the attempt failed (timeout) and is retried.'),
  WEBHOOK_RETRY_SCHEDULE_MS: {
    type: 'string',
    default: '5000,300000,1800000,7200000,18000000,36000000,36000000',
    pattern: '^\\d{1,9}(,\\d{1,9}){0,19}$',
    description:
      'The delays (ms, comma-separated) before each retry of a failed webhook attempt: the default is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts over 27.6 hours). Each delay 1 ms to 7 days, at most 20.',
  },
  WEBHOOK_DISABLE_AFTER_FAILURES: integer(
    '20',
    1,
    100000,
    'A webhook endpoint is turned off once this many attempts in a row have failed and the first of them is WEBHOOK_DISABLE_AFTER_MS old (both).',
  ),
  WEBHOOK_DISABLE_AFTER_MS: integer(
    '432000000',
    0,
    7776000000,
    'How long (5 days by default) a webhook endpoint must have failed every attempt, WEBHOOK_DISABLE_AFTER_FAILURES of them at least, before it is turned off.',
  ),
  WEBHOOK_CONCURRENCY: integer('16', 1, 1000, 'Webhook attempts one settlement process makes at once (they wait on the receivers: the attempts spread over every settlement process).'),
  WEBHOOK_FEED_POLL_MS: integer('500', 10, 60000, 'How often the webhook fan-out reads new entries of the change feed (recommendations stored, events settled).'),
  WEBHOOK_SWEEP_MS: integer('60000', 1000, 3600000, 'How often the webhook sweep runs: attempts whose job was lost are queued again, and low balances are checked for balance.low.'),
  WEBHOOK_BALANCE_LOW_CREDITS: integer('1000', 1, 1000000000, 'The live balance under which balance.low is sent to an account without auto-recharge (with auto-recharge on: its threshold).'),
  METRICS_PUBLISH_MS: integer('5000', 100, 300000, 'How often each process publishes its metrics to Redis for GET /metrics; a snapshot expires after 3 periods (a dead process drops out).'),
} as const satisfies Record<string, VarSpec>;

export type ConfigKey = keyof typeof CONFIG_VARS;

/** A variable's value: an integer without a default is undefined while unset. */
type ValueOf<S> = S extends { type: 'integer'; default: '' }
  ? number | undefined
  : S extends { type: 'integer' }
    ? number
    : S extends { type: 'boolean' }
      ? boolean
      : S extends { type: 'list' }
        ? string[]
        : S extends { enum: readonly (infer E extends string)[] }
          ? E
          : string;

type Values = { readonly [K in ConfigKey]: ValueOf<(typeof CONFIG_VARS)[K]> };

const isConfigKey = (name: string): name is ConfigKey => Object.hasOwn(CONFIG_VARS, name);

export type Config = Values & {
  readonly settlementDelayMs: () => number;
};

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

const ajv = new Ajv({ allErrors: false });

function fieldSchema(spec: VarSpec): object {
  switch (spec.type) {
    case 'integer':
      return { type: 'integer', minimum: spec.minimum, maximum: spec.maximum };
    case 'boolean':
      return { type: 'boolean' };
    case 'list':
      return { type: 'array', items: spec.enum ? { enum: spec.enum } : { type: 'string', ...(spec.pattern ? { pattern: spec.pattern } : {}) }, minItems: 1, uniqueItems: true };
    default:
      return {
        type: 'string',
        ...(spec.enum ? { enum: spec.enum } : {}),
        ...(spec.pattern ? { pattern: spec.pattern } : {}),
      };
  }
}

function coerce(name: string, spec: VarSpec, raw: string): unknown {
  switch (spec.type) {
    case 'integer': {
      if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(name, `must be an integer (got "${raw}")`);
      return Number(raw);
    }
    case 'boolean':
      if (!['true', 'false', '1', '0'].includes(raw)) throw new ConfigError(name, `must be true or false (got "${raw}")`);
      return raw === 'true' || raw === '1';
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    default:
      return raw;
  }
}

function describeRule(spec: VarSpec): string {
  if (spec.enum) return `must be ${spec.type === 'list' ? 'a comma list of' : 'one of'} ${spec.enum.join(', ')}`;
  if (spec.type === 'integer') return `must be an integer between ${spec.minimum} and ${spec.maximum}`;
  if (spec.pattern) return `must match ${spec.pattern}`;
  return 'is invalid';
}

/** Pure: validates an environment map. Throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries<VarSpec>(CONFIG_VARS)) {
    const raw = env[name] === undefined || env[name] === '' ? spec.default : env[name];
    if (raw === undefined || raw === '') {
      out[name] = spec.type === 'integer' ? undefined : spec.type === 'list' ? [] : '';
      continue;
    }
    const value = coerce(name, spec, raw);
    if (!ajv.validate(fieldSchema(spec), value)) {
      throw new ConfigError(name, `${describeRule(spec)} (got "${spec.secret ? '***' : raw}")`);
    }
    out[name] = value;
  }
  // Every variable was read by its spec's type and checked against its schema just above: the
  // one place the loop's values meet their declared types.
  const values = out as Values;
  if (Boolean(values.ADMIN_USER) !== Boolean(values.ADMIN_PASSWORD)) {
    throw new ConfigError(values.ADMIN_USER ? 'ADMIN_PASSWORD' : 'ADMIN_USER', 'must be set together with its pair (or both left unset)');
  }
  if (values.PROVIDERS.includes('theoddsapi') && !values.THEODDSAPI_KEY) {
    throw new ConfigError('THEODDSAPI_KEY', 'is required when PROVIDERS includes theoddsapi');
  }
  if (values.PROVIDERS.includes('replay')) {
    if (!values.REPLAY_DATA) throw new ConfigError('REPLAY_DATA', 'is required when PROVIDERS includes replay (a folder of football-data.co.uk season files)');
    if (!values.REPLAY_SEASONS.length) throw new ConfigError('REPLAY_SEASONS', 'is required when PROVIDERS includes replay (e.g. E0_2223,SP1_2021)');
  }
  // Credits bought through the test gateway cost nothing: a production deployment either sells for real or not at all.
  if (values.PAYMENT_GATEWAY === 'test' && values.NODE_ENV === 'production') {
    throw new ConfigError(
      'PAYMENT_GATEWAY',
      'is test, which grants credits without charging anyone: with NODE_ENV=production set stripe (and STRIPE_SECRET_KEY), or none for a deployment that sells nothing',
    );
  }
  if (values.PAYMENT_GATEWAY === 'stripe' && !values.STRIPE_SECRET_KEY) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'is required when PAYMENT_GATEWAY is stripe');
  }
  if (values.STREAM_RESUME_WINDOW_MS > values.CHANGE_FEED_RETENTION_MS) {
    throw new ConfigError(
      'STREAM_RESUME_WINDOW_MS',
      `must be at most CHANGE_FEED_RETENTION_MS (${values.CHANGE_FEED_RETENTION_MS}): a stream cannot resume from entries the change feed no longer keeps`,
    );
  }
  const fixedDelay = values.SETTLEMENT_DELAY_MS;
  return Object.freeze({ ...values, settlementDelayMs: () => fixedDelay ?? 120000 + Math.floor(Math.random() * 180001) });
}

let cached: Config | undefined;

/** The process's configuration, read from the environment once. */
export function getConfig(): Config {
  cached ??= loadConfig(process.env);
  return cached;
}

/**
 * For the entry points: reads the configuration, or prints the error naming the variable and
 * exits non-zero before anything connects.
 */
export function getConfigOrExit(): Config {
  try {
    return getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

/** Test and bootstrap scripts only: apply overrides and forget the cached configuration. */
export function setEnvForChildren(values: Record<string, string>): void {
  for (const [k, v] of Object.entries(values)) process.env[k] = v;
  cached = undefined;
}

/**
 * Tests only: the variables as they are now, and what puts them back exactly (a test file then
 * starts from the run's settings, whatever the files before it in the same process set).
 */
export function envSnapshot(): () => void {
  const saved = { ...process.env };
  return () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    for (const [k, v] of Object.entries(saved)) process.env[k] = v;
    cached = undefined;
  };
}

/**
 * Tests only: sets variables for one test file and returns what puts them back (the mocha run is
 * one process, so a file's settings would otherwise reach every file after it).
 */
export function overrideEnv(values: Record<string, string>): () => void {
  const restore = envSnapshot();
  setEnvForChildren(values);
  return restore;
}

/** Names of variables whose values must never be logged. */
export const SECRET_VARS: ConfigKey[] = Object.entries<VarSpec>(CONFIG_VARS)
  .filter(([, s]) => s.secret)
  .map(([k]) => k)
  .filter(isConfigKey);

/**
 * The variables only the local bootstrap reads (scripts/services.ts, through bootstrapEnv below),
 * with what each does: documented beside CONFIG_VARS in docs/configuration.md.
 */
export const BOOTSTRAP_VARS = {
  POSTGRES_URL: 'A PostgreSQL server FerretDB stores in, tried first; FerretDB gets a database of its own on it.',
  FERRETDB_BACKEND: "sqlite forces FerretDB's SQLite backend; postgresql fails instead of falling back to SQLite.",
  XDG_CACHE_HOME: 'Where the FerretDB binary built by the bootstrap is cached (default ~/.cache).',
  LOCAL_SERVICES_DIR:
    'The record, leases, data and logs in that directory instead of .local, with servers of its own (REDIS_URL, 127.0.0.1:6379 and MONGODB_URI are ignored): tests use it to run npm start apart.',
} as const;

/** Bootstrap-only settings (scripts/services.ts), read here so process.env stays in one module. */
export function bootstrapEnv(): {
  mongodbUri?: string;
  redisUrl?: string;
  ferretBackend?: string;
  postgresUrl?: string;
  cacheHome?: string;
  /** LOCAL_SERVICES_DIR: the bootstrap's directory (record, leases, data, logs) instead of .local, with servers of its own. */
  servicesDir?: string;
  /** npm_lifecycle_event: the npm script this process runs under (`start`), when npm started it. */
  npmScript?: string;
  ci: boolean;
  all: NodeJS.ProcessEnv;
} {
  return {
    cacheHome: process.env.XDG_CACHE_HOME || undefined,
    all: process.env,
    mongodbUri: process.env.MONGODB_URI || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    ferretBackend: process.env.FERRETDB_BACKEND || undefined,
    postgresUrl: process.env.POSTGRES_URL || undefined,
    servicesDir: process.env.LOCAL_SERVICES_DIR || undefined,
    npmScript: process.env.npm_lifecycle_event || undefined,
    ci: Boolean(process.env.CI),
  };
}
