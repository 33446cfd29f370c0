// The breaking-change gate (build/diff.mjs, `npm run diff`): the working contract against the
// newest release, then edited copies of the frozen 1.0.0 release, so that these cases do not move
// when the contract does. A breaking change passes only with a new major and its changelog heading.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
// @ts-expect-error: the diff script is plain JavaScript, without types.
import { checkCompatibility, formatReport, latestRelease } from '../../build/diff.mjs';
import { repoRoot } from '../../testkit/contract.js';

interface Schema {
  enum?: string[];
  required?: string[];
  properties?: Record<string, Schema>;
  type?: string;
  description?: string;
}
interface Doc {
  info: { version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}
interface Change {
  impact: string;
  kind: string;
  where: string;
  messages: string[];
  from?: string;
  to?: string;
}
interface Result {
  ok: boolean;
  breaking: boolean;
  changes: Change[];
  reasons: string[];
  summary: Record<string, number>;
}
interface OpenSchema extends Omit<Schema, 'properties'> {
  anyOf?: OpenSchema[];
  additionalProperties?: boolean;
  properties?: Record<string, OpenSchema>;
}
interface OpenDoc {
  components: { schemas: Record<string, OpenSchema> };
}

const release = path.join(repoRoot, 'openapi', 'releases', '1.0.0.yaml');
const entry1 = '## 1.0.0\n\nFirst release.\n';
const changelog1 = `# Changelog\n\n${entry1}`;
const changelog2 = `# Changelog\n\n## 2.0.0\n\n- **Breaking:** a change.\n\n${entry1}`;
let dir: string;
let base: Doc;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'contract-breaking-'));
  base = YAML.parse(readFileSync(release, 'utf8')) as Doc;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Writes an edited copy of the release (JSON: redocly diff reads it, and it writes faster than YAML).
