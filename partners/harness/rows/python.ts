// What the Python rows share: the interpreter (3.11 or later: the generated code imports
// typing.Self) with its venv module, and the webhook verifier partners/python/verify_webhook.py.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import type { RowContext, Toolchain } from '../row.js';

export const PYTHON_TOOLCHAIN: Toolchain = {
  command: 'python3',
  hint: 'Python 3.11 or later, with its venv module',
  debian: ['python3', 'python3-venv'],
};

/** Copies the shared verifier into the row's folder, next to its flow program. */
export function copyVerifier(ctx: RowContext): void {
  copyFileSync(
    path.join(ctx.root, 'partners', 'python', 'verify_webhook.py'),
    path.join(ctx.workDir, 'verify_webhook.py'),
  );
}
