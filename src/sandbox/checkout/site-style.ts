// The look of the docs site (build/docs/site.css: its colours, its top bar, its cards), for the
// sandbox's own pages that are not part of a checkout: the index page and the return pages. One
// inline style, allowed by its hash (inline-assets.ts), so that these pages load nothing, even
// when the docs are not built.
import { inlineAsset } from './inline-assets.js';

export const SITE_STYLE = inlineAsset(
  'style',
  `:root{--ink:#111827;--muted:#4b5563;--accent:#3730a3;--line:#e5e7eb;--soft:#f5f7ff;--ok:#166534;--ko:#9f1239}
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--ink)}
a{color:var(--accent)}
.skip{position:absolute;left:-9999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem;z-index:10}
.top{display:flex;align-items:center;gap:2rem;flex-wrap:wrap;padding:.75rem 1.5rem;` +
    `border-bottom:1px solid var(--line);background:#fff}
.top .brand{font-weight:700;color:var(--ink);text-decoration:none}
.top nav{display:flex;gap:1.25rem;flex-wrap:wrap}
.top nav a{text-decoration:none;color:var(--muted);padding:.25rem 0}
main{max-width:1180px;margin:0 auto;padding:1.5rem}
h1{font-size:2rem;line-height:1.2;margin:.5rem 0 1rem}
h2{margin-top:2.2rem;border-bottom:1px solid var(--line);padding-bottom:.3rem}
.lead{font-size:1.15rem;color:var(--muted);max-width:46rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:1rem;margin:1.5rem 0}
.card{display:block;padding:1rem 1.25rem;border:1px solid var(--line);border-radius:10px;text-decoration:none;` +
    `color:var(--ink)}
.card:hover,.card:focus{border-color:var(--accent)}
.card h2{margin:0 0 .4rem;border:0;padding:0;font-size:1.15rem;color:var(--accent)}
.card p{margin:0;color:var(--muted)}
code{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f4f6;padding:.1em .3em;` +
    `border-radius:4px;overflow-wrap:anywhere}
ul.links li{margin:.3rem 0}
.banner{margin:0 0 1.5rem;padding:.75rem 1rem;background:#fef9c3;border:1px solid #a16207;border-radius:8px}
.outcome{padding:1rem 1.25rem;border:1px solid var(--line);border-left:6px solid var(--muted);` +
    `border-radius:10px;max-width:46rem}
.outcome.ok{border-left-color:var(--ok)}.outcome.ko{border-left-color:var(--ko)}
dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.3rem 1.5rem;margin:1rem 0 0}
dt{color:var(--muted)}dd{margin:0}`,
);

/**
 * The policy of a page with this style alone: it loads nothing, runs nothing, posts no form and is framed by no one.
 */
export const SITE_PAGE_POLICY =
  `default-src 'none'; style-src ${SITE_STYLE.source}; base-uri 'none'; form-action ` +
  `'none'; frame-ancestors 'none'`;
