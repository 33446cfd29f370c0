// Whether the docs site is being built right now: `npm start` builds it in the background
// (build/docs-in-background.mjs), which holds `<site>.building` with its pid while it works. A
// lock whose process is gone (a build killed midway) means nothing is being built.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export function docsBeingBuilt(dir: string): boolean {
  let holder: number;
  try {
    holder = Number(readFileSync(`${path.resolve(dir)}.building`, 'utf8'));
  } catch {
    return false;
  }
  return Number.isInteger(holder) && holder > 0 && alive(holder);
}
