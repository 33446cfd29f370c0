// Setup file of the postgres project: a test file's databases are dropped as it ends, after its
// own hooks have closed their pools. The server is the run's, removed at its end anyway; but a run
// that repeats files, as mutation testing runs a file again for each mutant, would otherwise make
// a database (about 8 MB) per file and mutant.
import { afterAll } from 'vitest';
import { dropTestDatabases } from './postgres-database.js';

afterAll(dropTestDatabases);
