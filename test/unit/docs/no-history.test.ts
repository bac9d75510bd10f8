import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'chai';

const ROOT = resolve(__dirname, '../../..');
const SELF = 'test/unit/docs/no-history.test.ts';
const README_MAX_LINES = 300;

/**
 * Words about who worked when, which a reader of the product cannot use: an issue or task number,
 * a work session, a day of the work. "Session" alone is a product word (the login session, the
 * session stream, SESSION_* settings), so only the forms that count or place a work session match.
 */
const HISTORY: RegExp[] = [
  /\bissues? #?\d+/i,
  /\bissue-\d+/i,
  /\btasks? #?\d+/i,
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|later|earlier|same) session\b/i,
  /\b(in|during) (one|that|this|the same|a later|an earlier) session\b/i,
  /\bother sessions\b/i,
  /\bsession \d+/i,
  /\bearlier that day\b/i,
  /\blater (that|the same) day\b/i,
  /\bthe code before\b/i,
  /\bbefore this (issue|change|work|session)\b/i,
];

/** The lines of `text` that speak of the work rather than the product, as `file:line: text`. */
export function historyFindings(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (HISTORY.some((re) => re.test(line))) out.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
  });
  return out;
}

/** README.md, every page of docs/, and the source (its comments and strings) of every code folder. */
function scannedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\0');
  const code = /^(api|shared|workers|jobs|scripts|bench|test|dashboard|clients)\/.*\.(ts|js|mjs|cjs|html|css)$/;
  return listed.filter(
    (f) =>
      f &&
      f !== SELF &&
      !f.includes('node_modules/') &&
      (f === 'README.md' || /^docs\/.*\.md$/.test(f) || code.test(f) || f === '.ci/run') &&
      existsSync(join(ROOT, f)) &&
      statSync(join(ROOT, f)).isFile(),
  );
}

describe('docs and comments speak of the product, not of the work', () => {
  it('happy: no history narrative in README.md, docs/ or the source', () => {
    const files = scannedFiles();
    expect(files).to.include('README.md');
    expect(files.filter((f) => f.startsWith('docs/')).length).to.be.greaterThan(10);
    expect(files.filter((f) => f.startsWith('shared/')).length).to.be.greaterThan(100);
    const findings = files.flatMap((f) => historyFindings(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(findings, 'say why the product is as it is; history lives in git').to.deep.equal([]);
  });

  it('error: the narrative it forbids is found, with its file and line; the product words are not', () => {
    const narrative = [
      '### The hostile mix, before and after the read models (issue 22, fourth session)',
      '**Later the same day (a second session, another machine of the same kind, idle):**',
      '**2026-11-27, a later session** (a 2-core machine of its own)',
      'Run in one session on this 2-core machine (2026-11-26, third session)',
      'loading at the time, which other sessions were loading',
      'the code before (`f4e228f`, a worktree) and after',
      'Issue 25, item 2: the Redis the bootstrap starts keeps its data',
      'earlier that day, task 3 measured it',
    ];
    const found = historyFindings('README.md', narrative.join('\n'));
    expect(found.map((f) => f.split(':')[1])).to.deep.equal(narrative.map((_, i) => String(i + 1)));
    expect(found[0]).to.match(/^README\.md:1: ### The hostile mix/);

    const product = [
      'A signed-in browser holds an `odds_session` cookie; the session ends at logout.',
      'Starts a new session (a new cookie; the previous session of this browser ends).',
      'Send it as X-CSRF-Token with every POST, PUT and DELETE of this session.',
      'GET /v2/account/stream for the signed-in session; SESSION_TTL_MS bounds it.',
      'FerretDB/FerretDB#3040 on GitHub: a document updated can be modified between query and update',
    ];
    expect(historyFindings('docs/account.md', product.join('\n'))).to.deep.equal([]);
  });

  it('happy: README.md is the door: at most 300 lines, linking to the figures', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length, 'README.md lines').to.be.at.most(README_MAX_LINES);
    expect(readme).to.include('](docs/benchmarks.md)');
  });

  it('happy: docs/benchmarks.md gives every bench script its command, and the soak, the backtest and the suite', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const benches = scripts.filter((s) => s.startsWith('bench:'));
    expect(benches.length).to.be.greaterThan(10);
    const page = readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8');
    const missing = [...benches, 'soak', 'backtest'].filter((s) => !page.includes(`npm run ${s}`));
    expect(missing, 'benches without their command in docs/benchmarks.md').to.deep.equal([]);
    expect(page).to.include('npm ci && npm test');
  });
});
