// A web site on an origin of its own, serving the pages a test gives it: a site other than the
// sandbox and the partner, for what a foreign page can do to the hosted pages in a real browser.
// It is named `localhost`, not 127.0.0.1 where they listen: another port of the same host would
// be the same site to a browser (Sec-Fetch-Site: same-site), and this one is another site.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Site {
  origin: string;
  /** Serves `html` at `path`; answers its URL. */
  serve(path: string, html: string): string;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const pages = new Map<string, string>();
  const server = http.createServer((request, response) => {
    const html = pages.get(new URL(request.url ?? '/', 'http://site').pathname);
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    serve(path, html) {
      pages.set(path, html);
      return `${origin}${path}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** A page that frames `src` and keeps every message a window posts to it in `window.messages`. */
export const framingPage = (src: string) =>
  `<!doctype html><html lang="en"><head><title>Framing page</title></head><body><main><h1>Framing page</h1>` +
  `<iframe title="Checkout" src="${attribute(src)}" width="600" height="900"></iframe></main>` +
  `<script>window.messages=[];addEventListener('message',(e)=>window.messages.push(e.data));</script></body></html>`;

/** A page whose form posts `fields` to `action` as soon as it loads, as a forged form does. */
export const autoSubmittingForm = (action: string, fields: Record<string, string>) =>
  `<!doctype html><html lang="en"><head><title>You won a prize</title></head><body><form method="post" action="${attribute(action)}">` +
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${attribute(name)}" value="${attribute(value)}">`)
    .join('') +
  `</form><script>document.forms[0].submit();</script></body></html>`;
