// What the reference (000_7fa2a830ed8f8d3e.txt) and public-facts.md say, transcribed once, so
// that the spec tests can compare the document against it.

/** Statuses every operation answers ("Every operation can answer 404, 405, 500 and 501"), plus the undocumented 401. */
export const COMMON_STATUSES = ['401', '404', '405', '500', '501'];

export const COMMON_ERRORS: Record<string, { schema: string; codes: string[] }> = {
  '404': { schema: 'NotFoundError', codes: ['NotFound'] },
  '405': { schema: 'MethodNotAllowedError', codes: ['MethodNotAllowed'] },
  '500': { schema: 'ServerErrorError', codes: ['ServerError'] },
  '501': { schema: 'NotImplementedError', codes: ['NotImplemented'] },
};

export interface ReferenceOperation {
  operationId: string;
  method: 'get' | 'post';
  path: string;
  /** Statuses beyond the common ones. */
  statuses: string[];
}

export const OPERATIONS: ReferenceOperation[] = [
  {
    operationId: 'createPaymentSession',
    method: 'post',
    path: '/payments/v1/create_payment_session',
    statuses: ['200', '400', '422'],
  },
  {
    operationId: 'retrievePaymentSession',
    method: 'get',
    path: '/payments/v1/payment_session/{business_id}',
    statuses: ['200'],
  },
  { operationId: 'listPaymentSessions', method: 'get', path: '/payments/v1/payment_sessions', statuses: ['200'] },
  {
    operationId: 'capturePaymentSession',
    method: 'post',
    path: '/payments/v1/payment_session/{business_id}/capture',
    statuses: ['200', '400'],
  },
  {
    operationId: 'cancelPaymentSession',
    method: 'post',
    path: '/payments/v1/payment_session/{business_id}/cancel',
    statuses: ['200', '400'],
  },
  {
    operationId: 'voidPaymentSession',
    method: 'post',
    path: '/payments/v1/payment_session/{business_id}/void',
    statuses: ['200', '400'],
  },
  { operationId: 'createRefund', method: 'post', path: '/payments/v1/refund', statuses: ['200', '400'] },
  {
    operationId: 'createPaymentToken',
    method: 'post',
    path: '/api/v1/payment_tokens/create',
    statuses: ['200', '400'],
  },
  {
    operationId: 'retrievePaymentToken',
    method: 'get',
    path: '/api/v1/payment_tokens/{payment_token}',
    statuses: ['200'],
  },
  { operationId: 'listPaymentTokens', method: 'get', path: '/api/v1/payment_tokens', statuses: ['200'] },
  {
    operationId: 'updatePaymentToken',
    method: 'post',
    path: '/api/v1/payment_tokens/{payment_token}/update',
    statuses: ['200'],
  },
  {
    operationId: 'deletePaymentToken',
    method: 'post',
    path: '/api/v1/payment_tokens/{payment_token}/delete',
    statuses: ['200'],
  },
  {
    operationId: 'retrieveProvisionTokenRequest',
    method: 'get',
    path: '/api/v1/payment_tokens/provision_request/{provision_token_request_id}',
    statuses: ['200'],
  },
  {
    operationId: 'retrieveProvisionRequestEligibility',
    method: 'get',
    path: '/api/v1/eligibility/provision_request/{provision_token_request_id}',
    statuses: ['200', '400'],
  },
  { operationId: 'listCatalogItems', method: 'get', path: '/api/v1/product_catalog/items/list', statuses: ['200'] },
  {
    operationId: 'createCatalogItem',
    method: 'post',
    path: '/api/v1/product_catalog/items/create',
    statuses: ['200', '409'],
  },
  { operationId: 'updateCatalogItem', method: 'post', path: '/api/v1/product_catalog/items/update', statuses: ['200'] },
  {
    operationId: 'retrieveCatalogItem',
    method: 'post',
    path: '/api/v1/product_catalog/items/detail',
    statuses: ['200'],
  },
  {
    operationId: 'retrieveCheckoutMethod',
    method: 'post',
    path: '/api/v1/product_catalog/service_checkout_method',
    statuses: ['200'],
  },
  { operationId: 'retrieveDispute', method: 'get', path: '/api/v1/disputes/{dispute_id}', statuses: ['200'] },
  { operationId: 'listDisputes', method: 'get', path: '/v1/disputes', statuses: ['200'] },
  { operationId: 'retrieveDisputeRecord', method: 'get', path: '/v1/disputes/{id}', statuses: ['200'] },
  { operationId: 'acceptDispute', method: 'post', path: '/v1/disputes/{id}/accept', statuses: ['200'] },
];

