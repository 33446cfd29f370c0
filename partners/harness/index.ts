// What the rest of the repository may use of the harness: the programs the matrix runs (the curl
// samples and each row, whose `samples` program the API reference quotes), the check every samples
// program must pass, and the matrix's table. The docs' tests read these to hold the reference to
// what the matrix runs; everything else here is the harness's own.
export { curlSamples } from './curl.js';
export { matrixTable, notRun, type RowReport } from './report.js';
export type { Row, SampleProgram } from './row.js';
export { rows } from './rows/index.js';
export { sampleProgramProblems } from './samples-check.js';
