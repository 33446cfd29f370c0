// The answers the dashboard's script reads, typed by the two documents; erased when it is bundled.
import type { components as Contract } from '../../../../generated/schema.js';
import type { components as Helpers } from '../../../../generated/sandbox.js';

export type SessionList = Contract['schemas']['PaymentSessionList'];
export type SessionItem = Contract['schemas']['PaymentSessionListItem'];
export type TokenList = Contract['schemas']['PaymentTokenList'];
export type DisputeList = Contract['schemas']['DisputeRecordList'];
export type Timeline = Helpers['schemas']['SessionTimeline'];
export type TimelineEntry = Helpers['schemas']['TimelineEntry'];
export type EventList = Helpers['schemas']['WebhookEventList'];
export type EventSummary = Helpers['schemas']['WebhookEventSummary'];
export type Attempt = Helpers['schemas']['DeliveryAttempt'];
export type Redelivery = Helpers['schemas']['Redelivery'];
export type Revision = Helpers['schemas']['SandboxRevision'];

/** Reads every list the page shows again; a view's buttons call it after changing a page. */
export type Refresh = () => Promise<void>;