/** Each operation's 400 `error` enum, exactly as the reference lists it. */
export const ERRORS_400: Record<string, { schema: string; codes: string[] }> = {
  createPaymentSession: {
    schema: 'PaymentSessionCreateError',
    codes: [
      'MissingRequiredParameter',
      'InvalidRequestParameter',
      'TotalAmountInvalid',
      'OrderItemsInvalid',
      'IdempotencyViolation',
      'ServerError',
      'SessionPending',
      'TokenizeNotSupported',
      'FeatureNotEnabled',
    ],
  },
  capturePaymentSession: {
    schema: 'PaymentSessionCaptureError',
    codes: [
      'MissingField',
      'TotalAmountInvalid',
      'PaymentSessionDoesNotExist',
      'ServerError',
      'SessionVoided',
      'SessionExpired',
      'SessionPending',
      'SessionCaptured',
      'ImmediateCapture',
    ],
  },
  voidPaymentSession: {
    schema: 'PaymentSessionVoidError',
    codes: [
      'MissingField',
      'PaymentSessionDoesNotExist',
      'ServerError',
      'SessionCaptured',
      'SessionPending',
      'ImmediateCapture',
    ],
  },
  cancelPaymentSession: {
    schema: 'PaymentSessionCancelError',
    codes: ['InvalidPaymentId', 'ServerError', 'SessionCaptured', 'SessionAuthorized'],
  },
  createRefund: {
    schema: 'RefundCreateError',
    codes: ['MissingField', 'AmountInvalid', 'InvalidPaymentId', 'ChargeDisputed', 'NoSessionCaptures'],
  },
  createPaymentToken: {
    schema: 'PaymentTokenCreateError',
    codes: ['MissingField', 'IdempotencyViolation', 'WaitingForVerification', 'ServerError', 'ValidationError'],
  },
  retrieveProvisionRequestEligibility: {
    schema: 'EligibilityError',
    codes: ['TotalAmountInvalid', 'ValidationError'],
  },
};

/**
 * 400s the reference does not give: "Error codes of retrieve-session, list, token retrieve, token
 * list and dispute operations ... not shown beyond the common table". The contract declares one on
 * every list operation (an invalid query parameter) and on every other operation that takes a
 * documented body (an invalid body), marked x-undocumented. The checkout-method operation's fields
 * are undocumented, but its body is an object: one that is not is refused with an inferred 400.
 */
export const UNDOCUMENTED_ERRORS_400: Record<string, { schema: string; codes: string[] }> = {
  listPaymentSessions: { schema: 'ListPaymentSessionsBadRequestError', codes: ['InvalidRequestParameter'] },
  listPaymentTokens: { schema: 'ListPaymentTokensBadRequestError', codes: ['InvalidRequestParameter'] },
  listCatalogItems: { schema: 'ListCatalogItemsBadRequestError', codes: ['InvalidRequestParameter'] },
  listDisputes: { schema: 'ListDisputesBadRequestError', codes: ['InvalidRequestParameter'] },
  updatePaymentToken: { schema: 'UpdatePaymentTokenBadRequestError', codes: ['InvalidRequestParameter'] },
  createCatalogItem: { schema: 'CreateCatalogItemBadRequestError', codes: ['InvalidRequestParameter'] },
  updateCatalogItem: { schema: 'UpdateCatalogItemBadRequestError', codes: ['InvalidRequestParameter'] },
  retrieveCatalogItem: { schema: 'RetrieveCatalogItemBadRequestError', codes: ['InvalidRequestParameter'] },
  retrieveCheckoutMethod: { schema: 'RetrieveCheckoutMethodBadRequestError', codes: ['InvalidRequestParameter'] },
};

/** Fields of the canonical dispute that appear only when not null (null fields are omitted). */
export const DISPUTE_OPTIONAL_FIELDS = ['outcome', 'resolved_at', 'prior_dispute_id'];

/** The 18 query parameters of list payment sessions, with their types and defaults. */
export const LIST_SESSION_PARAMETERS: Record<string, { type: string; default?: unknown; format?: string }> = {
  page: { type: 'integer', default: 1 },
  page_size: { type: 'integer', default: 30 },
  filter_pending: { type: 'boolean' },
  filter_voided: { type: 'boolean' },
  include_metadata: { type: 'boolean' },
  include_order_items: { type: 'boolean' },
  search: { type: 'string' },
  created_on_start: { type: 'string', format: 'date-time' },
  created_on_end: { type: 'string', format: 'date-time' },
  captured_on_start: { type: 'string', format: 'date-time' },
  captured_on_end: { type: 'string', format: 'date-time' },
  include_refunds: { type: 'boolean', default: true },
  include_disputes: { type: 'boolean', default: true },
  kind: { type: 'array' },
  status: { type: 'array' },
  summarize_refunds: { type: 'boolean' },
  include_service_fee: { type: 'boolean' },
  payment_token: { type: 'string' },
};

