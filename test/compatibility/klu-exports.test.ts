import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

// A Klu app moves to Lectern by changing its imports from `@kluai/core` to `@lectern/client/klu`,
// in every file: each name the official SDK exports, type or value, must be exported by the drop-in.

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** The names `@kluai/core` exports, read from its published declarations. */
function officialExports(): string[] {
  const require = createRequire(import.meta.url);
  const declarations = path.join(path.dirname(require.resolve('@kluai/core')), '../esm/index.d.mts');
  const source = ts.createSourceFile(
    declarations,
    readFileSync(declarations, 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue;
    if (!ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) names.push(element.name.text);
  }
  return names;
}

/** The names the drop-in's entry exports, as the compiler resolves them (re-exports included). */
function dropInExports(): Set<string> {
  const entry = path.join(projectRoot, 'packages/client/src/klu/index.ts');
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
}

it('exports every name @kluai/core exports, its types included', () => {
  const official = officialExports();
  expect(official).toEqual(expect.arrayContaining(['FeedbackModel', 'WithPersistedModelData', 'default']));
  const exported = dropInExports();
  expect(official.filter((name) => !exported.has(name))).toEqual([]);
});
