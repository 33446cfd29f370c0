// Run by `npm run listen` and `npm run trigger` before the command: compiles src/ to .build/ when it
// changed, as `npm start` does (scripts/prepare-start.mjs), so that the command runs as plain
// JavaScript. It builds no docs: these commands serve none.
import { compileIfStale } from './prepare-start.mjs';

compileIfStale({ quiet: true });
