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

export type WebhookPayloadFailure = 'not_json' | 'not_an_object' | 'signed_envelope' | 'unknown_event';

/**
 * A legacy (unsigned) delivery whose body is not one of the legacy events. It says nothing about
 * authenticity (a wrong shared secret is a WebhookSignatureError); `reason` says what is wrong.
 */
export class WebhookPayloadError extends Error {
  override readonly name = 'WebhookPayloadError';
  constructor(
    readonly reason: WebhookPayloadFailure,
    message: string,
  ) {
    super(message);
  }
}
