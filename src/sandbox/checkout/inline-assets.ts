// The hosted pages' only style and scripts. They are inline (a page loads nothing from elsewhere),
// and each is allowed by its SHA-256 hash in the page's Content-Security-Policy
// (content-security.ts), so that nothing else can run: a script slipped into a page has no hash.
// Each is constant text; what varies (the outcome an end page reports) is data the script reads.
import { createHash } from 'node:crypto';

export interface InlineAsset {
  /** The element as the page carries it. */
  element: string;
  /** Its CSP hash source, `'sha256-…'`. */
  source: string;
}

/** An inline element and the hash that allows it. */
export const inlineAsset = (tag: 'style' | 'script', text: string): InlineAsset => ({
  element: `<${tag}>${text}</${tag}>`,
  source: `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
});

export const PAGE_STYLE = inlineAsset(
  'style',
  `body{font-family:system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem;color:#1a1a1a;line-height:1.5}
.banner{background:#fff4d6;border:1px solid #8a6d00;padding:.5rem 1rem;margin-bottom:1rem}
.banner code{font-size:.95em}
fieldset{border:1px solid #767676;margin:0 0 1rem;padding:.5rem 1rem}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
.choice label{display:inline;font-weight:400}
input,select,button{font:inherit;padding:.4rem}
input[aria-invalid=true],select[aria-invalid=true]{border:2px solid #b00020}
.error{color:#b00020;margin:.2rem 0}
.summary{border:2px solid #b00020;padding:.5rem 1rem}
button{background:#0b57d0;color:#fff;border:2px solid #0b57d0;padding:.6rem 1.2rem;cursor:pointer}
button.secondary{background:#fff;color:#0b57d0}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem;border-bottom:1px solid #ddd}`,
);

/** A form shown again with errors: the keyboard starts from their list. */
export const FOCUS_ERRORS = inlineAsset('script', "document.getElementById('errors').focus();");

/**
 * The end of a flow in iframe mode: reads the outcome the page carries as data (#outcome) and
 * posts it to the parent window, only to the origin of the URL it reports; a page opened without a
 * frame goes to that URL instead.
 */
export const END_OF_FLOW = inlineAsset(
  'script',
  "{ const outcome = JSON.parse(document.getElementById('outcome').textContent);" +
    ' if (parent !== window) parent.postMessage({ success: outcome.success, redirectUrl: outcome.redirectUrl }, ' +
    'new URL(outcome.redirectUrl).origin);' +
    ' else location.replace(outcome.redirectUrl); }',
);

export const SCRIPTS: readonly InlineAsset[] = [FOCUS_ERRORS, END_OF_FLOW];
