import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { configurationPage } from '../../scripts/config-docs';
import { BOOTSTRAP_VARS, CONFIG_VARS } from '../../shared/platform/config';

const ROOT = resolve(__dirname, '../..');

/**
 * docs/configuration.md is the user's reference and is generated from the declarations the
 * processes read: a variable added, removed or redescribed without `npm run docs:config` fails here.
 */
describe('configuration reference', () => {
  const page = readFileSync(resolve(ROOT, 'docs/configuration.md'), 'utf8');
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');

  it('happy: docs/configuration.md is exactly what npm run docs:config writes', () => {
    expect(page === configurationPage(), 'docs/configuration.md is stale: run `npm run docs:config` and commit it').to.equal(true);
  });

  it('happy: the page names every variable of shared/platform/config.ts with its default and meaning', () => {
    for (const [name, spec] of Object.entries(CONFIG_VARS) as [string, { default?: string; description: string }][]) {
      const row = page.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).to.be.a('string');
      expect(row, name).to.include(`| ${spec.default ? spec.default : '(none)'} |`);
      expect(row, name).to.include(spec.description.replace(/\|/g, '\\|'));
    }
    for (const name of Object.keys(BOOTSTRAP_VARS)) expect(page, name).to.include(`| \`${name}\` |`);
  });

  it('error: a variable declared without its page regenerated is caught', () => {
    const stale = page.replace(/^\| `PORT` \|.*\n/m, '');
    expect(stale).to.not.equal(page);
    expect(stale === configurationPage()).to.equal(false);
  });

  it('happy: the README links to the page, and every variable it quotes in a table exists with that default', () => {
    expect(readme).to.include('](docs/configuration.md)');
    const rows = [...readme.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]*) \|/gm)].map((m) => ({ name: m[1], default: m[2].trim() }));
    expect(rows.length, 'the README quotes the most-used variables').to.be.greaterThan(3);
    for (const row of rows) {
      expect(row.name in CONFIG_VARS, `${row.name} is not a variable of shared/platform/config.ts`).to.equal(true);
      const spec = CONFIG_VARS[row.name as keyof typeof CONFIG_VARS] as { default?: string };
      expect(row.default, row.name).to.equal(spec.default ? spec.default : '(none)');
    }
  });
});
