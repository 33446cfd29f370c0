// A row's toolchain: each command must be on the machine. What Debian packages provide is installed
// with apt-get (as root, or through sudo -n); anything else missing fails with a message that names
// it and says where it comes from.
import { spawnSync } from 'node:child_process';
import type { Toolchain } from './row.js';

const has = (command: string) => spawnSync('sh', ['-c', `command -v "${command}"`], { stdio: 'ignore' }).status === 0;
let aptUpdated = false;

export async function ensureToolchain(toolchain: Toolchain[], log: (line: string) => void): Promise<void> {
  const missing = toolchain.filter((tool) => !has(tool.command));
  const packages = [...new Set(missing.flatMap((tool) => tool.debian ?? []))];
  if (packages.length > 0) {
    log(`installing Debian packages ${packages.join(' ')} (for ${missing.map((t) => t.command).join(', ')})`);
    const [command, ...prefix] = process.getuid?.() === 0 ? ['apt-get'] : ['sudo', '-n', 'apt-get'];
    const apt = (args: string[]) =>
      spawnSync(command!, [...prefix, ...args], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    if (!aptUpdated) {
      apt(['update', '-qq']);
      aptUpdated = true;
    }
    apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
  }
  const stillMissing = toolchain.filter((tool) => !has(tool.command));
  if (stillMissing.length > 0) {
    throw new Error(`missing toolchain: ${stillMissing.map((tool) => `${tool.command} (${tool.hint})`).join('; ')}`);
  }
}
