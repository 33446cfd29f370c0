// The breaking-change gate (`npm run diff`, and tests/spec/breaking-change.test.ts in `npm test`).
// Compares the bundled contract, generated/openapi.yaml (kept fresh by tests/spec/freshness.test.ts),
// with the newest release in openapi/releases/. `redocly diff` rates each change major, minor or
// patch by its direction (request or response), and the evolution policy (docs/guides/versioning.md,
// lib/evolution.ts) corrects it for what the service sends: a value added to an open enum of an
// answer is compatible (redocly rates every enum value gained in a response major), and an answer's
// object schema or open enum that is closed now is breaking (redocly rates both patch). Beside these
// wire changes, the gate reports source breaks (lib/source-names.ts): a component schema renamed
// or removed, or a place that names another schema now, which leave the wire as it was but rename
// what partners' generated code calls. A breaking change of either class passes only when
// info.version has a higher major than the release AND CHANGELOG.md has a heading for that version;
// a source break also needs that entry to name each old schema name.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { addsToOpenEnum, evolutionBreaks } from './lib/evolution.ts';
import { changelogEntry, sourceBreaks, unlistedNames } from './lib/source-names.ts';
import { root, runTool } from './lib/tools.ts';

const releaseFile = /^(\d+)\.(\d+)\.(\d+)\.yaml$/;
const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The newest release: the highest X.Y.Z.yaml in dir (numeric, so 1.10.0 beats 1.9.0), or undefined. */
export function latestRelease(dir = path.join(root, 'openapi', 'releases')) {
  const versions = readdirSync(dir).flatMap((file) => {
    const m = releaseFile.exec(file);
    return m ? [{ file, parts: m.slice(1).map(Number) }] : [];
  });
  versions.sort((a, b) => a.parts[0] - b.parts[0] || a.parts[1] - b.parts[1] || a.parts[2] - b.parts[2]);
  const newest = versions.at(-1);
  return newest && path.join(dir, newest.file);
}

