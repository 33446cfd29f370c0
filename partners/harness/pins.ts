// The exact versions of the partner matrix's generators and libraries: toolchain.json's `partners`.
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function partnerPins(root: string): Record<string, string> {
  const toolchain = JSON.parse(readFileSync(path.join(root, 'toolchain.json'), 'utf8'));
  const pins = toolchain.partners as Record<string, string> | undefined;
  if (!pins) throw new Error('toolchain.json has no `partners` section');
  return Object.fromEntries(Object.entries(pins).filter(([key]) => !key.startsWith('$')));
}
