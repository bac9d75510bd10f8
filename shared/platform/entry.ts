import { ConfigError, getConfig } from './config';

/**
 * Imported FIRST by every entry point (scripts/*, workers/*, bench/*): checks the environment
 * before any other module runs code at import (a logger made at import reads LOG_LEVEL, and a
 * ConfigError thrown there would end as a stack trace and exit 1). A bad variable ends the
 * process with one line naming it and exit code 78 (EX_CONFIG), before anything connects.
 */
export const EX_CONFIG = 78;

const isConfigError = (err: unknown): err is ConfigError => err instanceof ConfigError || (err instanceof Error && err.name === 'ConfigError' && 'variable' in err);

function exitWithConfigError(err: ConfigError): never {
  process.stderr.write(`Configuration error: ${err.message}\n`);
  process.exit(EX_CONFIG);
}

/**
 * For an entry's top-level catch: a ConfigError is the one configuration line and 78; anything
 * else is `label: message` and exit 1.
 */
export function failEntry(label: string, err: unknown): never {
  if (isConfigError(err)) exitWithConfigError(err);
  process.stderr.write(`${label}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

// The safety net: a configuration read later (a variable changed by the bootstrap, a lazy
// getConfig() in a callback) still ends as the one line. Anything else keeps Node's own
// behaviour for an uncaught error: the stack on stderr and exit 1.
function onUncaught(err: unknown): void {
  if (isConfigError(err)) exitWithConfigError(err);
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : `Uncaught ${String(err)}`}\n`);
  process.exit(1);
}

// Only as the main module's own import: a test that imports a worker module keeps mocha's
// handling of uncaught errors and its own configuration.
const importedByMain = !require.main || require.main.children.includes(module);

if (importedByMain) {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  try {
    getConfig();
  } catch (err) {
    if (isConfigError(err)) exitWithConfigError(err);
    throw err;
  }
}
