// The pages of a form the sandbox refuses to act on: it came from another site, or it does not
// carry its page's token. Each says that nothing happened and how to go on; both answer 403.
import { page, type Page } from './layout.js';
import { escapeHtml } from './page.js';

export const crossSitePage = (): Page =>
  page(
    'This form came from another site',
    '<p>The checkout takes its form only from its own page. Nothing was paid or changed.</p>' +
      '<p>If you were paying, go back to the store and open its checkout again.</p>',
    403,
  );

/** `href`: the page the form belongs to, which gives a fresh form. */
export const staleFormPage = (href: string): Page =>
  page(
    'This form has expired',
    "<p>The form did not carry this page's security token. Nothing was paid or changed.</p>" +
      `<p><a href="${escapeHtml(href)}">Open the page again</a> and send the form from there.</p>`,
    403,
  );
