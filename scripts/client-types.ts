/**
 * `npm run client:types`: the typed client's types (clients/typescript/src/schema.ts) generated
 * by openapi-typescript from the OpenAPI document GET /v2/openapi.json serves, built here in
 * process from the same RouteSpecs (no server, no database). `--check` (a step of `npm test`)
 * writes nothing and fails, naming the file, when the committed types differ from what the
 * routes generate.
 *
 * The document describes the defaults of the configuration (the stream's resume window,
 * heartbeat, limits): every configuration variable is set to its default here, whatever the
 * environment says, so the file is the same on every machine. Its server is left out (the
 * client is given its base URL).
 */
import { failEntry } from '../shared/platform/entry'; // first: a bad variable stops here, before any module's import-time code
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { CONFIG_VARS, getConfig, setEnvForChildren } from '../shared/platform/config';

const ROOT = resolve(__dirname, '..');
export const SCHEMA_FILE = resolve(ROOT, 'clients/typescript/src/schema.ts');

/** The document /v2/openapi.json serves, under the default configuration, without its servers. */
export async function defaultDocument(): Promise<Record<string, unknown>> {
  setEnvForChildren(Object.fromEntries(Object.entries(CONFIG_VARS).map(([name, spec]) => [name, spec.default ?? ''])));
  // Loaded after the configuration is set: the routes are built with it.
  const [{ openApiDocument }, { v2Routes }, { accountRoutes }] = await Promise.all([import('../api/openapi'), import('../api/app'), import('../api/routes/account')]);
  const cfg = getConfig();
  const { servers: _servers, ...document } = openApiDocument([...v2Routes(cfg), ...accountRoutes(cfg)], cfg.PUBLIC_URL);
  return document;
}

/** The generated TypeScript, formatted as the repository's prettier check wants it. */
export async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(JSON.stringify(await defaultDocument()), { silent: true });
  const header = `${COMMENT_HEADER}// Generated from /v2/openapi.json by \`npm run client:types\` (scripts/client-types.ts); \`npm test\` fails when it is stale.\n\n`;
  const options = await resolveConfig(SCHEMA_FILE);
  return format(header + astToString(ast), { ...options, filepath: SCHEMA_FILE });
}

async function main(): Promise<number> {
  const check = process.argv.includes('--check');
  const fresh = await generatedTypes();
  const file = relative(ROOT, SCHEMA_FILE);
  if (!check) {
    writeFileSync(SCHEMA_FILE, fresh);
    process.stdout.write(`${file} written\n`);
    return 0;
  }
  let committed = '';
  try {
    committed = readFileSync(SCHEMA_FILE, 'utf8');
  } catch {
    // missing: stale as well
  }
  if (committed === fresh) return 0;
  process.stderr.write(`${file} is not what /v2/openapi.json generates (the routes' schemas changed): run \`npm run client:types\` and commit it\n`);
  return 1;
}

if (require.main === module) {
  main()
    .then((code) => process.exit(code))
    .catch((err) => failEntry('client types failed', err));
}
