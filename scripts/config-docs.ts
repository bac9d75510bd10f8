/**
 * `npm run docs:config`: writes docs/configuration.md from the declarations of
 * shared/platform/config.ts (CONFIG_VARS and BOOTSTRAP_VARS), so the reference cannot drift from
 * what the processes read. `--check` writes nothing and fails, naming the command, when the
 * committed page differs; test/unit/readme-config.test.ts makes the same comparison.
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BOOTSTRAP_VARS, CONFIG_VARS } from '../shared/platform/config';

const ROOT = resolve(__dirname, '..');
export const CONFIGURATION_PAGE = resolve(ROOT, 'docs/configuration.md');

interface Declared {
  type: 'string' | 'integer' | 'boolean' | 'list';
  default?: string;
  description: string;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  secret?: boolean;
}

/** A table cell: a pipe would end the cell early. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** What a value may be, as the loader checks it. */
function allowed(spec: Declared): string {
  const secret = spec.secret ? '; secret (never logged)' : '';
  if (spec.enum) return (spec.type === 'list' ? 'comma list of ' : 'one of ') + spec.enum.join(', ') + secret;
  if (spec.type === 'integer') return `integer ${spec.minimum} to ${spec.maximum}${secret}`;
  if (spec.type === 'boolean') return 'true or false (1 or 0)';
  if (spec.pattern) return `matches \`${spec.pattern}\`${secret}`;
  return (spec.type === 'list' ? 'comma list' : 'text') + secret;
}

/** The page, exactly as it is committed. */
export function configurationPage(): string {
  const rows = Object.entries<Declared>(CONFIG_VARS).map(([name, spec]) => `| \`${name}\` | ${spec.default ? cell(spec.default) : '(none)'} | ${cell(allowed(spec))} | ${cell(spec.description)} |`);
  const bootstrap = Object.entries(BOOTSTRAP_VARS).map(([name, description]) => `| \`${name}\` | ${cell(description)} |`);
  return [
    '# Configuration',
    '',
    '<!-- Generated from shared/platform/config.ts by `npm run docs:config`; a unit test fails when this page differs. -->',
    '',
    'Every variable is read and validated once, at start, by `shared/platform/config.ts`, the only',
    'module that reads `process.env`. A bad value stops the process before it connects anywhere, with',
    'exit code 78 and one line naming the variable (`Configuration error: PORT must be an integer (got',
    '"abc")`, no stack trace). Every entry point (`npm start`, `npm test`, the CLI, each worker, each',
    'bench, the backtest) imports `shared/platform/entry.ts` first, which makes that check before any',
    'other module loads. An empty value is the same as an unset one.',
    '',
    '| variable | default | allowed | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    '## Bootstrap only',
    '',
    'Read by the local services bootstrap (`scripts/services.ts`, used by `npm start`, `npm test`, the',
    'CLI and the benches), not by the service itself.',
    '',
    '| variable | meaning |',
    '|---|---|',
    ...bootstrap,
    '',
  ].join('\n');
}

function main(): number {
  const fresh = configurationPage();
  if (!process.argv.includes('--check')) {
    writeFileSync(CONFIGURATION_PAGE, fresh);
    process.stdout.write('docs/configuration.md written\n');
    return 0;
  }
  let committed = '';
  try {
    committed = readFileSync(CONFIGURATION_PAGE, 'utf8');
  } catch {
    // missing: stale as well
  }
  if (committed === fresh) return 0;
  process.stderr.write('docs/configuration.md is not what shared/platform/config.ts declares: run `npm run docs:config` and commit it\n');
  return 1;
}

if (require.main === module) {
  try {
    process.exit(main());
  } catch (err) {
    failEntry('configuration docs failed', err);
  }
}
