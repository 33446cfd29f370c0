// What the page gives its script: a JSON data block (#dashboard-settings), which never runs.
import { element } from './dom.js';

/** The page's anti-forgery token, which Resend sends back. */
export const settings = JSON.parse(element('dashboard-settings').textContent ?? '{}') as { token: string };
