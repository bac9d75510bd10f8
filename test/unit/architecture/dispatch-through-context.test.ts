import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = resolve(__dirname, '../../..');

/** Files whose source imports the value `dispatch` from shared/app/intents.ts (a type import is fine). */
function importersOfDispatch(files: readonly string[], read: (f: string) => string): string[] {
  return files.filter((file) => {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
    return source.statements.some((s) => {
      if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !/(^|\/)intents$/.test(s.moduleSpecifier.text)) return false;
      const named = s.importClause?.namedBindings;
      if (s.importClause?.isTypeOnly || !named || !ts.isNamedImports(named)) return false;
      return named.elements.some((e) => !e.isTypeOnly && (e.propertyName ?? e.name).text === 'dispatch');
    });
  });
}

describe('architecture: intentions go through the context', () => {
  it("happy: under shared/, only the process's context binds the queues' dispatcher (use cases use ctx.dispatch)", () => {
    const files = execFileSync('git', ['ls-files', 'shared'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.ts'));
    expect(files.length).to.be.greaterThan(100);
    expect(importersOfDispatch(files, (f) => readFileSync(resolve(ROOT, f), 'utf8'))).to.deep.equal(['shared/app/processContext.ts']);
  });

  it('error: the finder sees a value import of dispatch, and not a type import', () => {
    const sources: Record<string, string> = {
      'a.ts': "import { dispatch, jobIdOf } from '../intents';",
      'b.ts': "import type { Intent } from './intents';",
      'c.ts': "import { type DispatchResult, jobIdOf } from '../intents';",
      'd.ts': "import { dispatch as send } from './intents';",
    };
    expect(importersOfDispatch(Object.keys(sources), (f) => sources[f])).to.deep.equal(['a.ts', 'd.ts']);
  });
});
