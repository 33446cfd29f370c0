// Lines for the terminal, written in batches: one write per turn of the event loop, however many
// requests it served. A console.log per request cost a quarter of the sandbox's throughput
// (npm run bench, retrieve, with the request log on); the lines and their order are the same.
import type { Writable } from 'node:stream';

export interface LineWriter {
  write(line: string): void;
  /** Writes what is pending now (at close). */
  flush(): void;
}

export function batchedLines(out: Pick<Writable, 'write'> = process.stdout): LineWriter {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    out.write(text);
  };
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
