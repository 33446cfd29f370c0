// The package name and version, for the User-Agent, read from package.json so they never drift.
// `../package.json` is the package root both from src/ (tests) and from dist/ (the published build).
import { createRequire } from 'node:module';

const packageJson = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

export const PACKAGE_NAME = packageJson.name;
export const PACKAGE_VERSION = packageJson.version;
