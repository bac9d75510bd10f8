import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';
import { accountRouter } from '../../../api/account/router';
import { createApp, v2Routes } from '../../../api/app';
import { accountRoutes } from '../../../api/routes/account';
import { processContext } from '../../../shared/app/processContext';
import { getConfig } from '../../../shared/platform/config';
import { metricsRoute } from '../../../api/routes/metrics';
import { costOf, priceOf } from '../../../shared/domain/billing/costs';

const ROOT = resolve(__dirname, '../../..');

/** Every `x as T`, `<T>x` and non-null `x!` of a file, except `as const`. */
function castsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
    if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText(source).slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('typed routes: the routing layer', () => {
  it('happy: no cast but `as const` and no non-null `!` anywhere in api/', () => {
    const files = execFileSync('git', ['ls-files', 'api'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    expect(files.length).to.be.greaterThan(40);
    expect(files.flatMap(castsOf)).to.deep.equal([]);
  });

  it('happy: the cast finder sees a cast and a `!` (the test above could not pass by finding nothing)', () => {
    const probe = resolve(ROOT, '.local', `cast-probe-${process.pid}.ts`);
    mkdirSync(dirname(probe), { recursive: true });
    writeFileSync(probe, 'const a = b as string; const c = d as const; const e = f!.g;');
    try {
      expect(castsOf(probe).map((c) => c.split(': ')[1])).to.deep.equal(['b as string', 'f!']);
    } finally {
      rmSync(probe);
    }
  });

  // The account API's router (api/account/router.ts) mounts RouteSpecs of its own (checked below);
  // the dashboard's static files are the one router outside RouteSpec (docs/architecture.md).
  it('happy: every mounted path of the app comes from a RouteSpec (Bull Board, the account router and the dashboard aside)', () => {
    const specs = [...v2Routes(getConfig()), metricsRoute('u', 'p')].map((r) => `${r.mount}${r.path.replace(/\{(\w+)\}/g, ':$1')}`);
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

  it('happy: every path the account router mounts is one of the account RouteSpecs, and each spec is mounted', () => {
    type Layer = { route?: { path: string; methods: Record<string, boolean> } };
    const router = accountRouter(accountRoutes(getConfig()), processContext()) as unknown as { stack: Layer[] };
    const mounted = router.stack.flatMap((l) =>
      l.route
        ? Object.keys(l.route.methods)
            .filter((m) => m !== '_all')
            .map((m) => `${m.toUpperCase()} ${l.route?.path}`)
        : [],
    );
    const specs = accountRoutes(getConfig()).map((r) => `${r.method ?? 'GET'} ${r.path.replace(/\{(\w+)\}/g, ':$1')}`);
    expect(specs.length).to.be.greaterThan(15);
    for (const s of specs) expect(mounted, s).to.include(s);
    expect([...new Set(mounted.filter((m) => !specs.includes(m)).map((m) => m.split(' ')[0]))].every((m) => m === 'HEAD' || m === 'OPTIONS' || m === 'ALL')).to.equal(true);
  });

  it('happy: each route states the price and key requirement of its own cost table row', () => {
    for (const r of v2Routes(getConfig())) {
      expect(r.price, r.path).to.not.equal(null);
      const priced = priceOf('GET', `${r.mount}${r.path.replace(/\{\w+\}/g, 'x1')}`);
      expect(priced?.path, r.path).to.equal(r.price);
      expect(r.auth, r.path).to.equal(costOf(r.price!).public ? 'none' : 'key');
    }
    const metrics = metricsRoute('u', 'p');
    expect([metrics.price, metrics.auth]).to.deep.equal([null, 'admin']);
  });
});
