// The reference's copy of the contract (generated/openapi.json itself is never changed): the local
// sandbox as its first server, each operation's code samples as Redoc's `x-codeSamples` (curl,
// then each language of the partner matrix, cut from the programs the matrix runs), and a line
// that leads to the same operation in the try-it console. The console's copy gets a line back.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { commentOf, SAMPLE_PROGRAMS, samplesOf } from '../lib/samples.mjs';

/** The sandbox of `npm start`, which the reference offers first. */
export const SANDBOX_SERVER = { url: 'http://127.0.0.1:4010', description: 'local sandbox (npm start)' };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Each operation of a document with its path, method and first tag. */
export function operationsOf(doc) {
  return Object.entries(doc.paths ?? {}).flatMap(([route, item]) =>
    METHODS.filter((method) => item[method]?.operationId).map((method) => ({ route, method, op: item[method] })),
  );
}

/** A name as Redoc and Scalar put it in an anchor: lower case, dashes between words. */
export const anchorSlug = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Where an operation is in the reference (Redoc): `#/<tag-slug>/<operationid>`. */
export const referenceAnchor = ({ op }) => `#/${anchorSlug(op.tags[0])}/${op.operationId.toLowerCase()}`;

/**
 * Where an operation is in the try-it console (Scalar): `#tag/<tag-slug>/<METHOD><path>`. The
 * reference links it as `../try/?operation=<operationId>`, which the console turns into this.
 */
export const consoleAnchor = ({ route, method, op }) =>
  `#tag/${anchorSlug(op.tags[0])}/${method.toUpperCase()}${route}`;

/**
 * The samples of every program of SAMPLE_PROGRAMS, in its order: `{ label, lang, samples:
 * Map<operationId, source> }`. A program that is missing, misses an operation or marks one twice
 * fails the build with its problems.
 */
export function samplePrograms(root, operationIds, programs = SAMPLE_PROGRAMS) {
  return programs.map(({ file, label, lang }) => {
    if (!existsSync(path.join(root, file)))
      throw new Error(`The samples of the reference need ${file}, which is missing`);
    const { samples, problems } = samplesOf(readFileSync(path.join(root, file), 'utf8'), commentOf(file), operationIds);
    if (problems.length > 0)
      throw new Error(`The samples of ${file} cannot be quoted in the reference:\n${problems.join('\n')}`);
    return { label, lang, samples };
  });
}

const withLine = (description, line) => `${description ?? ''}\n\n${line}`.trimStart();

/** The reference's copy: the sandbox first among the servers, the samples and the console's link on every operation. */
export function referenceDocument(doc, programs) {
  const copy = structuredClone(doc);
  copy.servers = [SANDBOX_SERVER, ...(copy.servers ?? []).filter((server) => server.url !== SANDBOX_SERVER.url)];
  for (const entry of operationsOf(copy)) {
    const { op } = entry;
    op['x-codeSamples'] = programs.map(({ label, lang, samples }) => ({
      lang,
      label,
      source: samples.get(op.operationId),
    }));
    op.description = withLine(op.description, `[Try it in the console](../try/?operation=${op.operationId})`);
  }
  return copy;
}

/**
 * Redoc's options for the reference: its code-sample menu lists the samples' languages, in their
 * order (by default it offers its own generated samples, and shows an x-codeSample only for a
 * label it knows).
 */
export const redocOptions = (programs) => ({
  codeSamples: { languages: programs.map(({ label, lang }) => ({ label, lang })) },
});

/** The console's link back: every operation of its copy leads to the same operation in the reference. */
export function withReferenceLinks(doc) {
  for (const entry of operationsOf(doc))
    entry.op.description = withLine(
      entry.op.description,
      `[Read it in the reference](../reference/${referenceAnchor(entry)})`,
    );
  return doc;
}
