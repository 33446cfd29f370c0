// Types of samples.mjs, which re-exports build/lib/samples.mjs.
export * from '../../build/lib/samples.mjs';
