import { resolve } from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

/**
 * declaredSchema (shared/platform/db/models/define.ts) is a compile-time check: a schema that does
 * not store exactly its declared document does not compile. Shown by compiling fixtures with the
 * TypeScript API, as a model file beside define.ts would be.
 */
const ROOT = resolve(__dirname, '../../..');
const FIXTURE = resolve(ROOT, 'shared/platform/db/models/declaredFixture.ts');

const OPTIONS: ts.CompilerOptions = (() => {
  const config = ts.readConfigFile(resolve(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f)).config;
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options, noEmit: true, types: ['node'] };
})();
const parsed = new Map<string, ts.SourceFile>();

function errorsOf(schemaFields: string): string[] {
  const text = `import { Schema } from 'mongoose';
import { declaredSchema } from './define';

interface Declared {
  _id: string;
  count: number;
  note: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const schema = declaredSchema<Declared>()(new Schema({ ${schemaFields} }, { timestamps: true }));
`;
  const host = ts.createCompilerHost(OPTIONS, true);
  const readFile = host.readFile.bind(host);
  host.fileExists = (f) => resolve(f) === FIXTURE || ts.sys.fileExists(f);
  host.readFile = (f) => (resolve(f) === FIXTURE ? text : readFile(f));
  host.getSourceFile = (f, language) => {
    if (resolve(f) === FIXTURE) return ts.createSourceFile(f, text, language, true);
    const cached = parsed.get(f) ?? ts.createSourceFile(f, readFile(f) ?? '', language, true);
    parsed.set(f, cached);
    return cached;
  };
  const program = ts.createProgram([FIXTURE], OPTIONS, host);
  const source = program.getSourceFile(FIXTURE);
  return ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

describe('a model declared with its document (declaredSchema)', function () {
  this.timeout(60_000);
  const fields = {
    id: '_id: { type: String, required: true }',
    count: 'count: { type: Number, required: true }',
    note: 'note: { type: String, default: null }',
  };

  it('happy: a schema storing exactly the declared fields compiles', () => {
    expect(errorsOf([fields.id, fields.count, fields.note].join(', '))).to.deep.equal([]);
  });

  const wrong: [name: string, schemaFields: string][] = [
    ['a declared field the schema does not store', [fields.id, fields.count].join(', ')],
    ['a field the schema stores that is not declared', [fields.id, fields.count, fields.note, 'extra: { type: String }'].join(', ')],
    ['a field stored as another type than declared', [fields.id, 'count: { type: String, required: true }', fields.note].join(', ')],
  ];
  for (const [name, schemaFields] of wrong) {
    it(`error: ${name} does not compile`, () => {
      const errors = errorsOf(schemaFields);
      expect(errors, errors.join('\n')).to.have.length(1);
      expect(errors[0]).to.match(/disagreesWithItsDeclaration/);
    });
  }
});
