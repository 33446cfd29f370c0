// A request path as the router sees it: each segment decoded on its own, so that an encoded '/'
// stays inside its segment (as %2F), and an undecodable segment is kept as sent (it names no route).
export function decodedSegments(rawPath: string): string {
  return rawPath
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, '%2F');
      } catch {
        return segment;
      }
    })
    .join('/');
}
