// Checks the TypeScript rows run on what their generator wrote, read with the TypeScript parser:
// where a session, a list item or a dispute is typed `unknown` (a field whose type the document
// leaves open), and which type names the generator renamed with a `2` to resolve a clash.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** The schemas a partner reads most: the session, its list item, and both dispute shapes. */
export const checkedSchemas = ['PaymentSession', 'PaymentSessionListItem', 'Dispute', 'DisputeRecord'];

export interface UnknownFinding {
  /** How the declaration was reached from a checked schema, e.g. `Dispute.state → DisputeState`. */
  path: string;
  /** The source text around the `unknown`, shortened. */
  text: string;
}

type Style = 'types' | 'zod';

/**
 * Follows the checked schemas through the declarations of `file` they refer to, and returns each
 * `unknown` that stands for a value's type: in TypeScript types the `unknown` keyword (but not as an
 * index signature's value, which is how an open object, `additionalProperties: true`, is typed),
 * in Zod schemas a `zod.unknown()` call (but not as `zod.record`'s value, for the same reason).
 */
export function unknownsIn(file: string, style: Style, roots: string[] = checkedSchemas): UnknownFinding[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  // A name can declare both a value and a type (Orval's `const X = zod…` and `type X = zod.input<typeof X>`).
  const declarations = new Map<string, ts.Node[]>();
  const declare = (name: string, node: ts.Node) => declarations.set(name, [...(declarations.get(name) ?? []), node]);
  for (const statement of source.statements) {
    if (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement))
      declare(statement.name.text, statement);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer)
          declare(declaration.name.text, declaration.initializer);
      }
    }
  }
  const missing = roots.filter((name) => !declarations.has(name));
  if (missing.length > 0) throw new Error(`${file} declares no ${missing.join(', ')}`);

  const findings: UnknownFinding[] = [];
  const reached = new Map<string, string>(roots.map((name) => [name, name]));
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.shift()!;
    const via = reached.get(name)!;
    const visit = (node: ts.Node): void => {
      if (isOpenUnknown(node, style)) findings.push({ path: pathTo(node, via), text: shorten(enclosingText(node)) });
      if (
        ts.isIdentifier(node) &&
        node.text !== name &&
        declarations.has(node.text) &&
        !reached.has(node.text) &&
        isReference(node)
      ) {
        reached.set(node.text, `${pathTo(node, via)} → ${node.text}`);
        queue.push(node.text);
      }
      ts.forEachChild(node, visit);
    };
    for (const declaration of declarations.get(name)!) visit(declaration);
  }
  return findings;
}

function isOpenUnknown(node: ts.Node, style: Style): boolean {
  if (style === 'types') {
    if (node.kind !== ts.SyntaxKind.UnknownKeyword) return false;
    for (let up = node.parent; up && !ts.isPropertySignature(up); up = up.parent) {
      if (ts.isIndexSignatureDeclaration(up)) return false;
    }
    return true;
  }
  if (
    !ts.isCallExpression(node) ||
    !ts.isPropertyAccessExpression(node.expression) ||
    node.expression.name.text !== 'unknown'
  )
    return false;
  const call = node.parent;
  const isRecordValue =
    ts.isCallExpression(call) &&
    ts.isPropertyAccessExpression(call.expression) &&
    call.expression.name.text === 'record' &&
    call.arguments[1] === node;
  return !isRecordValue;
}

/** Whether an identifier names another declaration (a type reference, or a schema used as a value). */
function isReference(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isTypeReferenceNode(parent)) return true;
  if (ts.isPropertyAccessExpression(parent)) return parent.expression === node;
  if (ts.isPropertySignature(parent) || ts.isPropertyAssignment(parent)) return false;
  return ts.isExpression(node);
}

/** `via` followed by the names of the properties that enclose `node`, outermost first. */
function pathTo(node: ts.Node, via: string): string {
  const names: string[] = [];
  for (let up = node.parent; up; up = up.parent) {
    if ((ts.isPropertySignature(up) || ts.isPropertyAssignment(up)) && up.name)
      names.unshift(up.name.getText().replace(/^["']|["']$/g, ''));
  }
  return [via, ...names].join('.');
}

function enclosingText(node: ts.Node): string {
  let up: ts.Node = node;
  while (
    up.parent &&
    !ts.isPropertySignature(up.parent) &&
    !ts.isPropertyAssignment(up.parent) &&
    !ts.isTypeAliasDeclaration(up.parent) &&
    !ts.isVariableDeclaration(up.parent)
  )
    up = up.parent;
  return up.getText().replace(/\.describe\((?:'(?:[^'\\]|\\.)*')\)/g, '');
}

const shorten = (text: string) => {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 117)}…` : flat;
};

/** The exported type names of `file` that end in a `2` the document's components do not have: a generator's rename of a clash. */
export function clashRenames(file: string, document: string): string[] {
  const components = JSON.parse(readFileSync(document, 'utf8')).components ?? {};
  const known = new Set(Object.values(components).flatMap((section) => Object.keys(section as object)));
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  return source.statements
    .filter(
      (s): s is ts.TypeAliasDeclaration | ts.InterfaceDeclaration =>
        ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s),
    )
    .map((s) => s.name.text)
    .filter((name) => /[A-Za-z]2$/.test(name) && !known.has(name));
}

/** The text of the type a property `member` of type literal `typeName` has, e.g. member `200` of `RetrievePaymentSessionResponses`. */
export function memberType(file: string, typeName: string, member: string): string {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (
      !ts.isTypeAliasDeclaration(statement) ||
      statement.name.text !== typeName ||
      !ts.isTypeLiteralNode(statement.type)
    )
      continue;
    for (const property of statement.type.members) {
      if (
        ts.isPropertySignature(property) &&
        property.name.getText().replace(/^["']|["']$/g, '') === member &&
        property.type
      )
        return property.type.getText();
    }
  }
  throw new Error(`${file} has no ${typeName} with a member ${member}`);
}

/** Lines of a generator's output that warn, without terminal colours. */
export function warningLines(output: string): string[] {
  return (
    output
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes start with ESC
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /warn|⚠/i.test(line))
  );
}
