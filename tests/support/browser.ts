// What every browser test shares: Debian's chromium, headless, through playwright-core; the
// screenshots folder; and axe-core run on a page or a frame.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../../testkit/contract.js';

/** Where each step's screenshot is kept (test-results/screenshots/). */
export const SHOTS = path.join(repoRoot, 'test-results', 'screenshots');

/** Debian's chromium, headless, with nothing of its own running in the background; `args` are added (a host resolver rule). */
export function launchChromium(args: string[] = []): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...args,
    ],
  });
}

/** A full-page screenshot of `page`, as test-results/screenshots/NAME.png. */
export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's violations on a page, or on a frame of it, each as `id: help (nodes)`. Evaluated
 * through the DevTools protocol: the pages' policies run no script tag without its hash.
 */
export async function axeViolations(target: Pick<Page, 'evaluate'>): Promise<string[]> {
  await target.evaluate(AXE);
  const result = await target.evaluate(async () =>
    (
      window as unknown as {
        axe: { run: () => Promise<{ violations: Array<{ id: string; help: string; nodes: unknown[] }> }> };
      }
    ).axe.run(),
  );
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`);
}
