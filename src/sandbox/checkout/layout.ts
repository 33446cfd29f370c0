// The frame of every hosted page: inline styles only (nothing loaded from elsewhere), a sandbox
// banner with the test cards, and form fields whose errors are tied to them and announced.
import { TEST_CARDS } from '../domain/test-cards.js';
import { escapeHtml } from './page.js';
import type { FormValues } from './customer-form.js';
import { FORM_TOKEN_FIELD } from './form-token.js';
import { END_OF_FLOW, FOCUS_ERRORS, PAGE_STYLE, SCRIPTS } from './inline-assets.js';

export interface Page {
  status: number;
  html: string;
  /**
   * What the page's policy must allow (content-security.ts): the hash sources of its scripts, and whether it has a
   * form.
   */
  needs: { scripts: string[]; form: boolean };
}

export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Whose page it is: a payment's checkout, or a payment token's setup (no payment, no hold). */
export type Flow = 'payment' | 'setup';

export function page(title: string, body: string, status = 200, flow: Flow = 'payment'): Page {
  const cards = TEST_CARDS.map(
    (c) =>
      `<li><code>${c.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code>: ` +
      `${escapeHtml(flow === 'setup' ? c.onSetup : c.meaning)}</li>`,
  ).join('');
  const nothingReal = flow === 'setup' ? 'No real card is saved.' : 'No real payment is made.';
  return {
    status,
    html:
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" ` +
      `content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title>${PAGE_STYLE.element}</head><body>` +
      `<aside class="banner" aria-label="Sandbox"><strong>Sandbox.</strong> ${nothingReal} Test cards (any future ` +
      `expiry, any CVC):<ul>${cards}</ul></aside>` +
      `<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    // Found in the body, which holds nothing but these templates and escaped text: a customer's
    // answer cannot spell a tag.
    needs: {
      scripts: SCRIPTS.filter((script) => body.includes(script.element)).map((script) => script.source),
      form: body.includes('<form '),
    },
  };
}

/** The errors of a form, listed first and announced, each linking to its field. */
export function errorSummary(errors: Record<string, string>, labels: Record<string, string>): string {
  const entries = Object.entries(errors);
  if (entries.length === 0) return '';
  const items = entries
    .map(
      ([field, message]) =>
        `<li><a href="#${field}">${escapeHtml(labels[field] ?? field)}: ${escapeHtml(message)}</a></li>`,
    )
    .join('');
  // Announced (role=alert) and focused, so that a keyboard user starts from the list of errors.
  return (
    `<div class="summary" role="alert" tabindex="-1" id="errors"><h2>Please correct ` +
    `${entries.length === 1 ? 'this' : 'these'}</h2><ul>${items}</ul></div>` +
    FOCUS_ERRORS.element
  );
}

/** A labelled text input, its error next to it. */
export function textField(
  name: string,
  label: string,
  values: FormValues,
  errors: Record<string, string>,
  extra: string,
): string {
  const error = errors[name];
  return (
    `<label for="${name}">${escapeHtml(label)}</label>` +
    `<input id="${name}" name="${name}" value="${escapeHtml(values[name] ?? '')}" ` +
    `${extra}${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>` +
    (error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : '')
  );
}

/** A labelled select, its error next to it. */
export function selectField(
  name: string,
  label: string,
  options: Record<string, string>,
  selected: string | undefined,
  errors: Record<string, string>,
): string {
  const error = errors[name];
  const choices = [
    `<option value="">Choose…</option>`,
    ...Object.entries(options).map(
      ([value, text]) =>
        `<option value="${escapeHtml(value)}"${value === selected ? ' selected' : ''}>${escapeHtml(text)}</option>`,
    ),
  ].join('');
  return (
    `<label for="${name}">${escapeHtml(label)}</label><select id="${name}" ` +
    `name="${name}"${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>${choices}</select>` +
    (error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : '')
  );
}

/** Radio buttons in a fieldset with its legend, its error next to it. */
export function radioField(
  name: string,
  legend: string,
  options: Array<[string, string]>,
  selected: string | undefined,
  errors: Record<string, string>,
): string {
  const error = errors[name];
  const radios = options
    .map(
      ([value, text], i) =>
        `<div class="choice"><input type="radio" id="${name}-${i}" name="${name}" ` +
        `value="${escapeHtml(value)}"${value === selected ? ' checked' : ''}` +
        `${error ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>` +
        ` <label for="${name}-${i}">${escapeHtml(text)}</label></div>`,
    )
    .join('');
  return (
    `<fieldset id="${name}"><legend>${escapeHtml(legend)}</legend>${radios}` +
    `${error ? `<p class="error" id="${name}-error">${escapeHtml(error)}</p>` : ''}</fieldset>`
  );
}

/** Where a page's form is sent, with the token that proves it was sent from the page. */
export interface FormTarget {
  action: string;
  token: string;
}

/** The opening of a page's form, its token first. */
export const formStart = (target: FormTarget, attributes = '') =>
  `<form method="post" action="${escapeHtml(target.action)}"${attributes}><input type="hidden" ` +
  `name="${FORM_TOKEN_FIELD}" value="${escapeHtml(target.token)}">`;

/** Hidden inputs that carry the form's values to the next step. */
export const hidden = (values: FormValues, names: string[]) =>
  names.map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(values[name] ?? '')}">`).join('');

/**
 * The end of a flow in iframe mode: the reference's message to the parent window,
 * {success, redirectUrl}, posted only to the origin of the URL it reports (the partner's page),
 * never to any window ('*'). Opened on its own, not framed, the page goes to that URL instead.
 */
export function endPage(success: boolean, redirectUrl: string, flow: Flow): Page {
  const outcome = JSON.stringify({ success, redirectUrl }).replace(/</g, '\\u003c');
  const title = success
    ? flow === 'setup'
      ? 'Your card is saved'
      : 'Your payment is submitted'
    : flow === 'setup'
      ? 'Your card was not saved'
      : 'Your payment was not made';
  return page(
    title,
    `<p><a href="${escapeHtml(redirectUrl)}" target="_top">Return to the store</a></p>` +
      `<script type="application/json" id="outcome">${outcome}</script>${END_OF_FLOW.element}`,
    200,
    flow,
  );
}
