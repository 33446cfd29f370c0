// The sandbox's model of the service. Contract shapes come from the generated types; the records
// below are the sandbox's own internal state, which the contract does not describe.
import type { components } from '../../../generated/schema.js';
import type { KnownValues } from '../../client/known-values.js';
import type { CustomerAction } from './errors.js';

type Schemas = components['schemas'];
export type CreateSessionRequest = Schemas['CreatePaymentSessionRequest'];
export type SessionStatus = KnownValues<Schemas['PaymentSessionStatus']>;
export type StatusSummary = KnownValues<Schemas['PaymentSessionStatusSummary']>;
export type SessionKind = KnownValues<Schemas['PaymentSessionKind']>;
export type SessionDetail = Schemas['PaymentSession'];
export type SessionListItem = Schemas['PaymentSessionListItem'];
export type SessionOrderItem = Schemas['SessionOrderItem'];
export type RefundReason = KnownValues<Schemas['RefundReason']>;
export type Dispute = Schemas['Dispute'];
export type DisputeState = Schemas['DisputeState'];

export interface OrderItem {
  item_id: string;
  name: string;
  sku?: string;
  quantity: number;
  price: number;
  total_additional_charges: number;
  total_discounts: number;
  /** Cents of the capture attributed to this item. */
  captured: number;
  /** Cents refunded on this item. */
  refunded: number;
  /** Cents of this item taken by lost or accepted disputes. */
  disputed: number;
}

export interface Refund {
  refund_id: string;
  idempotency_key: string;
  amount: number;
  reason: RefundReason;
  created_at: string;
}

export interface SessionDispute {
  dispute: Dispute;
  /** Open disputes block refunds; lost and accepted ones take their amount out of the refundable. */
  open: boolean;
  /** A chargeback, or an inquiry that may escalate to one; chargeback when absent (older documents). */
  kind?: 'chargeback' | 'inquiry';
  /** When its state or phase last changed (the /v1/disputes record's updated_at); created_at when absent. */
  updated_at?: string;
}

export interface Session {
  /** The version of this document's shape (domain/session-shape.ts). */
  shape_version: number;
  id: string;
  channel: string;
  kind: SessionKind;
  status: SessionStatus;
  created_at: string;
  /** The create request as accepted, for idempotency comparison and echo. */
  request: CreateSessionRequest;
  idempotency_key?: string;
  total_amount: number;
  items: OrderItem[];
  payment_token?: string;
  /** The customer: from the request, or from the token's user when charging a payment_token. */
  customer_email?: string;
  customer_name?: string;
  /**
   * The business id of the session's customer (store/customers.ts): the token's user with a
   * payment_token, else the customer of the email, else a customer of the session's own. Absent only
   * on sessions made outside a request (unit tests of the store).
   */
  user_business_id?: string;
  /** Token this session issues when tokenize=true (delivered once checkout completes). */
  issued_payment_token?: string;
  authorized_at?: string;
  captured_at?: string;
  capture_amount?: number;
  capture_id?: string;
  /** idempotency_key → capture id, so that a repeat returns the first result. */
  capture_keys: Record<string, string>;
  capture_failed_on?: string;
  void_id?: string;
  void_keys: Record<string, string>;
  canceled_at?: string;
  refunds: Refund[];
  disputes: SessionDispute[];
}

/** A webhook event to put in the outbox, in the same transaction as the change that caused it. */
export interface DomainEvent {
  event_type: string;
  /** The envelope's `timestamp`, for the events whose envelope has one (item eligibility updated). */
  timestamp?: string;
  data: Record<string, unknown>;
}

export type TokenStatus = 'pending_checkout' | 'active' | 'deleted';
export type TokenAction = CustomerAction;

/** A payment token: issued by a tokenize=true session or a provision token request. */
export interface PaymentTokenRecord {
  token: string;
  channel: string;
  /** The tokenize=true session that issued it, if any. */
  session_id: string | null;
  status: TokenStatus;
  /** The action its next charge answers 422 with, until the customer takes it. */
  next_action: TokenAction | null;
  created_at: string;
  customer_email: string | null;
  customer_name: string | null;
  /** Whose letters count for it (domain/provisioning.ts customerKeyOf). */
  customer_key: string;
  /** The business id of that customer (store/customers.ts); absent only for tokens made outside a request. */
  user_business_id?: string | null;
  card_brand: string | null;
  card_last4: string | null;
  /** YYYY-MM. */
  card_expires: string | null;
  /** YYYY-MM-DD: the expiry of the customer's most recently approved letter. */
  lmn_expires_at: string | null;
  /** The provision token request that issued it, if any. */
  provision_request_id: string | null;
  metadata: string | null;
  /** Where the pages of its later provision requests send the customer. */
  success_url: string | null;
  failure_url: string | null;
}

export interface Features {
  authorization: boolean;
  tokenization: boolean;
}
