export type WebhookSignatureFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'no_signature'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'body_not_raw'
  | 'secret_invalid'
  | 'payload_invalid';

/** A webhook that must not be trusted; `reason` says which check failed. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  constructor(
    readonly reason: WebhookSignatureFailure,
    message: string,
  ) {
    super(message);
  }
}
