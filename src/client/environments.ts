// Base URLs of the service. They mirror the document's `servers`; a test keeps the two equal.
export const ENVIRONMENTS = {
  development: 'https://dev-api.service.example',
  production: 'https://api.service.example',
} as const;

export type EnvironmentName = keyof typeof ENVIRONMENTS;

/** Resolves an environment name, or a base URL such as a sandbox's, to a base URL. */
export function resolveBaseUrl(environment: EnvironmentName | string): string {
  if (environment in ENVIRONMENTS) return ENVIRONMENTS[environment as EnvironmentName];
  let url: URL;
  try {
    url = new URL(environment);
  } catch {
    throw new TypeError(
      `environment must be "development", "production" or an absolute base URL, not ${JSON.stringify(environment)}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`environment URL must use http or https, not ${url.protocol}`);
  }
  return environment.replace(/\/+$/, '');
}
