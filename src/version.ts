// The package version, for the User-Agent. Read from package.json so that it never drifts.
import packageJson from '../package.json' with { type: 'json' };

export const PACKAGE_NAME: string = packageJson.name;
export const PACKAGE_VERSION: string = packageJson.version;
