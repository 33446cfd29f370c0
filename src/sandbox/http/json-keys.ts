// What JSON.parse does not tell: a key written twice in one object (RFC 8259 leaves its meaning
// open; JSON.parse keeps the last, a reader of the log or a proxy may take the first), and the keys
// that fastify's parser drops unseen (`__proto__`, a `constructor` with a `prototype`). The
// Administration helpers, whose bodies say who a key is for, refuse both rather than guess.
import { quoted } from '../domain/errors.js';

/** Keys no body of the Administration helpers has, which a JavaScript object treats apart. */
const OBJECT_MACHINERY = new Set(['__proto__', 'constructor', 'prototype']);

const JSON_WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Why a JSON text's keys are refused (a key twice in one object, or one of OBJECT_MACHINERY), or
 * undefined. `text` is valid JSON (JSON.parse took it): every string ends, and each `{` and `[`
 * is closed in order.
 */
export function strictKeysProblem(text: string): string | undefined {
  // The keys of each open object; null for an open array.
  const open: Array<Set<string> | null> = [];
  for (let at = 0; at < text.length; at++) {
    const character = text[at];
    if (character === '{') open.push(new Set());
    else if (character === '[') open.push(null);
    else if (character === '}' || character === ']') open.pop();
    else if (character === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      let next = end + 1;
      while (JSON_WHITESPACE.has(text[next]!)) next++;
      if (keys && text[next] === ':') {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (keys.has(key)) return `the key ${quoted(key)} appears twice in one object`;
        if (OBJECT_MACHINERY.has(key)) return `the key ${quoted(key)} is no field of this operation`;
        keys.add(key);
      }
      at = end;
    }
  }
  return undefined;
}
