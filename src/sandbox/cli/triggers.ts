// What `hsa-fsa-sandbox trigger EVENT` does for each webhook event of the contract: it makes what
// the event needs through the public API and the helpers (over HTTP), as a partner's test would,
// and the last step fires the event. Each step says, in one line, what it made and its id.
import { randomBytes } from 'node:crypto';
import { CliError, RefusedCall, type SandboxApi } from './target.js';

export interface TriggerRun {
  api: SandboxApi;
  /** Prints one step: what it made, with its id. */
  say: (line: string) => void;
  /** A few random hex digits, for what must be new on every run (a sku, a customer's email). */
  unique: string;
}

export interface Trigger {
  name: string;
  /** One line of `trigger --list`. */
  summary: string;
  /** Runs the steps; resolves to the closing line: the event fired, and about what. */
  run(run: TriggerRun): Promise<string>;
}

export const newUnique = () => randomBytes(4).toString('hex');

const RETURN_URLS = {
  success_url: 'https://shop.example/orders/{{payment_session_id}}/thanks',
  failure_url: 'https://shop.example/orders/{{payment_session_id}}/failed',
};
/** A hold's capture fails after 6.95 days (openapi/sandbox.yaml, Hold expiry): a week is past it. */
const PAST_HOLD_EXPIRY_SECONDS = 7 * 24 * 3600;

type Kind = 'one_time_payment' | 'authorization';

async function createSession({ api, say }: TriggerRun, kind: Kind): Promise<string> {
  const noCharges = { total_additional_charges: 0, total_discounts: 0 };
  const { id } = await api.ok('create payment session', () =>
    api.contract.POST('/payments/v1/create_payment_session', {
      body: {
        kind,
        total_amount: 1250,
        amount_details: noCharges,
        ...RETURN_URLS,
        customer_email: 'trigger@example.com',
        customer_name: 'Trigger Test',
        metadata: '{"source":"hsa-fsa-sandbox trigger"}',
        order_items: [
          { name: 'Digital thermometer', sku: 'TH-10', quantity: 1, price: 1250, amount_details: noCharges },
        ],
      },
    }),
  );
  say(`created payment session ${id} (${kind}, $12.50)`);
  return id;
}

async function completeCheckout({ api, say }: TriggerRun, id: string, eligible = true): Promise<void> {
  const { status } = await api.ok('complete checkout', () =>
    api.helpers.POST('/sandbox/v1/payment_sessions/{payment_session_id}/complete_checkout', {
      params: { path: { payment_session_id: id } },
      body: { eligible },
    }),
  );
  say(
    `completed its checkout as the customer${eligible ? '' : ', the health survey finding them ineligible'}: ${status}`,
  );
}

async function review({ api, say }: TriggerRun, id: string, decision: 'accept' | 'decline'): Promise<void> {
  const { status } = await api.ok('review payment session', () =>
    api.helpers.POST('/sandbox/v1/payment_sessions/{payment_session_id}/review', {
      params: { path: { payment_session_id: id } },
      body: { decision },
    }),
  );
  say(`the service's review: ${decision}, ${status}`);
}

/** A one-time payment, checked out and accepted by the review. */
async function capturedPayment(run: TriggerRun): Promise<string> {
  const id = await createSession(run, 'one_time_payment');
  await completeCheckout(run, id);
  await review(run, id, 'accept');
  return id;
}

/** An authorization whose hold is placed. */
async function authorizedHold(run: TriggerRun): Promise<string> {
  const id = await createSession(run, 'authorization');
  await completeCheckout(run, id);
  return id;
}

async function openDispute(run: TriggerRun): Promise<string> {
  const session = await capturedPayment(run);
  const { dispute_id: id } = await run.api.ok('open dispute', () =>
    run.api.helpers.POST('/sandbox/v1/payment_sessions/{payment_session_id}/disputes', {
      params: { path: { payment_session_id: session } },
      body: { kind: 'chargeback' },
    }),
  );
  run.say(`opened chargeback dispute ${id} on it`);
  return id;
}

const fired = (event: string, what: string) => `Fired ${event} for ${what}.`;

