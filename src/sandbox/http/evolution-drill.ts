// The evolution drill at the sandbox's edges (the rules are domain/evolution-drill.ts): on a
// channel that plays a later version of the service, every answer of a contract operation and
// every delivery is reshaped as it is sent, walking it with the schema the contract gives it; and
// after every event fired under the drill comes one of a type the contract does not know. Nothing
// stored is reshaped: the outbox keeps the events as fired, so that a session's timeline, the
// dashboard and a delivery after the drill is turned off read the real ones. The channel's
// settings are the store's (store/drill.ts), changed by PUT /sandbox/v1/evolution_drill or set by
// --drill at start.
import type { FastifyInstance } from 'fastify';
import { evolveValue, unknownEventAfter, type DrillSchema, type DrillSettings } from '../domain/evolution-drill.js';
import type { DueDelivery } from '../store/deliveries.js';
import type { DeliveryShaper, SandboxStore } from '../store/store.js';
import { CONTRACT_FILE, listOperations, loadDocument, resolveRef, type OpenApiDocument } from './document.js';
import type { RouteFacts } from './errors.js';

type Content = { content?: Record<string, { schema?: DrillSchema }> };
/** The schemas the drill walks: each contract operation's answer per status, and each event's envelope. */
export function drillSchemas(contract: OpenApiDocument) {
  const resolve = (ref: string) => resolveRef<DrillSchema>(contract, { $ref: ref });
  const answers = new Map<string, DrillSchema>();
  for (const { operation } of listOperations(contract)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      const schema = resolveRef<Content>(contract, response).content?.['application/json']?.schema;
      if (schema) answers.set(`${operation.operationId} ${status}`, schema);
    }
  }
  // A signed webhook is named as its event type (payment_session_complete, dispute.created, …).
  const envelopes = new Map<string, DrillSchema>();
  for (const [name, item] of Object.entries(contract.webhooks ?? {})) {
    const schema = (item as { post?: { requestBody?: Content } }).post?.requestBody?.content?.['application/json']
      ?.schema;
    if (schema && !name.endsWith('.legacy')) envelopes.set(name, schema);
  }
  return {
    resolve,
    answer: (operationId: string, status: number) => answers.get(`${operationId} ${status}`),
    envelope: (eventType: string) => envelopes.get(eventType),
  };
}

type Schemas = ReturnType<typeof drillSchemas>;

/** The id of the object an event is about, for the drill's event of an unknown type. */
function objectIdOf(data: Record<string, unknown>): string | undefined {
  const object = data.object as { sku?: unknown } | undefined;
  const id = data.payment_id ?? data.dispute_id ?? data.payment_token ?? object?.sku;
  return typeof id === 'string' ? id : undefined;
}

/** An event as the outbox holds it: the signed envelope. */
interface StoredEvent {
  webhook_delivery_id: string;
  event_type: string;
  data: Record<string, unknown>;
}

/** The UUID a webhook_delivery_id was made of (`dlv_` and its 32 hex digits, ids.ts). */
function uuidOf(webhookDeliveryId: string): string {
  const hex = webhookDeliveryId.slice('dlv_'.length);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The body a delivery sends now: the drill's event of an unknown type after its event (whatever the
 * drill is by then: it was fired under it), or its event, reshaped while the channel plays the
 * later version and as stored otherwise. Each attempt sends what the drill says at its time, so an
 * event stored under the drill and sent after it is turned off goes as today's service sends it.
 */
export function sentPayload(
  schemas: Schemas,
  settings: DrillSettings,
  delivery: Pick<DueDelivery, 'payload' | 'drill_follow_up'>,
): string {
  if (delivery.drill_follow_up !== null) {
    const event = JSON.parse(delivery.payload) as StoredEvent;
    const unknown = unknownEventAfter(event, objectIdOf(event.data), uuidOf(delivery.drill_follow_up));
    return JSON.stringify({ webhook_delivery_id: delivery.drill_follow_up, ...unknown });
  }
  if (!settings.enabled) return delivery.payload;
  const event = JSON.parse(delivery.payload) as StoredEvent;
  // The envelope's own keys keep their order; the drill's property comes after them.
  const options = { resolve: schemas.resolve, settings, newValues: true };
  return JSON.stringify(evolveValue(event, schemas.envelope(event.event_type), options));
}

/**
 * How the store shapes each due delivery as it is sent (createStore's `shapeDelivery`): the drill
 * of the delivery's channel applied to its event, with the contract's schemas.
 */
export function drillDeliveryShaper(contract: OpenApiDocument = loadDocument(CONTRACT_FILE)): DeliveryShaper {
  const schemas = drillSchemas(contract);
  return (delivery, settings) => sentPayload(schemas, settings, delivery);
}

/**
 * Turns the drill on for the answers of the contract's operations, as they are sent (the
 * deliveries are shaped by the store, with drillDeliveryShaper). A refusal keeps its code
 * (newValues: false).
 */
export function registerEvolutionDrill(app: FastifyInstance, store: SandboxStore, contract: OpenApiDocument): void {
  const schemas = drillSchemas(contract);
  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = (request.routeOptions.config as RouteFacts | undefined)?.operationId;
    if (!request.channel || typeof operationId !== 'string' || typeof payload !== 'string') return payload;
    const schema = schemas.answer(operationId, reply.statusCode);
    if (!schema) return payload;
    const settings = await store.drill.get(request.channel);
    if (!settings.enabled) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    return JSON.stringify(
      evolveValue(body, schema, { resolve: schemas.resolve, settings, newValues: reply.statusCode < 400 }),
    );
  });
}
