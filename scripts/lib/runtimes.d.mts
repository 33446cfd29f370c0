// Types of runtimes.mjs.
export const toolchain: { node: { other_lts: string }; [key: string]: unknown };
export function runtimesDir(env?: NodeJS.ProcessEnv, home?: string): string;
export function installNode(version: string): string;
