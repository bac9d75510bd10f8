import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import ts from 'typescript';
import { bootstrapEnv } from '../../../shared/platform/config';
import { readApiWith, type ReadApi } from '../../helpers/readApi';

const CLIENT = resolve(__dirname, '../../../clients/typescript');
const EVENT = '2451';

/**
 * Runs a command without blocking this process, whose event loop serves the API the scripts
 * call. No NODE_OPTIONS: the test runner's TypeScript loader must not reach the plain node that
 * proves the package needs none.
 */
async function run(command: string, args: string[], cwd: string): Promise<string> {
  const { NODE_OPTIONS: _loader, ...env } = bootstrapEnv().all;
  try {
    const { stdout } = await promisify(execFile)(command, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stderr ?? ''}${stdout ?? ''}`);
  }
}

/** What a user of the package writes, ESM: a match's detail, typed without narrowing. */
const ESM_SCRIPT = `
import { createClient, credits, ok } from '@odds-ai/client';
const [url, key, eventId] = process.argv.slice(2);
const client = createClient({ baseUrl: url, apiKey: key });
const { data, response } = await ok(client.GET('/v2/matches/{eventId}', { params: { path: { eventId } } }));
console.log(JSON.stringify({ resolved: import.meta.resolve('@odds-ai/client'), id: data.data.id, consumed: credits(response).consumed }));
`;

/** The same from CommonJS: a filtered list. */
const CJS_SCRIPT = `
const { createClient } = require('@odds-ai/client');
const [url, key] = process.argv.slice(2);
createClient({ baseUrl: url, apiKey: key })
  .GET('/v2/matches', { params: { query: { sportName: 'soccer', limit: 5 } } })
  .then(({ data, error, response }) => console.log(JSON.stringify({ resolved: require.resolve('@odds-ai/client'), status: response.status, ids: data?.data.map((e) => e.id), error })));
`;

/** Calls that must compile, through import (.mts) and require (.cts) resolution. */
const CORRECT_CALLS = `
const client = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'sk_test_x' });
export async function calls(): Promise<string[]> {
  const list = await client.GET('/v2/matches', { params: { query: { sportName: 'soccer', limit: 5 } } });
  const detail = await client.GET('/v2/matches/{eventId}', { params: { path: { eventId: '1' }, query: { locale: 'es' } } });
  const signup = await client.POST('/v2/account/signup', { body: { email: 'a@b.c', password: 'correct horse' } });
  const health = await client.GET('/v2/health');
  // @ts-expect-error the detail's id is a string: an untyped (any) answer would leave this directive unused
  const wrong: number = detail.data?.data.id;
  return [...(list.data?.data.map((e) => e.id) ?? []), detail.data?.data.id ?? '', signup.data?.csrfToken ?? '', health.data?.status ?? '', String(wrong)];
}
`;

/** Each line ending in MARK must be the one line of a compile error; no other line may have one. */
const MARK = '// must not compile';
const MISSPELLED_CALLS = `
import { createClient } from '@odds-ai/client';
const client = createClient({ baseUrl: 'http://localhost:3000' });
export async function calls(): Promise<void> {
  await client.GET('/v2/matches', { params: { query: { sport: 'soccer', limit: 5 } } }); ${MARK}
  const query = { sportname: 'soccer', limit: 5 };
  await client.GET('/v2/matches', { params: { query } }); ${MARK}
  await client.GET('/v2/matches/{eventId}', { params: { path: { eventId: '1', id: '1' } } }); ${MARK}
  await client.POST('/v2/account/signup', { body: { email: 'a@b.c', password: 'x', pasword: 'x' } }); ${MARK}
  await client.request('get', '/v2/teams', { params: { query: { search: 'a', limit: 5, pge: 2 } } }); ${MARK}
}
`;

/**
 * `npm pack` in clients/typescript makes a tarball that installs into an empty folder and works
 * from plain Node, ESM and CommonJS, against the real app; the types it ships compile a user's
 * file and refuse a misspelled query, path or body key on that key's line.
 */
describe('typed client: the packed @odds-ai/client in an empty folder, from plain node', function () {
  this.timeout(90000);
  let api: ReadApi;
  let dir = '';
  let app = '';
  let packed: string[] = [];

  before(async () => {
    api = await readApiWith({ id: EVENT, start: new Date(Date.now() + 3600_000) });
    dir = mkdtempSync(join(tmpdir(), 'odds-client-pack-'));
    app = join(dir, 'app');
    mkdirSync(app);
    const [info] = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', dir], CLIENT)) as { filename: string; files: { path: string }[] }[];
    packed = info.files.map((f) => f.path);
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    await run('npm', ['install', join(dir, info.filename), '--prefer-offline', '--no-audit', '--no-fund'], app);
  });
  after(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('happy: the tarball holds ESM and CommonJS builds with .d.ts, the README, and no TypeScript source', () => {
    for (const format of ['esm', 'cjs']) {
      expect(packed, format).to.include.members([`dist/${format}/index.js`, `dist/${format}/index.d.ts`, `dist/${format}/package.json`, `dist/${format}/schema.d.ts`]);
    }
    expect(packed).to.include.members(['package.json', 'README.md']);
    expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).to.deep.equal([]);
    expect(packed.filter((f) => !f.startsWith('dist/'))).to.have.members(['package.json', 'README.md']);
  });

  it('happy: plain node imports it (ESM) and requires it (CommonJS), each build calling the API', async () => {
    writeFileSync(join(app, 'detail.mjs'), ESM_SCRIPT);
    writeFileSync(join(app, 'list.cjs'), CJS_SCRIPT);
    const [esm, cjs] = await Promise.all([run(process.execPath, ['detail.mjs', api.url, api.key, EVENT], app), run(process.execPath, ['list.cjs', api.url, api.key], app)]);
    const detail = JSON.parse(esm) as { resolved: string; id: string; consumed: number };
    expect(detail.resolved).to.match(/node_modules\/@odds-ai\/client\/dist\/esm\/index\.js$/);
    expect(detail).to.include({ id: EVENT, consumed: 1 });
    const list = JSON.parse(cjs) as { resolved: string; status: number; ids: string[] };
    expect(relative(app, list.resolved)).to.equal(join('node_modules', '@odds-ai', 'client', 'dist', 'cjs', 'index.js'));
    expect(list.status).to.equal(200);
    expect(list.ids).to.include(EVENT);
  });

  it('happy: its types compile a correct file both ways; error: a misspelled query, path or body key fails on its line', () => {
    const files = {
      'correct.mts': `import { createClient } from '@odds-ai/client';\n${CORRECT_CALLS}`,
      'correct.cts': `import { createClient } from '@odds-ai/client';\n${CORRECT_CALLS}`,
      'misspelled.mts': MISSPELLED_CALLS,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(app, name), text);
    // No @types/node: the DOM library's fetch types are enough. Only the default library goes
    // unchecked, so an error inside the shipped .d.ts fails this test too.
    const program = ts.createProgram(
      Object.keys(files).map((f) => join(app, f)),
      {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.Node16,
        moduleResolution: ts.ModuleResolutionKind.Node16,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
        skipDefaultLibCheck: true,
      },
    );
    const diagnostics = ts.getPreEmitDiagnostics(program);
    const where = (d: ts.Diagnostic) => {
      if (!d.file || d.start === undefined) return { file: '', line: -1 };
      return { file: relative(app, d.file.fileName), line: d.file.getLineAndCharacterOfPosition(d.start).line };
    };
    const text = (d: ts.Diagnostic) => `${where(d).file}:${where(d).line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    const elsewhere = diagnostics.filter((d) => where(d).file !== 'misspelled.mts');
    expect(elsewhere.map(text), 'the correct files and the package compile clean').to.deep.equal([]);
    // The installed types are the ones checked, each build by its own condition.
    const resolved = (from: string) => program.getSourceFiles().some((f) => relative(app, f.fileName) === join('node_modules', '@odds-ai', 'client', 'dist', from, 'index.d.ts'));
    expect(resolved('esm') && resolved('cjs'), 'import and require resolve to dist/esm and dist/cjs types').to.equal(true);

    const marked = MISSPELLED_CALLS.split('\n').flatMap((line, i) => (line.endsWith(MARK) ? [i] : []));
    const misspelled = diagnostics.filter((d) => where(d).file === 'misspelled.mts');
    expect([...new Set(misspelled.map((d) => where(d).line))], misspelled.map(text).join('\n')).to.deep.equal(marked);
    expect(misspelled.map(text).join('\n')).to.include("Type 'string' is not assignable to type 'never'");
  });
});
