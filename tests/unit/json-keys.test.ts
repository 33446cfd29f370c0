// The Administration helpers' bodies are read strictly: a key twice in one object, or a key that a
// JavaScript object treats apart, is refused rather than silently resolved.
import { describe, expect, it } from 'vitest';
import { strictKeysProblem } from '../../src/sandbox/http/json-keys.js';

describe('the keys of an Administration body', () => {
  it.each([
    '{"channel":"a"}',
    '{"channel":null,"overlap_seconds":5}',
    '[{"a":1},{"a":2}]',
    '{"a":{"b":1},"b":{"a":1}}',
    '{"a":"\\"b\\":","b":1}',
    '{"a":["b","b"]}',
    '{"a" \n : 1, "b"\t: {"a":2}}',
    '{"a\\u0062":1,"ab2":2}',
    '"just a string"',
    '{}',
  ])('takes %s', (text) => {
    expect(strictKeysProblem(text)).toBeUndefined();
  });

  it.each([
    ['{"channel":"dup1","channel":null}', 'the key "channel" appears twice in one object'],
    ['{"a":{"x":1,"x":2}}', 'the key "x" appears twice in one object'],
    ['[{"a":1,"a":1}]', 'the key "a" appears twice in one object'],
    ['{"ab":1,"a\\u0062":2}', 'the key "ab" appears twice in one object'],
    ['{"channel" : "a" , "channel" : "a"}', 'the key "channel" appears twice in one object'],
    [`{"channel":"a","channel"${' '.repeat(100)}:null}`, 'the key "channel" appears twice in one object'],
    ['{"channel":"x4","__proto__":1}', 'the key "__proto__" is no field of this operation'],
    ['{"channel":"x","constructor":{"prototype":{"a":1}}}', 'the key "constructor" is no field of this operation'],
    ['{"a":{"prototype":1}}', 'the key "prototype" is no field of this operation'],
    [`{"${'k'.repeat(500)}":1,"${'k'.repeat(500)}":2}`, `the key "${'k'.repeat(100)}…" appears twice in one object`],
  ])('refuses %s: %s', (text, problem) => {
    expect(strictKeysProblem(text)).toBe(problem);
  });
});
