// Extracts every module reference of one source file with the TypeScript parser (no type checker, no
// resolution): static imports, `export ... from`, `import x = require()`, `require("x")`, dynamic `import("x")`
// with a literal argument and type-level `import("x")`. It does not see computed specifiers
// (`import(name)`); those are left to review.
import ts from "typescript";

export type ImportKind = "import" | "export" | "dynamic" | "require" | "type-reference";

export interface ImportRecord {
  readonly specifier: string;
  /** 1-based line of the specifier. */
  readonly line: number;
  readonly kind: ImportKind;
  /** Erased at runtime (`import type`, `export type`, `typeof import("x")`): ignored for file cycles. */
  readonly typeOnly: boolean;
}

const DYNAMIC_HINT = /\bimport\s*\(|\brequire\s*\(/;

export function extractImports(fileName: string, text: string): ImportRecord[] {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, scriptKindOf(fileName));
  const records: ImportRecord[] = [];
  const add = (literal: ts.Node, kind: ImportKind, typeOnly: boolean): void => {
    if (!ts.isStringLiteralLike(literal)) return;
    const line = sourceFile.getLineAndCharacterOfPosition(literal.getStart(sourceFile)).line + 1;
    records.push({ specifier: literal.text, line, kind, typeOnly });
  };

  for (const statement of sourceFile.statements) {
    if (ts.isImportDeclaration(statement)) {
      add(statement.moduleSpecifier, "import", statement.importClause?.isTypeOnly ?? false);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      add(statement.moduleSpecifier, "export", statement.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
      add(statement.moduleReference.expression, "require", statement.isTypeOnly);
    }
  }

  if (DYNAMIC_HINT.test(text)) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.arguments.length >= 1) {
        const argument = node.arguments[0]!;
        if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
          add(argument, "dynamic", false);
        } else if (ts.isIdentifier(node.expression) && node.expression.text === "require") {
          add(argument, "require", false);
        }
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
        add(node.argument.literal, "type-reference", true);
      }
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(sourceFile, visit);
  }
  return records.sort((left, right) => left.line - right.line);
}

function scriptKindOf(fileName: string): ts.ScriptKind {
  if (fileName.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (fileName.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}
