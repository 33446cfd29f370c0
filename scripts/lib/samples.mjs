// Moved to build/lib/samples.mjs with the docs build; this re-export keeps the partner matrix's
// imports working until they name build/lib/samples.mjs themselves.
export * from '../../build/lib/samples.mjs';