let copies = 0;
function copy(edit: (doc: Doc) => void): string {
  const doc = structuredClone(base);
  edit(doc);
  const file = path.join(dir, `copy-${++copies}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return file;
}
const schema = (doc: Doc, name: string): Schema => {
  const found = doc.components.schemas[name];
  if (!found) throw new Error(`the release has no schema ${name}`);
  return found;
};
// The gate on a copy; the report is the assertion message, so a failure shows what redocly saw.
function gate(revision: string, changelog = changelog1): Result & { report: string } {
  const result = checkCompatibility({ base: release, revision, changelog }) as Result;
  return { ...result, report: formatReport(result) as string };
}
const rules = (result: Result) => result.changes.flatMap((c) => c.messages).join('\n');

// PaymentSessionStatus is in responses and in the list's `status` filter (a request): fewer values
// there refuse a request that worked.
const removeEnumValue = (doc: Doc) => {
  const status = schema(doc, 'PaymentSessionStatus');
  status.enum = status.enum!.filter((value) => value !== 'rejected');
};

describe('the working contract', () => {
  it('passes the gate against the newest release (npm run diff)', () => {
    const result = checkCompatibility({
      base: latestRelease(),
      revision: path.join(repoRoot, 'generated', 'openapi.yaml'),
      changelog: readFileSync(path.join(repoRoot, 'CHANGELOG.md'), 'utf8'),
    }) as Result;
    expect(result.ok, formatReport(result)).toBe(true);
  });
});

describe('a breaking change without a new major fails', () => {
  it.each([
    ['an enum value removed (PaymentSessionStatus)', removeEnumValue, 'enum-values-removed'],
    [
      'an optional request field made required',
      (doc: Doc) => {
        schema(doc, 'CreatePaymentSessionRequest').required!.push('customer_state');
      },
      'required-properties-added',
    ],
    [
      'an operation removed',
      (doc: Doc) => {
        delete doc.paths['/payments/v1/payment_session/{business_id}']!.get;
      },
      'operation-removed',
    ],
  ] as const)('%s', (_name, edit, rule) => {
    const result = gate(copy(edit));
    expect(result.ok, result.report).toBe(false);
    expect(result.breaking).toBe(true);
    expect(rules(result)).toContain(`(${rule})`);
    expect(result.report).toMatch(/FAILED[\s\S]*Set info\.version to 2\.0\.0[\s\S]*## 2\.0\.0/);
  });
});

describe('a non-breaking change passes', () => {
  it.each([
    [
      'a new optional request field',
      (doc: Doc) => {
        schema(doc, 'CreatePaymentSessionRequest').properties!.note = { type: 'string', description: 'A note.' };
      },
    ],
    [
      'a new operation',
      (doc: Doc) => {
        doc.paths['/payments/v1/ping'] = {
          get: { operationId: 'ping', summary: 'Ping', responses: { 200: { description: 'Up.' } } },
        };
      },
    ],
    // redocly diff rates by direction: a value gone from a response-only enum breaks no client.
    [
      'an enum value removed from a response-only error enum',
      (doc: Doc) => {
        const error = schema(doc, 'CreatePaymentSessionError').properties!.error!;
        error.enum = error.enum!.filter((value) => value !== 'FeatureNotEnabled');
      },
    ],
  ] as const)('%s', (_name, edit) => {
    const result = gate(copy(edit));
    expect(result.ok, result.report).toBe(true);
    expect(result.breaking).toBe(false);
    expect(result.changes.length).toBeGreaterThan(0);
  });
});

describe('a breaking change passes only as a new major with a changelog entry', () => {
  let bumped: string;
  beforeAll(() => {
    bumped = copy((doc) => {
      removeEnumValue(doc);
      doc.info.version = '2.0.0';
    });
  });

  it('passes with info.version 2.0.0 and `## 2.0.0`', () => {
    const result = gate(bumped, changelog2);
    expect(result.ok, result.report).toBe(true);
    expect(result.breaking).toBe(true);
  });

  it('fails with info.version 2.0.0 but no `## 2.0.0`', () => {
    const result = gate(bumped, changelog1);
    expect(result.ok, result.report).toBe(false);
    expect(result.reasons).toEqual([expect.stringContaining('no `## 2.0.0` heading')]);
  });

  it('fails with `## 2.0.0` but info.version still 1.0.0, or only a minor bump', () => {
    for (const version of ['1.0.0', '1.1.0']) {
      const result = gate(
        copy((doc) => {
          removeEnumValue(doc);
          doc.info.version = version;
        }),
        `## ${version}\n\n${changelog2}`,
      );
      expect(result.ok, result.report).toBe(false);
      expect(result.reasons).toEqual([expect.stringContaining('needs a higher major')]);
    }
  });
});

