/**
 * npm run -s house-counts [-- <dir>]: the figures the house re-cut is judged by, read from the
 * syntax tree (not a regex, so a word "as" in a string does not count): per top folder (and per
 * layer of shared/) the files, lines, casts (`x as T` but `as const`, `<T>x`), non-null
 * assertions (`x!`), and module state (see isModuleSingleton), apart from the keepers declared
 * with processMemo (one reset for all of them). Tests are counted apart: their casts are not the product's.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import ts from 'typescript';

interface Tally {
  files: number;
  lines: number;
  casts: number;
  nonNull: number;
  singletons: number;
  memos: number;
}

const KEYS = ['files', 'lines', 'casts', 'nonNull', 'singletons', 'memos'] as const;

const empty = (): Tally => ({ files: 0, lines: 0, casts: 0, nonNull: 0, singletons: 0, memos: 0 });

function groupOf(file: string): string | null {
  const parts = file.split('/');
  if (parts.length < 2) return null;
  if (parts[0] === 'shared') return parts.length > 2 ? `shared/${parts[1]}` : 'shared/(loose)';
  return parts[0];
}

const MUTABLE = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/** Module state: a module-level `let`/`var`, or a mutable collection held by a module-level
 * const (not a CAPS constant, not typed Readonly*): what one test file could leave to the next. */
function isModuleSingleton(statement: ts.Statement, source: ts.SourceFile): boolean {
  if (!ts.isVariableStatement(statement)) return false;
  const flags = statement.declarationList.flags;
  if (!(flags & ts.NodeFlags.Const)) return true;
  return statement.declarationList.declarations.some((d) => {
    const init = d.initializer;
    if (init === undefined || !ts.isNewExpression(init) || !ts.isIdentifier(init.expression)) return false;
    if (!MUTABLE.has(init.expression.text)) return false;
    const name = d.name.getText(source);
    const readonly = d.type !== undefined && d.type.getText(source).startsWith('Readonly');
    return !readonly && name !== name.toUpperCase();
  });
}

function isMemo(statement: ts.Statement): boolean {
  return (
    ts.isVariableStatement(statement) &&
    statement.declarationList.declarations.some(
      (d) => d.initializer !== undefined && ts.isCallExpression(d.initializer) && ts.isIdentifier(d.initializer.expression) && d.initializer.expression.text === 'processMemo',
    )
  );
}

function tallyFile(text: string, file: string, into: Tally): void {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  into.files += 1;
  into.lines += text.split('\n').length;
  for (const statement of source.statements) {
    if (isMemo(statement)) into.memos += 1;
    else if (isModuleSingleton(statement, source)) into.singletons += 1;
  }
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
      if (!isConst) into.casts += 1;
    } else if (ts.isTypeAssertionExpression(node)) into.casts += 1;
    else if (ts.isNonNullExpression(node)) into.nonNull += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function main(): void {
  const root = path.resolve(process.argv[2] ?? '.');
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.tsx'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    process.stderr.write(`house-counts: ${root} is not a git checkout (usage: npm run -s house-counts [-- <checkout dir>])\n`);
    process.exit(2);
  }
  const files = listed.split('\n').filter((f) => f !== '' && !f.endsWith('.d.ts') && !f.includes('/generated/'));
  const groups = new Map<string, Tally>();
  for (const file of files) {
    const group = groupOf(file);
    if (group === null) continue;
    const tally = groups.get(group) ?? empty();
    groups.set(group, tally);
    tallyFile(readFileSync(path.join(root, file), 'utf8'), file, tally);
  }
  const sharedTotal = empty();
  for (const [name, t] of groups) {
    if (!name.startsWith('shared/')) continue;
    for (const k of KEYS) sharedTotal[k] += t[k];
  }
  groups.set('shared (all)', sharedTotal);
  const rows = [...groups].sort(([a], [b]) => a.localeCompare(b));
  const lines = ['| folder | files | lines | casts | ! | singletons | processMemo |', '|---|---|---|---|---|---|---|'];
  for (const [name, t] of rows) lines.push(`| ${name} | ${t.files} | ${t.lines} | ${t.casts} | ${t.nonNull} | ${t.singletons} | ${t.memos} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
