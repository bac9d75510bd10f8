/**
 * The layers of the house (docs/architecture.md, "The map of shared/"), checked by `npm run lint`:
 * - shared/domain: pure rules and types; imports only shared/domain (and npm packages that do no
 *   I/O: no store, queue, server or network package);
 * - shared/platform: adapters and platform (db, redis, providers, clock, config, logger, metrics,
 *   read models); imports shared/domain and shared/platform;
 * - shared/app: use cases (one per job and endpoint family); imports the two below, but not
 *   shared/platform/db (its stores are ports of its context, bound to the database in
 *   shared/platform/stores/), and jobs/ only through the dispatcher of intentions
 *   (shared/app/intents.ts);
 * - shared/research: offline research (the backtest); imports shared/domain and shared/platform;
 * - jobs/: the queues' definitions (names, payloads, options, job ids), importing nothing of the
 *   house: the platform's queue client (shared/platform/queues/) and the dispatcher of
 *   intentions import them, so every import runs downwards;
 * - api/, workers/, scripts/, bench/ and test/ sit on top.
 * No cycles anywhere, type-only imports included.
 */
const ABOVE_SHARED = '^(api|workers|jobs|scripts|bench|test)/';
const TESTS_STILL_ON_MODELS = '^test/(integration/db/ferretdb-indexes|unit/db/ferret-index-plan)[.]test[.]ts$';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'A cycle: one of these modules must stop importing the other.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'shared/domain imports only shared/domain: move the rule down, or return an intention for the caller to carry out.',
      from: { path: '^shared/domain/' },
      to: { path: `^shared/(platform|app|research)/|${ABOVE_SHARED}` },
    },
    {
      name: 'domain-has-no-io',
      severity: 'error',
      comment: 'shared/domain uses no store, queue, server or network package: those are platform.',
      from: { path: '^shared/domain/' },
      to: { path: '(^|node_modules/)(mongodb|mongoose|ioredis|bullmq|express|pino|opossum|node-cron|prom-client|@bull-board/[^/]+)(/|$)|^(net|http|https|child_process|dgram|cluster)$' },
    },
    {
      name: 'platform-below-app',
      severity: 'error',
      comment: 'shared/platform imports only shared/domain, shared/platform and the queue definitions of jobs/.',
      from: { path: '^shared/platform/' },
      to: { path: '^shared/(app|research)/|^(api|workers|scripts|bench|test)/' },
    },
    {
      name: 'jobs-are-definitions',
      severity: 'error',
      comment: 'jobs/ holds the queues\' definitions only: the connection, the enqueueing and the coalescing are the platform\'s (shared/platform/queues/), which imports jobs/, not the other way.',
      from: { path: '^jobs/' },
      to: { path: '^(shared|api|workers|scripts|bench|test)/' },
    },
    {
      name: 'app-below-entries',
      severity: 'error',
      comment: 'shared/app imports shared/domain, shared/platform and shared/app; jobs/ only through shared/app/intents.ts.',
      from: { path: '^shared/app/', pathNot: '^shared/app/intents[.]ts$' },
      to: { path: `^shared/research/|${ABOVE_SHARED}` },
    },
    {
      name: 'app-not-on-the-database',
      severity: 'error',
      comment: 'A use case reads and writes through the ports of its context (shared/app/<area>/ports.ts), bound to the database in shared/platform/stores/: import the port, not the repository.',
      from: { path: '^shared/app/' },
      to: { path: '^shared/platform/db/' },
    },
    {
      name: 'intents-dispatch-jobs-only',
      severity: 'error',
      comment: 'The dispatcher of intentions may reach jobs/, nothing above it.',
      from: { path: '^shared/app/intents[.]ts$' },
      to: { path: '^(api|workers|scripts|bench|test)/|^shared/research/' },
    },
    {
      name: 'research-below-app',
      severity: 'error',
      comment: 'shared/research (the backtest) imports shared/domain and shared/platform.',
      from: { path: '^shared/research/' },
      to: { path: `^shared/app/|${ABOVE_SHARED}` },
    },
    {
      name: 'models-only-in-the-data-layer',
      severity: 'error',
      comment: 'Only shared/platform/db reads and writes models; everything else goes through a repository.',
      from: { pathNot: `^shared/platform/db/|${TESTS_STILL_ON_MODELS}` },
      to: { path: '^shared/platform/db/models/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|clients/.*/node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
