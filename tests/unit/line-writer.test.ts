// The request log's lines reach the terminal in order, in one write per turn of the event loop,
// and nothing pending is lost at close.
import { describe, expect, it } from 'vitest';
import { batchedLines } from '../../src/sandbox/line-writer.js';

describe('batched lines', () => {
  it('writes the lines of one turn together, in order, after the turn', async () => {
    const writes: string[] = [];
    const lines = batchedLines({ write: (text: string) => writes.push(text) > 0 });
    lines.write('GET /a 200 0.1 ms');
    lines.write('GET /b 404 0.2 ms');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['GET /a 200 0.1 ms\nGET /b 404 0.2 ms\n']);
    lines.write('POST /c 200 1.0 ms');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['GET /a 200 0.1 ms\nGET /b 404 0.2 ms\n', 'POST /c 200 1.0 ms\n']);
  });

  it('writes what is pending when flushed, and nothing twice', async () => {
    const writes: string[] = [];
    const lines = batchedLines({ write: (text: string) => writes.push(text) > 0 });
    lines.write('GET /last 200 0.1 ms');
    lines.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['GET /last 200 0.1 ms\n']);
  });
});
