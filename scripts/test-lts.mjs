// npm run test:lts: the suites that depend on the runtime, on the other supported LTS line
// (toolchain.json's node.other_lts), while npm test runs everything on the pinned one. The tests
// start every process on the Node that runs them (vitest.config.ts), so the sandbox, the contract
// runner and the packed package's consumer all run on that line too.
//   npm run test:lts                      the unit, sandbox, package and contract suites, and the
//                                         tools' own tests (partners/harness, conformance, mutation)
//   npm run test:lts -- tests/unit        any other selection, with vitest's arguments
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { installNode, toolchain } from './lib/runtimes.mjs';
import { root } from '../build/lib/tools.ts';

const SUITES = [
  'tests/unit',
  'tests/sandbox',
  'tests/package',
  'tests/contract',
  'tests/postgres',
  'partners/harness',
  'conformance',
  'mutation',
];

const node = installNode(toolchain.node.other_lts);
const args = process.argv.slice(2);
console.log(
  `Testing on Node ${toolchain.node.other_lts} (${path.relative(root, node)}): ${(args.length ? args : SUITES).join(' ')}`,
);
const result = spawnSync(
  node,
  [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...(args.length ? args : SUITES)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
  },
);
process.exit(result.status ?? 1);
