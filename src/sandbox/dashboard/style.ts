// The dashboard's one stylesheet, inline and allowed by its hash: the docs site's look
// (build/docs/site.css: its colours, system fonts, the bar on top), with nothing loaded from
// elsewhere. Colours keep a contrast of at least 4.5:1 on their backgrounds.
import { inlineAsset } from '../checkout/inline-assets.js';

export const DASHBOARD_STYLE = inlineAsset(
  'style',
  `
:root{--ink:#111827;--muted:#4b5563;--accent:#3730a3;--line:#e5e7eb;--soft:#f5f7ff}
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;` +
    `color:var(--ink);background:#fff}
a{color:var(--accent)}
.skip{position:absolute;left:-9999px}
.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem 1rem;z-index:10}
.top{display:flex;align-items:center;gap:2rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
.top .brand{font-weight:700;color:var(--ink);text-decoration:none}
.top nav{display:flex;gap:1.25rem;flex-wrap:wrap}
.top nav a{text-decoration:none;color:var(--muted);padding:.25rem 0}
.top nav a[aria-current="page"]{color:var(--accent);border-bottom:2px solid var(--accent)}
.page{max-width:1180px;margin:0 auto;padding:1.5rem}
h1{font-size:2rem;line-height:1.2;margin:.5rem 0 1rem}
h2{margin-top:2.2rem;border-bottom:1px solid var(--line);padding-bottom:.3rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
.lead{font-size:1.15rem;color:var(--muted);max-width:46rem}
.hint{color:var(--muted);font-size:.95rem;margin:.3rem 0}
.empty{color:var(--muted);font-style:italic}
code,pre{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:#f3f4f6;padding:.1em .3em;border-radius:4px;overflow-wrap:anywhere}
pre{background:#0f172a;color:#e2e8f0;padding:1rem;border-radius:8px;overflow-x:auto;max-height:24rem}
.key{border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;max-width:46rem;background:var(--soft)}
.key label{display:block;font-weight:600;margin-bottom:.3rem}
.key .row{display:flex;gap:.5rem;flex-wrap:wrap}
.key input{font:inherit;padding:.4rem .6rem;border:1px solid #6b7280;border-radius:6px;min-width:16rem;flex:1}
button{font:inherit;padding:.4rem 1rem;border-radius:6px;border:2px solid var(--accent);` +
    `background:var(--accent);color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--accent)}
button.link{background:none;border:0;padding:0;color:var(--accent);text-align:left}
button.link code{background:none;padding:0;text-decoration:underline}
button:disabled{border-color:#6b7280;background:#f3f4f6;color:#4b5563;cursor:default}
button:focus-visible,input:focus-visible,summary:focus-visible,.scroll:focus-visible,` +
    `pre:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.status{margin:1rem 0 .2rem;font-weight:600}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{border:1px solid var(--line);padding:.35rem .55rem;text-align:left;vertical-align:top}
th{background:var(--soft)}
td.amount{text-align:right;white-space:nowrap}
td.answer{max-width:28rem}
tr.selected td{background:#eef2ff}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.85rem;font-weight:600;border:1px solid}
.badge.ok{color:#065f46;background:#ecfdf5;border-color:#065f46}
.badge.bad{color:#991b1b;background:#fef2f2;border-color:#991b1b}
.badge.wait{color:#854d0e;background:#fefce8;border-color:#854d0e}
.badge.plain{color:var(--muted);background:#fff;border-color:var(--muted)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}
.facts dt{font-weight:600}
.facts dd{margin:0}
.timeline{list-style:none;padding:0;margin:.5rem 0;border-left:3px solid var(--line)}
.timeline li{padding:.3rem 0 .3rem 1rem}
.timeline .fired{color:var(--muted)}
.event{border:1px solid var(--line);border-radius:10px;padding:.5rem 1.25rem 1rem;margin:1rem 0}
.event h3{margin-top:.6rem}
.actions{margin:.5rem 0}
.pager{display:flex;gap:.5rem;margin:.5rem 0}
summary{cursor:pointer;color:var(--accent)}
`,
);
