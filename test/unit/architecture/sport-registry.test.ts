import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../../..');
const REGISTRY = 'shared/domain/sports/';

/** An expression that names a sport's id: `sportId`, `x.sportId`, `homeSportId`, `sport.id`. */
function namesSportId(node: ts.Expression): boolean {
  const e = ts.isParenthesizedExpression(node) ? node.expression : node;
  if (ts.isIdentifier(e)) return /sportId$/i.test(e.text);
  if (ts.isPropertyAccessExpression(e)) {
    if (/sportId$/i.test(e.name.text)) return true;
    return e.name.text === 'id' && /sport/i.test(e.expression.getText());
  }
  if (ts.isElementAccessExpression(e)) return ts.isStringLiteral(e.argumentExpression) && /sportId$/i.test(e.argumentExpression.text);
  return false;
}

const isNumber = (e: ts.Expression) => ts.isNumericLiteral(ts.isParenthesizedExpression(e) ? e.expression : e);

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);

/**
 * Where a source tells sports apart by number: a sport id compared with a number, a switch over a
 * sport id with numeric cases, a list of numbers asked whether it holds a sport id. Each as
 * `file:line: text`.
 */
function numericSportChecks(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`;
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
      if ((namesSportId(node.left) && isNumber(node.right)) || (namesSportId(node.right) && isNumber(node.left))) found.push(at(node));
    } else if (ts.isSwitchStatement(node) && namesSportId(node.expression)) {
      for (const clause of node.caseBlock.clauses) if (ts.isCaseClause(clause) && isNumber(clause.expression)) found.push(at(clause.expression));
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'includes' &&
      ts.isArrayLiteralExpression(node.expression.expression) &&
      node.expression.expression.elements.some((e) => isNumber(e)) &&
      node.arguments.some((a) => namesSportId(a))
    ) {
      found.push(at(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The product's files, as git lists them (new ones included, deleted ones not). */
function productFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'shared', 'api', 'workers', 'jobs', 'scripts', 'bench'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && existsSync(resolve(ROOT, f)));
}

/** A ninth sport, told in full: its definition, its simulator file. */
const CURLING = `import { countScoreGrid } from '../ai/sportModels';
import { logScoresModel } from '../ai/sportParams';
import { market } from '../markets/kinds';
import { defineSport } from './definition';

export const curling = defineSport({
  id: 9,
  sysname: 'curling',
  name: { en: 'Curling', es: 'Curling', pt: 'Curling' },
  hasDraw: false,
  markets: [market('CURLING_MATCH_WINNER', 'winner2', { en: 'Match Winner' }), market('CURLING_TOTAL_POINTS', 'total', { en: 'Total Points Over/Under' })],
  listMarkets: ['CURLING_MATCH_WINNER'],
  mainMarket: 'CURLING_MATCH_WINNER',
  model: logScoresModel([6, 5], 1, 15, (x) => countScoreGrid({ home: Math.exp(x[0]), away: Math.exp(x[1]) })),
  firstHalf: null,
  fit: { family: 'goals', counts: false },
  narrativeScore: true,
});
`;

const CURLING_SIM = `import { half, market as m } from '../lines';
import { normalLive, periodsScript } from '../match';
import type { SimSport } from './sport';

export const curling: SimSport = {
  id: 9,
  params: (base, d) => ({ ...base, diffMean: 1 + 2 * d, diffSd: 3, totalMean: 11, totalSd: 3 }),
  script: (p, rng) => periodsScript(p, rng, { names: ['FIRST_HALF', 'SECOND_HALF'], wallMinutes: 70, clockMinutes: 5, breaks: [5], otWall: 15, otClock: 1, maxOts: 1 }),
  live: normalLive(2),
  markets: (p) => [m('CURLING_MATCH_WINNER'), m('CURLING_TOTAL_POINTS', half(p.totalMean))],
  layout(play, pause) {
    play('FIRST_HALF', 70, 0, 5);
    pause('HALF_TIME', 5, 5);
    play('SECOND_HALF', 70, 5, 5);
  },
  firstHalf: null,
  incidentCounts: false,
  lineups: false,
  suspendsOnGoal: false,
};
`;

/** `text` with `from` replaced by `to`; a missing `from` is the fixture's error, not the product's. */
function patched(file: string, from: string | RegExp, to: string): string {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  const out = text.replace(from, to);
  if (out === text) throw new Error(`the fixture no longer finds ${String(from)} in ${file}: update the ninth-sport fixture`);
  return out;
}

/** The pieces of a ninth sport, each a file's text as the fixture gives it. */
const ninth = {
  id: (): [string, string] => ['shared/domain/sports/ids.ts', patched('shared/domain/sports/ids.ts', /SPORT_IDS = \[([^\]]*)\]/, 'SPORT_IDS = [$1, 9]')],
  registry: (): [string, string] => [
    'shared/domain/sports/registry.ts',
    patched('shared/domain/sports/registry.ts', /8: handball }/, '8: handball, 9: curling }').replace(/^/, "import { curling } from './curling';\n"),
  ],
  definition: (text = CURLING): [string, string] => ['shared/domain/sports/curling.ts', text],
  simulator: (): [string, string][] => [
    ['shared/platform/providers/simulated/sports/curling.ts', CURLING_SIM],
    [
      'shared/platform/providers/simulated/sports/index.ts',
      patched('shared/platform/providers/simulated/sports/index.ts', /8: handball }/, '8: handball, 9: curling }').replace(/^/, "import { curling } from './curling';\n"),
    ],
  ],
  oddsApi: (): [string, string] => [
    'shared/platform/providers/theoddsapi/mapping.ts',
    patched('shared/platform/providers/theoddsapi/mapping.ts', /(\n\s*8: \{[^\n]*\},)/, "$1\n  9: { group: 'Curling', prefix: 'curling', markets: {} },"),
  ],
};

const OPTIONS: ts.CompilerOptions = (() => {
  const config = ts.readConfigFile(resolve(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f)).config;
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options, noEmit: true, types: ['node'] };
})();
const parsed = new Map<string, ts.SourceFile>();

/**
 * The type errors of the product's files that know sports by SportId (and what they import) with
 * `overlay` in place of the files it names: `file: message` per error.
 */
function compileWith(overlay: readonly [string, string][]): string[] {
  const files = new Map(overlay.map(([f, text]) => [resolve(ROOT, f), text]));
  const host = ts.createCompilerHost(OPTIONS, true);
  const readFile = host.readFile.bind(host);
  host.fileExists = (f) => files.has(resolve(f)) || ts.sys.fileExists(f);
  host.readFile = (f) => files.get(resolve(f)) ?? readFile(f);
  host.getSourceFile = (f, language) => {
    const own = files.get(resolve(f));
    if (own !== undefined) return ts.createSourceFile(f, own, language, true);
    const cached = parsed.get(f);
    if (cached) return cached;
    const source = ts.createSourceFile(f, readFile(f) ?? '', language, true);
    parsed.set(f, source);
    return source;
  };
  const roots = [...productFiles().filter((f) => /SportId|SPORT_DEFINITIONS/.test(readFileSync(resolve(ROOT, f), 'utf8'))), ...overlay.map(([f]) => f)].map((f) => resolve(ROOT, f));
  const program = ts.createProgram([...new Set(roots)], OPTIONS, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && !d.file.fileName.includes('node_modules'))
    .map((d) => `${d.file?.fileName.slice(ROOT.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('architecture: a sport is one definition', () => {
  it('happy: no code outside the sport registry tells sports apart by their number', () => {
    const files = productFiles().filter((f) => !f.startsWith(REGISTRY));
    expect(files.length).to.be.greaterThan(200);
    const found = files.flatMap((f) => numericSportChecks(f, readFileSync(resolve(ROOT, f), 'utf8')));
    expect(found).to.deep.equal([]);
  });

  it('error: the finder sees each kind of numeric sport check, and not a comparison of two sports or of other ids', () => {
    const source = [
      'if (event.sportId === 3 || event.sportId === 5) a();', // 2
      'const x = 1 !== sportId;', // 1
      'switch (e.sportId) { case 1: break; case 2: break; default: }', // 2
      'if ([3, 5].includes(e.sportId)) a();', // 1
      "if (row['sportId'] == 7) a();", // 1
      'if (sport.id === 8) a();', // 1
      'if (type.sportId !== inputs.sportId) a();',
      'if (event.competitionId === 3) a();',
      'switch (kind) { case 1: break; }',
      'if ([1, 2].includes(count)) a();',
    ].join('\n');
    const found = numericSportChecks('fixture.ts', source);
    expect(found.map((f) => f.split(': ')[0])).to.deep.equal(['fixture.ts:1', 'fixture.ts:1', 'fixture.ts:2', 'fixture.ts:3', 'fixture.ts:3', 'fixture.ts:4', 'fixture.ts:5', 'fixture.ts:6']);
  });

  describe('a ninth sport does not compile until every piece of it is given', function () {
    this.timeout(120_000);

    it('error: its id alone: the registry, the simulator and The Odds API mapping each want their piece for 9', () => {
      const errors = compileWith([ninth.id()]);
      const where = [...new Set(errors.map((e) => e.split(': ')[0]))].sort();
      expect(where, errors.join('\n')).to.deep.equal(['shared/domain/sports/registry.ts', 'shared/platform/providers/simulated/sports/index.ts', 'shared/platform/providers/theoddsapi/mapping.ts']);
      for (const file of where)
        expect(
          errors.some((e) => e.startsWith(`${file}: `) && /Property '9' is missing/.test(e)),
          file,
        ).to.equal(true);
    });

    it('error: a definition without its score model and its fit: the compiler names both', () => {
      const partial = CURLING.replace(/\n\s*model: [^\n]*/, '').replace(/\n\s*fit: [^\n]*/, '');
      const errors = compileWith([ninth.id(), ninth.registry(), ninth.definition(partial), ...ninth.simulator(), ninth.oddsApi()]);
      expect(errors, errors.join('\n')).to.have.length(1);
      expect(errors[0]).to.match(/^shared\/domain\/sports\/curling\.ts: .*missing the following properties .*: model, fit$/);
    });

    it('error: a list market that is not one of its markets', () => {
      const wrong = CURLING.replace("listMarkets: ['CURLING_MATCH_WINNER']", "listMarkets: ['CURLING_MATCH_WINER']");
      const errors = compileWith([ninth.id(), ninth.registry(), ninth.definition(wrong), ...ninth.simulator(), ninth.oddsApi()]);
      expect(errors, errors.join('\n')).to.have.length(1);
      expect(errors[0]).to.match(/^shared\/domain\/sports\/curling\.ts: Type '"CURLING_MATCH_WINER"' is not assignable/);
    });

    it('happy: every piece given, it compiles clean', () => {
      expect(compileWith([ninth.id(), ninth.registry(), ninth.definition(), ...ninth.simulator(), ninth.oddsApi()])).to.deep.equal([]);
    });
  });
});