export const LIST_TOKEN_PARAMETERS = [
  'page',
  'page_size',
  'email',
  'name',
  'card_expires_before',
  'lmn_expires_before',
];
export const LIST_CATALOG_PARAMETERS = ['page', 'page_size', 'eligibility', 'updated_after'];

/**
 * The enums of answers, each open (the evolution policy): its documented values, and any other
 * string. Where a request names the same values, it has a closed schema of its own (REQUEST_ENUMS).
 * A nullable one (eligibility_status, a catalog item's eligibility) is null at the field that
 * carries it, not in the enum.
 */
export const ENUMS: Record<string, string[]> = {
  PaymentSessionStatus: [
    'captured',
    'canceled',
    'pending',
    'processing',
    'rejected',
    'authorized',
    'authorization_voided',
    'authorization_expired',
  ],
  PaymentSessionStatusSummary: [
    'Incomplete',
    'Authorized',
    'Captured',
    'Partially Captured',
    'Refunded',
    'Partially Refunded',
    'Disputed',
    'Voided',
    'Expired',
  ],
  PaymentSessionKind: ['one_time_payment', 'authorization'],
  EligibilityStatus: ['approved', 'pending', 'expired', 'rejected', 'never_requested'],
  CatalogEligibility: ['eligible', 'eligible_with_lmn', 'ineligible', 'not_eligible'],
  RefundReason: ['customer_request', 'fraudulent', 'duplicate_payment'],
  'PaymentActionRequired.properties.next_action': ['UpdatePaymentMethod', 'TakeHealthSurvey'],
};

/** Enums the reference gives as incomplete ("values seen", "complete list not shown"): known values, open to others. */
export const OPEN_ENUMS: Record<string, string[]> = {
  DisputeState: ['needs_response', 'under_review', 'won', 'lost', 'accepted', 'expired', 'closed'],
  'PaymentTokenUpdateResponse.properties.next_action': ['None', 'HealthSurvey'],
};

/** The closed schemas requests name the answer enums' values with: request schema → its answer's open enum. */
export const REQUEST_ENUMS: Record<string, string> = {
  PaymentSessionStatusInput: 'PaymentSessionStatus',
  PaymentSessionKindInput: 'PaymentSessionKind',
  RefundReasonInput: 'RefundReason',
};

/** Webhook name → request body schema; signed ones carry x-service-signature. */
export const WEBHOOKS: Record<string, { schema: string; signed: boolean; eventType?: string }> = {
  payment_session_complete: {
    schema: 'PaymentSessionCompleteEvent',
    signed: true,
    eventType: 'payment_session_complete',
  },
  'payment_session_complete.legacy': { schema: 'PaymentSessionCompleteData', signed: false },
  'payment_token.updated': { schema: 'PaymentTokenUpdatedEvent', signed: true, eventType: 'payment_token.updated' },
  'payment_token_updated.legacy': { schema: 'PaymentTokenUpdatedData', signed: false },
  'product_catalog.item.eligibility_updated': {
    schema: 'ItemEligibilityUpdatedEvent',
    signed: true,
    eventType: 'product_catalog.item.eligibility_updated',
  },
  'product_catalog.item.eligibility_updated.legacy': { schema: 'ItemEligibilityUpdatedData', signed: false },
  'dispute.created': { schema: 'DisputeCreatedEvent', signed: true, eventType: 'dispute.created' },
  'dispute.updated': { schema: 'DisputeUpdatedEvent', signed: true, eventType: 'dispute.updated' },
  'dispute.closed': { schema: 'DisputeClosedEvent', signed: true, eventType: 'dispute.closed' },
  'dispute.evidence_submitted': {
    schema: 'DisputeEvidenceSubmittedEvent',
    signed: true,
    eventType: 'dispute.evidence_submitted',
  },
  'dispute.legacy': { schema: 'Dispute', signed: false },
};

/** create_payment_session idempotency: rules 3 and 4. */
export const IDEMPOTENCY = {
  compared: [
    'customer_email',
    'total_amount',
    'success_url',
    'failure_url',
    'order_items.name',
    'order_items.sku',
    'order_items.quantity',
    'order_items.price',
    'order_items.amount_details',
    'kind',
    'payment_token',
    'display_next_bill_info.total_amount',
    'display_next_bill_info.date',
    'is_free_trial',
  ],
  ignored: [
    'customer_name',
    'metadata',
    'customer_state',
    'survey_config',
    'billing_name',
    'billing_address',
    'shipping_name',
    'shipping_address',
    'request_multicapture',
    'test_config',
  ],
};
