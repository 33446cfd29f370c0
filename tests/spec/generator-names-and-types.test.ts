// Generators read the contract well: no schema takes a name generators derive from an operationId
// (hey-api renamed such schemas with a `2` suffix), no enum has an `unknown` branch, and no named
// field of what the service answers or sends is typed `unknown`. The types are read from
// generated/schema.d.ts with the TypeScript compiler's parser, not with text patterns.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { contract, operations, repoRoot } from '../../testkit/contract.js';

/** The suffixes generators append to an operation's name (hey-api: Data, Responses, Response, Errors, Error). */
const DERIVED_SUFFIXES = ['Response', 'Responses', 'Error', 'Errors', 'Data'];

/** Schema names that equal `<OperationId>` capitalised plus a derived suffix. */
function derivedNameClashes(schemaNames: string[], operationIds: string[]): string[] {
  const derived = new Set(
    operationIds.flatMap((id) => DERIVED_SUFFIXES.map((suffix) => id[0]!.toUpperCase() + id.slice(1) + suffix)),
  );
  return schemaNames.filter((name) => derived.has(name));
}

const operationIds = [
  ...operations().map(({ op }) => op.operationId),
  ...Object.values(contract.webhooks).flatMap((item) => Object.values(item).map((op) => op.operationId)),
];
const schemaNames = Object.keys(contract.components.schemas!);

describe('schema names', () => {
  it('no schema name equals a name derived from an operationId', () => {
    expect(operationIds.length).toBeGreaterThan(30);
    expect(derivedNameClashes(schemaNames, operationIds)).toEqual([]);
  });

  it('the check reports a clash', () => {
    expect(
      derivedNameClashes(
        ['CreatePaymentSessionResponse', 'PaymentSession', 'ReceiveDisputeCreatedData', 'ListPaymentTokensErrors'],
        operationIds,
      ),
    ).toEqual(['CreatePaymentSessionResponse', 'ReceiveDisputeCreatedData', 'ListPaymentTokensErrors']);
  });
});

/** The `components.schemas` members of a declaration file, by name. */
function schemaTypes(source: ts.SourceFile): Map<string, ts.TypeNode> {
  const components = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'components',
  );
  const schemas = components?.members.find(
    (m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText(source) === 'schemas',
  );
  if (!schemas?.type || !ts.isTypeLiteralNode(schemas.type)) throw new Error('No components.schemas type literal');
  return new Map(schemas.type.members.filter(ts.isPropertySignature).map((m) => [m.name.getText(source), m.type!]));
}

const isUnknown = (node: ts.Node) => node.kind === ts.SyntaxKind.UnknownKeyword;

/** Every union anywhere in the file that has an `unknown` member, as written. */
function unknownUnions(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isUnionTypeNode(node) && node.types.some(isUnknown)) found.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The named properties typed `unknown` in a schema's own type: through intersections, unions,
 * parentheses, arrays and inline objects, but not into references to other schemas (each named
 * schema is checked on its own). Index signatures (`[key: string]: unknown`) are not named fields.
 */
function unknownFields(type: ts.TypeNode, source: ts.SourceFile, at = ''): string[] {
  if (ts.isTypeReferenceNode(type) || ts.isIndexedAccessTypeNode(type)) return [];
  if (ts.isParenthesizedTypeNode(type)) return unknownFields(type.type, source, at);
  if (ts.isArrayTypeNode(type)) return unknownFields(type.elementType, source, `${at}[]`);
  if (ts.isUnionTypeNode(type) || ts.isIntersectionTypeNode(type))
    return type.types.flatMap((t) => unknownFields(t, source, at));
  if (!ts.isTypeLiteralNode(type)) return [];
  return type.members.filter(ts.isPropertySignature).flatMap((member) => {
    const name = `${at}${at ? '.' : ''}${member.name.getText(source)}`;
    if (!member.type) return [name];
    return isUnknown(member.type) ? [name] : unknownFields(member.type, source, name);
  });
}

/** Names of the schemas a response or a webhook body reaches, through every $ref. */
function answeredSchemas(): Set<string> {
  const reached = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!reached.has(name)) {
          reached.add(name);
          walk(contract.components.schemas![name]);
        }
      } else if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/responses/')) {
        walk(contract.components.responses![value.slice('#/components/responses/'.length)]);
      } else {
        walk(value);
      }
    }
  };
  for (const { op } of operations()) walk(op.responses);
  for (const item of Object.values(contract.webhooks)) for (const op of Object.values(item)) walk(op.requestBody);
  return reached;
}

