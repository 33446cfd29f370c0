// Runs a partner toolchain's command without a shell, capturing its output, with a time limit.
import { spawn } from 'node:child_process';

export interface RunResult {
  status: number | null;
  output: string;
}

export class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly result: RunResult,
  ) {
    super(`${command} failed (exit ${result.status ?? 'killed: time limit'}):\n${tail(result.output, 60)}`);
  }
}

export const tail = (text: string, lines: number) => text.trimEnd().split('\n').slice(-lines).join('\n');

export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; allowFailure?: boolean; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15 * 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new CommandFailed(`${command} ${args.join(' ')}`, { status: null, output: String(error) }));
    });
    child.once('close', (status) => {
      clearTimeout(timer);
      const result = { status, output };
      if (status !== 0 && !options.allowFailure) reject(new CommandFailed(`${command} ${args.join(' ')}`, result));
      else resolve(result);
    });
  });
}