// Runs `redocly diff` and returns its JSON report.
function redoclyDiff(base, revision) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'contract-diff-'));
  try {
    // Diff rules are off unless a config turns them on, and the project's redocly.yaml (lint only)
    // does not: with it, `redocly diff` rates every change patch and passes. A throwaway config does.
    const config = path.join(tmp, 'redocly.yaml');
    writeFileSync(config, 'extends:\n  - diff-recommended\ntelemetry: off\n');
    const report = path.join(tmp, 'diff.json');
    // --fail-on none: the gate below decides, not redocly. The report goes to a file because
    // runTool returns stdout and stderr together (with Redocly's Node notice).
    runTool(
      'redocly',
      [
        'diff',
        path.resolve(base),
        path.resolve(revision),
        '--config',
        config,
        '--format',
        'json',
        '--fail-on',
        'none',
        '-o',
        report,
      ],
      { quiet: true },
    );
    return JSON.parse(readFileSync(report, 'utf8'));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

// A change's JSON pointer as a reader says it: "POST /payments/v1/refund: requestBody/… · required".
function where({ path: pointer, property }) {
  let parts = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  let head = '';
  if ((parts[0] === 'paths' || parts[0] === 'webhooks') && parts.length > 1) {
    const method = methods.has(parts[2]) ? `${parts[2].toUpperCase()} ` : '';
    head = `${parts[0] === 'webhooks' ? 'webhook ' : ''}${method}${parts[1]}`;
    parts = parts.slice(method ? 3 : 2);
  }
  const rest = parts.join('/') + (property ? `${parts.length ? ' · ' : ''}${property}` : '');
  return head && rest ? `${head}: ${rest}` : head || rest || 'document';
}

const majorOf = (version) => Number(/^(\d+)\.\d+\.\d+/.exec(version ?? '')?.[1] ?? Number.NaN);
// "## 2.0.0" or "## [2.0.0] - date", but not "## 2.0.0-beta.1".
const hasHeading = (changelog, version) =>
  new RegExp(`^##\\s+\\[?${version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]?(\\s|$)`, 'm').test(changelog);

/**
 * The gate. base, revision: paths of bundled documents; changelog: the text of CHANGELOG.md.
 * Returns { ok, breaking, base, revision, summary, changes, reasons, verdict }: summary counts the
 * wire's ratings (major, minor, patch) and the source breaks (source), each change has its impact.
 */
export function checkCompatibility({ base, revision, changelog }) {
  const diff = redoclyDiff(base, revision);
  const [baseDoc, revisionDoc] = [base, revision].map((file) => parse(readFileSync(file, 'utf8')));
  const rated = diff.changes.map((c) => ({
    impact: c.impact === 'major' && addsToOpenEnum(revisionDoc, c) ? 'minor' : c.impact,
    kind: c.kind,
    where: where(c),
    messages: c.verdicts.map((v) => `${v.message} (${v.ruleId})`),
  }));
  for (const c of rated)
    if (c.messages.some((m) => m.endsWith('(enum-values-added)')) && c.impact === 'minor')
      c.messages.push('A value added to an open enum of an answer: compatible (evolution policy).');
  const source = sourceBreaks(baseDoc, revisionDoc);
  const renames = new Map(source.filter((c) => c.kind === 'renamed').map((c) => [c.from, c.to]));
  const all = [
    ...rated,
    ...evolutionBreaks(baseDoc, revisionDoc, renames),
    ...source.map(({ at, ...rest }) => ({ ...rest, where: where({ path: at }) })),
  ];
  const summary = { major: 0, minor: 0, patch: 0, source: 0 };
  for (const c of all) summary[c.impact] += 1;
  const from = diff.infoVersions.base;
  const to = diff.infoVersions.revision;
  const breaking = summary.major > 0 || summary.source > 0;
  const reasons = [];
  let verdict = breaking ? `released as a new major, ${to}, with a CHANGELOG.md entry` : 'no breaking change';
  if (breaking) {
    const bumped = majorOf(to) > majorOf(from);
    // The heading the changelog needs: the bumped version, or the one info.version should become.
    const next = bumped ? to : Number.isNaN(majorOf(from)) ? 'the new major' : `${majorOf(from) + 1}.0.0`;
    if (!bumped) {
      reasons.push(
        `info.version is ${to} and the release is ${from}: a breaking change needs a higher major. ` +
          `Set info.version to ${next} in openapi/openapi.yaml and run \`npm run build\`.`,
      );
    }
    if (!hasHeading(changelog, next)) {
      reasons.push(
        `CHANGELOG.md has no \`## ${next}\` heading: add one listing the breaking changes, marked **Breaking**.`,
      );
    } else {
      // Partners fix their builds from this list: each old name, in backticks, with what replaced it.
      const unlisted = unlistedNames(source, changelogEntry(changelog, next));
      if (unlisted.length) {
        const names = unlisted.map((name) => `\`${name}\``).join(', ');
        reasons.push(
          `CHANGELOG.md's \`## ${next}\` entry does not name ${names}: list each renamed, removed or ` +
            'replaced schema (old name -> new name) for partners whose generated code names it.',
        );
      }
    }
    verdict = reasons.length ? `${breakingCount(summary)} without a new major release` : verdict;
  }
  const rank = { major: 0, source: 1, minor: 2, patch: 3 };
  // Breaking changes first; redocly sorts by pointer.
  const changes = all.toSorted((a, b) => rank[a.impact] - rank[b.impact]);
  return {
    ok: reasons.length === 0,
    breaking,
    base: { file: base, version: from },
    revision: { file: revision, version: to },
    summary,
    changes,
    reasons,
    verdict,
  };
}

// "2 wire and 1 source breaking change(s)", naming only the classes present.
function breakingCount({ major, source }) {
  const classes = [major && `${major} wire`, source && `${source} source`].filter(Boolean).join(' and ');
  return `${classes} breaking change(s)`;
}

/** The result as the text `npm run diff` prints. */
export function formatReport(result) {
  // Paths inside the repository relative to it; others (the tests' copies) as they are.
  const rel = (file) =>
    path.resolve(file).startsWith(root + path.sep) ? path.relative(root, path.resolve(file)) : file;
  const { major, minor, patch, source } = result.summary;
  const wire = result.changes.filter((c) => c.impact !== 'source');
  const lines = [
    `Breaking-change gate: ${rel(result.base.file)} (${result.base.version}) -> ${rel(result.revision.file)} (${result.revision.version})`,
    `${wire.length} change(s) on the wire, rated by redocly diff: ${major} major (breaking), ${minor} minor, ` +
      `${patch} patch.`,
    `${source} source break(s): generated names that partners' code calls, renamed or removed (the wire is unchanged).`,
  ];
  const show = (c) => [
    `  ${c.impact.toUpperCase().padEnd(6)}  ${c.kind.padEnd(8)}  ${c.where}`,
    ...c.messages.map((m) => `${' '.repeat(20)}${m}`),
  ];
  lines.push(...wire.flatMap(show));
  if (source) lines.push('Source breaks:', ...result.changes.filter((c) => c.impact === 'source').flatMap(show));
  lines.push(
    result.ok ? `PASSED: ${result.verdict}.` : `FAILED: ${result.verdict}.`,
    ...result.reasons.map((r) => `  - ${r}`),
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const base = latestRelease();
    if (!base) throw new Error('No release in openapi/releases/ (see its README.md).');
    const result = checkCompatibility({
      base,
      revision: path.join(root, 'generated', 'openapi.yaml'),
      changelog: readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'),
    });
    console.log(formatReport(result));
    if (!result.ok) process.exitCode = 1;
  } catch (error) {
    console.error(error.message);
    process.exitCode = 1;
  }
}