const TRIGGERS: Trigger[] = [
  {
    name: 'payment_session_complete.processing',
    summary: "a one-time payment checked out by its customer, awaiting the service's review (status processing)",
    async run(run) {
      const id = await createSession(run, 'one_time_payment');
      await completeCheckout(run, id);
      return fired('payment_session_complete (processing)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_session_complete.captured',
    summary: 'the same, then accepted by the review (status captured; .processing fires first)',
    async run(run) {
      const id = await capturedPayment(run);
      return fired('payment_session_complete (captured)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_session_complete.rejected',
    summary: 'the same, then declined by the review (status rejected; .processing fires first)',
    async run(run) {
      const id = await createSession(run, 'one_time_payment');
      await completeCheckout(run, id);
      await review(run, id, 'decline');
      return fired('payment_session_complete (rejected)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_session_complete.authorized',
    summary: 'an authorization checked out by its customer: the hold is placed (status authorized)',
    async run(run) {
      const id = await authorizedHold(run);
      return fired('payment_session_complete (authorized)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_session_complete.voided',
    summary: 'the same, then voided (status authorization_voided; .authorized fires first)',
    async run(run) {
      const id = await authorizedHold(run);
      const { id: voidId } = await run.api.ok('void payment session', () =>
        run.api.contract.POST('/payments/v1/payment_session/{business_id}/void', {
          params: { path: { business_id: id } },
          body: {},
        }),
      );
      run.say(`voided it: void ${voidId}`);
      return fired('payment_session_complete (authorization_voided)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_session_complete.expired',
    summary:
      "the same, then captured after its hold expired (status authorization_expired): moves the channel's clock 7 " +
      'days ahead',
    async run(run) {
      const id = await authorizedHold(run);
      const { now } = await run.api.ok('advance the clock', () =>
        run.api.helpers.POST('/sandbox/v1/clock/advance', { body: { seconds: PAST_HOLD_EXPIRY_SECONDS } }),
      );
      run.say(`advanced the channel's clock 7 days, past the hold's expiry: it reads ${now}`);
      try {
        await run.api.ok('capture payment session', () =>
          run.api.contract.POST('/payments/v1/payment_session/{business_id}/capture', {
            params: { path: { business_id: id } },
            body: { total_amount: 1250 },
          }),
        );
      } catch (error) {
        if (!(error instanceof RefusedCall && error.code === 'SessionExpired')) throw error;
        run.say('captured it: 400 SessionExpired, the hold could not be authorized again');
        return fired('payment_session_complete (authorization_expired)', `payment session ${id}`);
      }
      throw new CliError(
        `the capture of ${id} succeeded after its hold expired: this sandbox does not expire holds as the guide says`,
      );
    },
  },
  {
    name: 'payment_session_complete.canceled',
    summary: 'a payment session canceled before its customer checked out (status canceled)',
    async run(run) {
      const id = await createSession(run, 'one_time_payment');
      const { status } = await run.api.ok('cancel payment session', () =>
        run.api.contract.POST('/payments/v1/payment_session/{business_id}/cancel', {
          params: { path: { business_id: id } },
        }),
      );
      run.say(`canceled it: ${status}`);
      return fired('payment_session_complete (canceled)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_session_complete.ineligible',
    summary: 'a checkout whose health survey finds the customer ineligible (the session stays pending)',
    async run(run) {
      const id = await createSession(run, 'one_time_payment');
      await completeCheckout(run, id, false);
      return fired('payment_session_complete (pending)', `payment session ${id}`);
    },
  },
  {
    name: 'payment_token.updated',
    summary: 'a payment token set up by its customer (its page completed, the letter approved)',
    async run(run) {
      const email = `trigger+${run.unique}@example.com`;
      const { provision_token_request_id: requestId } = await run.api.ok('create payment token', () =>
        run.api.contract.POST('/api/v1/payment_tokens/create', {
          body: { ...RETURN_URLS, customer_email: email, customer_name: 'Trigger Test' },
        }),
      );
      run.say(`created provision token request ${requestId} for ${email}`);
      const done = await run.api.ok('complete provision request', () =>
        run.api.helpers.POST('/sandbox/v1/provision_requests/{provision_token_request_id}/complete', {
          params: { path: { provision_token_request_id: requestId } },
          body: { letter: 'approved' },
        }),
      );
      if (done.payment_token === null || done.payment_token === undefined)
        throw new CliError(`provision token request ${requestId} ended ${done.status}, with no payment token`);
      run.say(`completed its page as the customer, the letter approved: payment token ${done.payment_token}`);
      return fired('payment_token.updated', `payment token ${done.payment_token}`);
    },
  },
  {
    name: 'product_catalog.item.eligibility_updated',
    summary: 'a new catalog item, reviewed eligible by the service',
    async run(run) {
      const sku = `TRIGGER-${run.unique.toUpperCase()}`;
      await run.api.ok('create catalog item', () =>
        run.api.contract.POST('/api/v1/product_catalog/items/create', {
          body: { sku, name: 'Trigger test item' },
        }),
      );
      run.say(`created catalog item ${sku}, awaiting review`);
      const item = await run.api.ok('review catalog item', () =>
        run.api.helpers.POST('/sandbox/v1/catalog/items/review', { body: { sku, eligibility: 'eligible' } }),
      );
      run.say(`the service's review: ${item.eligibility}`);
      return fired('product_catalog.item.eligibility_updated', `catalog item ${sku}`);
    },
  },
  {
    name: 'dispute.created',
    summary: "a chargeback opened on a captured payment (the payment's events fire first)",
    async run(run) {
      const id = await openDispute(run);
      return fired('dispute.created', `dispute ${id}`);
    },
  },
  {
    name: 'dispute.updated',
    summary: 'the same, then moved to under_review by the processor',
    async run(run) {
      const id = await openDispute(run);
      const { state } = await run.api.ok('sync dispute', () =>
        run.api.helpers.POST('/sandbox/v1/disputes/{dispute_id}/sync', {
          params: { path: { dispute_id: id } },
          body: { state: 'under_review' },
        }),
      );
      run.say(`the processor moved it: ${state}`);
      return fired('dispute.updated', `dispute ${id}`);
    },
  },
  {
    name: 'dispute.evidence_submitted',
    summary: 'the same, then evidence submitted (dispute.updated follows)',
    async run(run) {
      const id = await openDispute(run);
      const { state } = await run.api.ok('submit dispute evidence', () =>
        run.api.helpers.POST('/sandbox/v1/disputes/{dispute_id}/evidence', {
          params: { path: { dispute_id: id } },
        }),
      );
      run.say(`submitted evidence: ${state}`);
      return fired('dispute.evidence_submitted', `dispute ${id}`);
    },
  },
  {
    name: 'dispute.closed',
    summary: 'the same, then resolved won',
    async run(run) {
      const id = await openDispute(run);
      const { state } = await run.api.ok('resolve dispute', () =>
        run.api.helpers.POST('/sandbox/v1/disputes/{dispute_id}/resolve', {
          params: { path: { dispute_id: id } },
          body: { outcome: 'won' },
        }),
      );
      run.say(`resolved it: ${state}`);
      return fired('dispute.closed', `dispute ${id}`);
    },
  },
];

/** Names that mean another: the bare event, and the reference's other spelling of the token event. */
const ALIASES: Record<string, string> = {
  payment_session_complete: 'payment_session_complete.captured',
  payment_token_updated: 'payment_token.updated',
};

export const triggerNames = (): string[] => TRIGGERS.map((trigger) => trigger.name);

/** The trigger of `name` (or of the name it stands for); undefined when there is none. */
export function findTrigger(name: string): Trigger | undefined {
  const target = ALIASES[name] ?? name;
  return TRIGGERS.find((trigger) => trigger.name === target);
}

/** `trigger --list`: a line per event, then the aliases. */
export function triggerList(): string[] {
  const width = Math.max(...TRIGGERS.map((trigger) => trigger.name.length));
  return [
    ...TRIGGERS.map((trigger) => `${trigger.name.padEnd(width)}  ${trigger.summary}`),
    ...Object.entries(ALIASES).map(([alias, name]) => `${alias.padEnd(width)}  the same as ${name}`),
  ];
}
