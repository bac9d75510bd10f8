import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { createApp, v2Routes } from '../../../api/app';
import { metricsRoute } from '../../../api/routes/metrics';
import { costOf, priceOf } from '../../../shared/domain/billing/costs';

const ROOT = resolve(__dirname, '../../..');

/** Every `x as T` and `<T>x` of a file, except `as const`. */
function castsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText(source).slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('typed routes: the routing layer', () => {
  it('happy: no cast but `as const` in api/routes, api/middleware or api/openapi.ts', () => {
    const files = execFileSync('git', ['ls-files', 'api/routes', 'api/middleware', 'api/openapi.ts'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    expect(files.length).to.be.greaterThan(5);
    expect(files.flatMap(castsOf)).to.deep.equal([]);
  });

  it('happy: the cast finder sees a cast (the test above could not pass by finding nothing)', () => {
    const probe = ts.createSourceFile('x.ts', 'const a = b as string; const c = d as const;', ts.ScriptTarget.Latest, true);
    let casts = 0;
    const visit = (n: ts.Node): void => {
      if (ts.isAsExpression(n) && n.type.getText(probe) !== 'const') casts++;
      ts.forEachChild(n, visit);
    };
    visit(probe);
    expect(casts).to.equal(1);
  });

  // The account API (JSON bodies of a signed-in browser, api/account/) and the dashboard's static
  // files are the two routers outside RouteSpec (docs/architecture.md); everything else is a spec.
  it('happy: every mounted path of the app comes from a RouteSpec (Bull Board, the account API and the dashboard aside)', () => {
    const specs = [...v2Routes(), metricsRoute('u', 'p')].map((r) => `${r.mount}${r.path.replace(/\{(\w+)\}/g, ':$1')}`);
    const mounted: string[] = [];
    type Layer = { route?: { path: string }; handle: { stack?: Layer[] }; name: string; rawPath?: string; match(path: string): boolean };
    const walk = (stack: Layer[], prefix: string) => {
      for (const layer of stack) {
        if (layer.route) mounted.push(`${prefix}${layer.route.path}`);
        else if (layer.handle.stack && layer.match('/v2/account/keys') && !layer.match('/v2/matches')) continue;
        else if (layer.handle.stack && layer.match('/dashboard/x') && !layer.match('/x')) continue;
        else if (layer.handle.stack) walk(layer.handle.stack, layer.match('/v2/x') && !layer.match('/x') ? '/v2' : prefix);
        else if (layer.name === 'serveStatic') mounted.push(`${prefix}${layer.rawPath}/:asset`);
      }
    };
    const app = createApp() as unknown as { router: { stack: Layer[] } };
    walk(app.router.stack, '');
    const bullBoard = mounted.filter((p) => p.startsWith('/admin/'));
    expect(mounted.filter((p) => !bullBoard.includes(p)).sort()).to.deep.equal(specs.filter((p) => p !== '/metrics' || mounted.includes(p)).sort());
  });

  it('happy: each route states the price and key requirement of its own cost table row', () => {
    for (const r of v2Routes()) {
      expect(r.price, r.path).to.not.equal(null);
      const priced = priceOf('GET', `${r.mount}${r.path.replace(/\{\w+\}/g, 'x1')}`);
      expect(priced?.path, r.path).to.equal(r.price);
      expect(r.auth, r.path).to.equal(costOf(r.price!).public ? 'none' : 'key');
    }
    const metrics = metricsRoute('u', 'p');
    expect([metrics.price, metrics.auth]).to.deep.equal([null, 'admin']);
  });
});