// The evolution policy (docs/guides/versioning.md), on copies of the working contract, whose answers
// are open: what the service may add passes, and closing what partners' clients rely on staying open
// breaks. redocly diff alone rates the first major and the others patch.
describe('the evolution policy corrects the ratings of answers', () => {
  let open: OpenDoc;
  let openFile: string;
  beforeAll(() => {
    open = JSON.parse(readFileSync(path.join(repoRoot, 'generated', 'openapi.json'), 'utf8')) as OpenDoc;
    openFile = path.join(dir, 'open-base.json');
    writeFileSync(openFile, JSON.stringify(open));
  });
  const edited = (edit: (doc: OpenDoc) => void) => {
    const doc = structuredClone(open);
    edit(doc);
    const file = path.join(dir, `open-${++copies}.json`);
    writeFileSync(file, JSON.stringify(doc));
    return checkCompatibility({ base: openFile, revision: file, changelog: '' }) as Result & {
      summary: Record<string, number>;
    };
  };
  const summary = (doc: OpenDoc) => doc.components.schemas.PaymentSessionStatusSummary!;

  it('a value added to an open enum of an answer is compatible', () => {
    const result = edited((doc) => summary(doc).anyOf![0]!.enum!.push('Partially Settled'));
    expect(result.breaking, formatReport(result)).toBe(false);
    expect(rules(result)).toContain('(enum-values-added)');
    expect(rules(result)).toContain('compatible (evolution policy)');
  });

  it('a property added to an answer is compatible', () => {
    const result = edited((doc) => {
      doc.components.schemas.CaptureResponse!.properties!.captured_at = { type: 'string', description: 'When.' };
    });
    expect(result.breaking, formatReport(result)).toBe(false);
    expect(result.changes.length).toBeGreaterThan(0);
  });

  it.each([
    [
      'an answer schema closed',
      (doc: OpenDoc) => {
        doc.components.schemas.CaptureResponse!.additionalProperties = false;
      },
      'answer-closed',
    ],
    [
      'an open enum closed into an enum',
      (doc: OpenDoc) => {
        const schema = summary(doc);
        schema.enum = schema.anyOf![0]!.enum;
        delete schema.anyOf;
      },
      'enum-closed',
    ],
    [
      'an open enum that lost its string fallback',
      (doc: OpenDoc) => {
        summary(doc).anyOf!.pop();
      },
      'enum-closed',
    ],
    [
      'an answer pointed at a new, closed schema',
      (doc: OpenDoc) => {
        doc.components.schemas.CaptureResponseV2 = {
          type: 'object',
          properties: { id: { type: 'string' } },
          additionalProperties: false,
        };
        (doc as unknown as { paths: Record<string, any> }).paths[
          '/payments/v1/payment_session/{business_id}/capture'
        ].post.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/CaptureResponseV2' };
      },
      'answer-closed',
    ],
    [
      'an answer pointed at a new, closed enum',
      (doc: OpenDoc) => {
        doc.components.schemas.ClosedSummary = { type: 'string', enum: ['Captured'] };
        doc.components.schemas.PaymentSessionFields!.properties!.status_summary = {
          $ref: '#/components/schemas/ClosedSummary',
        } as OpenSchema;
      },
      'enum-closed',
    ],
    [
      'an inline error enum closed',
      (doc: OpenDoc) => {
        const error = doc.components.schemas.PaymentSessionCaptureError!.properties!.error!;
        error.enum = error.anyOf![0]!.enum;
        delete error.anyOf;
      },
      'enum-closed',
    ],
  ] as const)('%s is breaking', (_name, edit, rule) => {
    const result = edited(edit);
    expect(result.breaking, formatReport(result)).toBe(true);
    expect(rules(result)).toContain(`(${rule})`);
  });

  it("a value added to a request's closed list stays as redocly rates it (a request widened: compatible)", () => {
    const result = edited((doc) => doc.components.schemas.RefundReasonInput!.enum!.push('goodwill'));
    expect(result.breaking, formatReport(result)).toBe(false);
  });
});

