// `npm run build`, and `npm pack`'s prepack: the package as Node loads it without TypeScript.
// dist/cjs (require) comes from one type-checked compile of src with tsconfig.json, .d.ts
// included; dist/esm (import) is the same files transpiled one by one (isolatedModules in
// tsconfig.json makes that safe) with the same .d.ts, since a declaration reads alike in both
// formats: one check instead of two keeps `npm pack` quick. Each folder's package.json tells Node
// the format of its .js files. dist is emptied first so a deleted source file never ships.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const cjs = join(here, 'dist/cjs');
const esm = join(here, 'dist/esm');

function fail(diagnostics) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => here, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

const config = ts.getParsedCommandLineOfConfigFile(join(here, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail([d]) });
if (config.errors.length > 0) fail(config.errors);
rmSync(join(here, 'dist'), { recursive: true, force: true });

const program = ts.createProgram(config.fileNames, { ...config.options, outDir: cjs, noEmitOnError: true });
const emitted = program.emit();
const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
if (diagnostics.length > 0) fail(diagnostics);

mkdirSync(esm, { recursive: true });
for (const file of config.fileNames) {
  const name = basename(file, '.ts');
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    fileName: file,
    compilerOptions: { ...config.options, module: ts.ModuleKind.ES2022, moduleResolution: ts.ModuleResolutionKind.Bundler, declaration: false },
  });
  writeFileSync(join(esm, `${name}.js`), outputText);
  copyFileSync(join(cjs, `${name}.d.ts`), join(esm, `${name}.d.ts`));
}
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
writeFileSync(join(esm, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
