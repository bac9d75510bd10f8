import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';

/** The suite runs on the runtime the project installs (the `node` package), not on whatever Node started npm. */
describe('runtime', () => {
  it("happy: the tests run on the Node major that package.json's engines and its `node` dependency name", () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { engines: { node: string }; dependencies: Record<string, string> };
    const engineMajor = Number(/(\d+)/.exec(pkg.engines.node)?.[1]);
    const installedMajor = Number(/(\d+)/.exec(pkg.dependencies.node)?.[1]);
    expect(engineMajor).to.equal(installedMajor);
    expect(Number(process.versions.node.split('.')[0])).to.equal(installedMajor);
  });
});
