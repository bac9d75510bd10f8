import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { CONFIG_VARS } from '../../shared/platform/config';

/** The README's configuration table is the user's reference: it must list what the config module reads. */
describe('README configuration table', () => {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const rows = new Map([...readme.matchAll(/^\| `([A-Z0-9_]+)` \| ([^|]*) \| ([^|]*) \|$/gm)].map((m) => [m[1], { default: m[2].trim(), meaning: m[3].trim() }]));

  it('happy: every variable of shared/platform/config.ts is documented with its default and meaning', () => {
    const missing = Object.keys(CONFIG_VARS).filter((name) => !rows.has(name));
    expect(missing, 'variables missing from README').to.deep.equal([]);
    for (const [name, spec] of Object.entries(CONFIG_VARS) as [string, { default?: string; description: string }][]) {
      const row = rows.get(name)!;
      expect(row.default, name).to.equal(spec.default ? spec.default : '(none)');
      expect(row.meaning, name).to.equal(spec.description);
    }
  });

  it('error: the README documents no variable the config module does not read', () => {
    expect([...rows.keys()].filter((name) => !(name in CONFIG_VARS))).to.deep.equal([]);
  });
});
