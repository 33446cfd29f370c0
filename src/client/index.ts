export { createServiceClient, USER_AGENT, type ServiceClient, type ServiceClientOptions } from './client.js';
export { ENVIRONMENTS, resolveBaseUrl, type EnvironmentName } from './environments.js';
export {
  hasErrorCode,
  type ErrorCodeOf,
  type NarrowedError,
  type OperationErrorBody,
  type OperationErrorCode,
  type OperationId,
} from './errors.js';
export { isKnownValue, type KnownValues } from './known-values.js';
export { backoffDelay, type RetryOptions } from './retry.js';
export type { components, operations, paths, webhooks } from '../../generated/schema.js';
