// How the page writes amounts, times, codes and states.
import { h } from './dom.js';

export type Tone = 'ok' | 'bad' | 'wait' | 'plain';

export const dollars = (cents: number | null | undefined) =>
  typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : '—';

export const when = (iso: string | null | undefined) =>
  iso ? h('time', { datetime: iso }, iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')) : '—';

export const code = (text: string) => h('code', {}, text);

export const badge = (text: string, tone: Tone) => h('span', { class: `badge ${tone}` }, text);