// Generated names are an interface: a client generated from the contract names its types and enum
// constants after the component schemas (`RefundReason.CUSTOMER_REQUEST`), so renaming or removing
// one breaks partners' builds while the wire stays as it was. redocly diff rates a rename patch.
describe('a renamed or removed component schema is a source break', () => {
  // Renames a schema of the release and every reference to it: the same wire under another name.
  const rename = (from: string, to: string) => (doc: Doc) => {
    const text = JSON.stringify(doc.components.schemas).replaceAll(
      `"#/components/schemas/${from}"`,
      `"#/components/schemas/${to}"`,
    );
    doc.components.schemas = JSON.parse(text) as Doc['components']['schemas'];
    doc.components.schemas[to] = doc.components.schemas[from]!;
    delete doc.components.schemas[from];
  };
  type Parameter = { name: string; schema: { items?: unknown } };
  const listParameter = (doc: Doc, name: string) =>
    (doc.paths['/payments/v1/payment_sessions']!.get as { parameters: Parameter[] }).parameters.find(
      (p) => p.name === name,
    )!;
  const sources = (result: Result) => result.changes.filter((c) => c.impact === 'source');
  const changelogNaming = (names: string) =>
    `# Changelog\n\n## 2.0.0\n\n- **Breaking, for generated code only:** ${names}.\n\n${entry1}`;

  it('a schema renamed (RefundReason -> RefundReasonCode) is reported as a source break, apart from the wire', () => {
    const result = gate(copy(rename('RefundReason', 'RefundReasonCode')));
    expect(sources(result), result.report).toEqual([
      {
        impact: 'source',
        kind: 'renamed',
        where: 'components/schemas/RefundReason',
        from: 'RefundReason',
        to: 'RefundReasonCode',
        messages: [
          'Schema RefundReason is renamed RefundReasonCode: generated code names RefundReasonCode and its ' +
            "members where it named RefundReason, so partners' code that names RefundReason no longer builds " +
            '(schema-renamed).',
        ],
      },
    ]);
    // The wire did not break: redocly rates the rename patch, and the gate keeps that rating.
    expect(result.summary).toEqual({ major: 0, minor: 0, patch: result.changes.length - 1, source: 1 });
    expect(result.breaking).toBe(true);
    expect(result.ok).toBe(false);
    expect(result.reasons).toEqual([
      expect.stringContaining('needs a higher major'),
      expect.stringContaining('no `## 2.0.0` heading'),
    ]);
    expect(result.report).toContain(
      '0 major (breaking), 0 minor, 1 patch.\n1 source break(s): generated names that ' +
        "partners' code calls, renamed or removed (the wire is unchanged).",
    );
    expect(result.report).toMatch(
      /\nSource breaks:\n {2}SOURCE {2}renamed {3}components\/schemas\/RefundReason\n {20}Schema RefundReason is /,
    );
    expect(result.report).toContain('FAILED: 1 source breaking change(s) without a new major release.');
  });

  it('a schema removed (RefundReason written inline where it was named) is reported as removed', () => {
    const result = gate(
      copy((doc) => {
        const request = schema(doc, 'CreateRefundRequest');
        request.properties!.reason = { ...schema(doc, 'RefundReason'), description: 'Why the refund is made.' };
        delete doc.components.schemas.RefundReason;
      }),
    );
    expect(sources(result), result.report).toEqual([
      {
        impact: 'source',
        kind: 'removed',
        where: 'components/schemas/RefundReason',
        from: 'RefundReason',
        messages: [
          "Schema RefundReason is removed: generated code has no type RefundReason any more, so partners' code " +
            'that names it no longer builds (schema-removed).',
        ],
      },
    ]);
    expect(result.summary.major).toBe(0);
    expect(result.breaking).toBe(true);
    expect(result.ok).toBe(false);
  });

  it('a schema split in two is renamed to the part written exactly as it was', () => {
    const result = gate(
      copy((doc) => {
        const status = schema(doc, 'PaymentSessionStatus');
        rename('PaymentSessionStatus', 'PaymentSessionState')(doc);
        listParameter(doc, 'status').schema.items = { $ref: '#/components/schemas/PaymentSessionStatusFilter' };
        doc.components.schemas.PaymentSessionStatusFilter = { ...status, description: 'What the list filters by.' };
      }),
    );
    expect(
      sources(result).map(({ kind, from, to }) => ({ kind, from, to })),
      result.report,
    ).toEqual([{ kind: 'renamed', from: 'PaymentSessionStatus', to: 'PaymentSessionState' }]);
  });

  it("a place pointed at another schema (a request's own closed list) is a source break; the old schema stays", () => {
    const result = gate(
      copy((doc) => {
        doc.components.schemas.RefundReasonInput = structuredClone(schema(doc, 'RefundReason'));
        const reason = { $ref: '#/components/schemas/RefundReasonInput' };
        schema(doc, 'CreateRefundRequest').properties!.reason = reason as Schema;
      }),
    );
    expect(sources(result), result.report).toEqual([
      {
        impact: 'source',
        kind: 'moved',
        where: 'components/schemas/CreateRefundRequest/properties/reason',
        from: 'RefundReason',
        to: 'RefundReasonInput',
        messages: [
          'This place named RefundReason and names RefundReasonInput now: generated code types it ' +
            "RefundReasonInput instead of RefundReason, so partners' code that passes or reads a RefundReason here no " +
            'longer builds (schema-ref-moved).',
        ],
      },
    ]);
  });

  it('a parameter that names an inline schema instead of a named one is a move, named by the parameter', () => {
    const result = gate(
      copy((doc) => {
        listParameter(doc, 'status').schema.items = { type: 'string', enum: ['captured'] };
      }),
    );
    expect(
      sources(result).map((c) => [c.kind, c.to, c.messages[0]!.split(':')[0]]),
      result.report,
    ).toEqual([
      ['moved', 'an inline schema', 'The parameter `status` named PaymentSessionStatus and names an inline schema now'],
    ]);
    expect(sources(result)[0]!.messages[0]).toContain(
      'generated code types it with a name of its own instead of PaymentSessionStatus',
    );
  });

  it('a reference made nullable (anyOf with null) still names the schema: no source break', () => {
    const result = gate(
      copy((doc) => {
        schema(doc, 'EligibilityResponse').properties!.eligibility_status = {
          anyOf: [{ $ref: '#/components/schemas/EligibilityStatus' }, { type: 'null' }],
          description: 'Letter status of the customer.',
        } as Schema;
      }),
    );
    expect(sources(result), result.report).toEqual([]);
    expect(result.summary.source).toBe(0);
  });

  it('passes as a new major whose changelog entry names each old schema, and fails while one is not named', () => {
    const renamed = copy((doc) => {
      rename('RefundReason', 'RefundReasonCode')(doc);
      rename('DisputeState', 'DisputePhase')(doc);
      doc.info.version = '2.0.0';
    });
    const named = gate(
      renamed,
      changelogNaming('`RefundReason` -> `RefundReasonCode`, `DisputeState` -> `DisputePhase`'),
    );
    expect(named.ok, named.report).toBe(true);
    // DisputeState is an open enum: renamed, it is the same open enum, not one closed under a new name.
    expect(named.summary.major).toBe(0);
    expect(named.report).toContain('PASSED: released as a new major, 2.0.0, with a CHANGELOG.md entry.');
    // A name in another version's entry, or without backticks, is not listed for this one.
    const elsewhere = '\n## 0.9.0\n\n- `DisputeState`\n';
    const unnamed = gate(renamed, `${changelogNaming('RefundReason -> RefundReasonCode')}${elsewhere}`);
    expect(unnamed.ok, unnamed.report).toBe(false);
    expect(unnamed.reasons).toEqual([
      "CHANGELOG.md's `## 2.0.0` entry does not name `RefundReason`, `DisputeState`: " +
        'list each renamed, removed or replaced schema (old name -> new name) for partners whose generated code ' +
        'names it.',
    ]);
    expect(unnamed.report).toContain('FAILED: 2 source breaking change(s) without a new major release.');
  });

  it('a wire break and a source break together are counted apart', () => {
    const result = gate(
      copy((doc) => {
        removeEnumValue(doc);
        rename('RefundReason', 'RefundReasonCode')(doc);
      }),
    );
    expect(result.summary.source, result.report).toBe(1);
    expect(result.summary.major).toBeGreaterThan(0);
    expect(result.report).toContain(
      `FAILED: ${result.summary.major} wire and 1 source breaking change(s) without a new major release.`,
    );
    // Wire breaks first, then the source breaks, then what passes.
    expect(result.changes.map((c) => c.impact).join(' ')).toMatch(/^(major )+source( patch)*$/);
  });
});

describe('latestRelease', () => {
  it('picks the highest X.Y.Z.yaml, by number', () => {
    const releases = mkdtempSync(path.join(dir, 'releases-'));
    for (const file of ['1.0.0.yaml', '1.9.0.yaml', '1.10.0.yaml', '2.0.0-beta.1.yaml', 'README.md']) {
      writeFileSync(path.join(releases, file), '');
    }
    expect(path.basename(latestRelease(releases) as string)).toBe('1.10.0.yaml');
  });
});
