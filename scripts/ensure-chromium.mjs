// The browser tests drive Debian's chromium (/usr/bin/chromium) with playwright-core, which
// downloads no browser of its own. When it is missing, this installs it with apt-get (as root, or
// through sudo), so that `npm test` works on a fresh machine; elsewhere it says what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  const root = process.getuid?.() === 0;
  const sudo = !root && existsSync('/usr/bin/sudo') ? ['sudo', '-n'] : [];
  if ((!root && sudo.length === 0) || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `The browser tests need Debian's chromium at ${CHROMIUM}: install it with \`sudo apt-get install chromium\`.`,
    );
    process.exit(1);
  }
  console.log(`Installing Debian's chromium for the browser tests (apt-get install chromium)…`);
  const run = (args) =>
    execFileSync(sudo[0] ?? args[0], sudo.length ? [...sudo.slice(1), ...args] : args.slice(1), {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', 'chromium']);
}
