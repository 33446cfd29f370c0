// The contract's links name the body fields they set in `x-request-body` (an object of runtime
// expressions), because openapi-generator refuses a link whose `requestBody` is not a string.
// Schemathesis reads a link's `requestBody` and merges such an object into the body it generates,
// so the document it tests is a copy where each link's `x-request-body` becomes its `requestBody`.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each link of the document (under a response's `links`, or `components.links`), in place. */
function eachLink(document: Record<string, Json>, visit: (link: Record<string, Json>) => void): void {
  const linksOf = (holder: Json | undefined) => {
    if (!isObject(holder) || !isObject(holder.links)) return;
    for (const link of Object.values(holder.links)) if (isObject(link)) visit(link);
  };
  const components = isObject(document.components) ? document.components : {};
  if (isObject(components.links)) for (const link of Object.values(components.links)) if (isObject(link)) visit(link);
  if (isObject(components.responses)) for (const response of Object.values(components.responses)) linksOf(response);
  for (const pathItem of Object.values(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(pathItem)) continue;
    for (const operation of Object.values(pathItem)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const response of Object.values(operation.responses)) linksOf(response);
    }
  }
}

/**
 * A copy of the document in which every link's `x-request-body` is its `requestBody`. A link that
 * has both is refused: which one holds would be a guess.
 */
export function withLinkRequestBodies<T extends object>(document: T): T {
  const copy = structuredClone(document) as unknown as Record<string, Json>;
  eachLink(copy, (link) => {
    if (!('x-request-body' in link)) return;
    if ('requestBody' in link)
      throw new Error(
        `a link to ${String(link.operationId ?? link.operationRef)} has both requestBody and x-request-body`,
      );
    link.requestBody = link['x-request-body']!;
    delete link['x-request-body'];
  });
  return copy as unknown as T;
}
