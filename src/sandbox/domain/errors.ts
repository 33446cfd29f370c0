// A refusal of the service, in the contract's {error, message} shape.
export class OperationError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 422 | 500 | 501,
    readonly code: string,
    message: string,
    /** A body other than {error, message}, e.g. the create-session 422 {next_action, redirect_url}. */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string) => new OperationError(400, code, message);
export const notFound = (message: string) => new OperationError(404, 'NotFound', message);