const file = path.join(repoRoot, 'generated', 'schema.d.ts');
const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const types = schemaTypes(source);
const answered = answeredSchemas();

describe('generated/schema.d.ts', () => {
  it('no enum, or any other union, has an `unknown` member', () => {
    expect(unknownUnions(source)).toEqual([]);
  });

  it('the open enums keep their known values, which an editor offers, and take any other string', () => {
    // `string | "a"` would collapse into `string`, and an editor would offer no value; `string & {}` does not.
    expect(types.get('DisputeState')!.getText(source)).toBe(
      '"needs_response" | "under_review" | "won" | "lost" | "accepted" | "expired" | "closed" | (string & {})',
    );
    expect(types.get('PaymentSessionStatusSummary')!.getText(source)).toMatch(
      /^"Incomplete" \| .*"Expired" \| \(string & \{\}\)$/,
    );
  });

  it('the closed lists of requests stay closed', () => {
    expect(types.get('PaymentSessionStatusInput')!.getText(source)).not.toContain('string');
    expect(types.get('RefundReasonInput')!.getText(source)).toBe(
      '"customer_request" | "fraudulent" | "duplicate_payment"',
    );
  });

  it.each([
    'PaymentSession',
    'PaymentSessionFields',
    'PaymentSessionListItem',
    'PaymentSessionCancelResponse',
    'Refund',
    'Dispute',
    'DisputeRecord',
    'PaymentToken',
    'PaymentMethod',
    'ProvisionTokenRequest',
    'EligibilityResponse',
    'CatalogItem',
    'PaymentSessionCompleteEvent',
    'PaymentSessionCompleteData',
    'PaymentTokenUpdatedEvent',
    'PaymentTokenUpdatedData',
    'ItemEligibilityUpdatedEvent',
    'DisputeCreatedEvent',
    'DisputeUpdatedEvent',
    'DisputeClosedEvent',
  ])('%s is answered or sent by the service', (name) => {
    expect(answered.has(name)).toBe(true);
  });

  it.each([...answered].sort())('%s has no named field typed unknown', (name) => {
    expect(types.has(name)).toBe(true);
    expect(unknownFields(types.get(name)!, source)).toEqual([]);
  });

  it('the session and its list item declare their evident fields, typed', () => {
    for (const name of ['PaymentSessionFields', 'PaymentSessionCancelResponse']) {
      const fields = (function names(type: ts.TypeNode): string[] {
        if (ts.isParenthesizedTypeNode(type)) return names(type.type);
        if (ts.isIntersectionTypeNode(type)) return type.types.flatMap(names);
        return ts.isTypeLiteralNode(type)
          ? type.members.filter(ts.isPropertySignature).map((m) => m.name.getText(source))
          : [];
      })(types.get(name)!);
      expect(fields).toEqual(expect.arrayContaining(['id', 'kind', 'total_amount', 'created_at']));
    }
    // Open on the composed schema itself (any other property, unknown), and the fields of PaymentSessionFields.
    for (const name of ['PaymentSession', 'PaymentSessionListItem']) {
      expect(types.get(name)!.getText(source)).toMatch(
        /^\{\s*\[key: string\]: unknown;\s*\} & \(components\["schemas"\]\["PaymentSessionFields"\] &/,
      );
    }
  });

  it('the checks report an unknown enum branch and an unknown field', () => {
    const broken = ts.createSourceFile(
      'broken.d.ts',
      [
        'export interface components { schemas: {',
        '  DisputeState: string | ("needs_response" | "won") | unknown;',
        '  PaymentSession: components["schemas"]["Base"] & ({ id?: unknown; order_items: { sku?: unknown }[] } & { [key: string]: unknown });',
        '}; }',
      ].join('\n'),
      ts.ScriptTarget.Latest,
      true,
    );
    expect(unknownUnions(broken)).toEqual(['string | ("needs_response" | "won") | unknown']);
    expect(unknownFields(schemaTypes(broken).get('PaymentSession')!, broken)).toEqual(['id', 'order_items[].sku']);
  });
});
