// The frame of every hosted page: inline styles only (nothing loaded from elsewhere), a sandbox
// banner with the test cards, and form fields whose errors are tied to them and announced.
import { TEST_CARDS } from '../domain/test-cards.js';
import { escapeHtml } from './page.js';
import type { FormValues } from './customer-form.js';
import { FORM_TOKEN_FIELD } from './form-token.js';

export interface Page {
  status: number;
  html: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem;color:#1a1a1a;line-height:1.5}
.banner{background:#fff4d6;border:1px solid #8a6d00;padding:.5rem 1rem;margin-bottom:1rem}
.banner code{font-size:.95em}
fieldset{border:1px solid #767676;margin:0 0 1rem;padding:.5rem 1rem}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
.choice label{display:inline;font-weight:400}
input,select,button{font:inherit;padding:.4rem}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid #b00020}
.error{color:#b00020;margin:.2rem 0}
.summary{border:2px solid #b00020;padding:.5rem 1rem}
button{background:#0b57d0;color:#fff;border:0;padding:.6rem 1.2rem;cursor:pointer}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #ddd}`;

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export function page(title: string, body: string, status = 200): Page {
  const cards = TEST_CARDS.map((c) => `<li><code>${c.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code>: ${escapeHtml(c.meaning)}</li>`).join('');
  return {
    status,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>` +
      `<aside class="banner" aria-label="Sandbox"><strong>Sandbox.</strong> No real payment is made. Test cards (any future expiry, any CVC):<ul>${cards}</ul></aside>` +
      `<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  };
}

/** The errors of a form, listed first and announced, each linking to its field. */
export function errorSummary(errors: Record<string, string>, labels: Record<string, string>): string {
  const entries = Object.entries(errors);
  if (entries.length === 0) return '';
  const items = entries.map(([field, message]) => `<li><a href="#${field}">${escapeHtml(labels[field] ?? field)}: ${escapeHtml(message)}</a></li>`).join('');
  // Announced (role=alert) and focused, so that a keyboard user starts from the list of errors.
  return `<div class="summary" role="alert" tabindex="-1" id="errors"><h2>Please correct ${entries.length === 1 ? 'this' : 'these'}</h2><ul>${items}</ul></div>` +
    `<script>document.getElementById('errors').focus();</script>`;
}

/** A labelled text input, its error next to it. */
export function textField(name: string, label: string, values: FormValues, errors: Record<string, string>, extra = ''): string {
  const error = errors[name];
  return `<label for="${name}">${escapeHtml(label)}</label>` +
    `<input id="${name}" name="${name}" value="${escapeHtml(values[name] ?? '')}" ${extra}${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>` +
    (error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : '');
}

/** A labelled select, its error next to it. */
export function selectField(name: string, label: string, options: Record<string, string>, selected: string | undefined, errors: Record<string, string>): string {
  const error = errors[name];
  const choices = [`<option value="">Choose…</option>`, ...Object.entries(options).map(([value, text]) =>
    `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(text)}</option>`)].join('');
  return `<label for="${name}">${escapeHtml(label)}</label><select id="${name}" name="${name}"${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>${choices}</select>` +
    (error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : '');
}

/** Radio buttons in a fieldset with its legend, its error next to it. */
export function radioField(name: string, legend: string, options: Array<[string, string]>, selected: string | undefined, errors: Record<string, string>): string {
  const error = errors[name];
  const radios = options.map(([value, text], i) =>
    `<div class="choice"><input type="radio" id="${name}-${i}" name="${name}" value="${escapeHtml(value)}"${value === selected ? ' checked' : ''}${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>` +
    ` <label for="${name}-${i}">${escapeHtml(text)}</label></div>`).join('');
  return `<fieldset id="${name}"><legend>${escapeHtml(legend)}</legend>${radios}${error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ''}</fieldset>`;
}

/** Where a page's form is sent, with the token that proves it was sent from the page. */
export interface FormTarget {
  action: string;
  token: string;
}

/** The opening of a page's form, its token first. */
export const formStart = (target: FormTarget, attributes = '') =>
  `<form method="post" action="${escapeHtml(target.action)}"${attributes}><input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escapeHtml(target.token)}">`;

/** Hidden inputs that carry the form's values to the next step. */
export const hidden = (values: FormValues, names: string[]) =>
  names.map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(values[name] ?? '')}">`).join('');

/** Reads the outcome the page carries as data, and reports it: see endPage. */
const END_OF_FLOW_SCRIPT = "{ const outcome = JSON.parse(document.getElementById('outcome').textContent);" +
  ' if (parent !== window) parent.postMessage({ success: outcome.success, redirectUrl: outcome.redirectUrl }, new URL(outcome.redirectUrl).origin);' +
  ' else location.replace(outcome.redirectUrl); }';

/**
 * The end of a flow in iframe mode: the reference's message to the parent window,
 * {success, redirectUrl}, posted only to the origin of the URL it reports (the partner's page),
 * never to any window ('*'). Opened on its own, not framed, the page goes to that URL instead.
 */
export function endPage(title: string, success: boolean, redirectUrl: string): Page {
  const outcome = JSON.stringify({ success, redirectUrl }).replace(/</g, '\\u003c');
  return page(title, `<p>${success ? 'Done.' : 'This could not be completed.'} <a href="${escapeHtml(redirectUrl)}" target="_top">Continue</a></p>` +
    `<script type="application/json" id="outcome">${outcome}</script><script>${END_OF_FLOW_SCRIPT}</script>`);
}
