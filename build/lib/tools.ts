// Runs the project's pinned CLI tools from node_modules/.bin, with telemetry off.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/** Runs a tool synchronously; throws with its output when it exits non-zero. */
export function runTool(name: string, args: string[], { quiet = false }: { quiet?: boolean } = {}): string {
  const result = spawnSync(bin(name), args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1' },
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(`${name} ${args.join(' ')} failed (exit ${result.status}):\n${stripBlankLines(output)}`);
  }
  if (!quiet) process.stdout.write(stripBlankLines(output));
  return output;
}

// Redocly prints blank lines around its output: noise in our logs. (Its boxed end-of-life notice,
// which it printed on Node 20, is not hidden: on a supported Node it has nothing to say.)
function stripBlankLines(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
