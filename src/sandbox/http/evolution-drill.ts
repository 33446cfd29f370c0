// The evolution drill at the sandbox's edges (the rules are domain/evolution-drill.ts): on a
// channel that plays a later version of the service, every answer of a contract operation and
// every event it delivers is reshaped, walking it with the schema the contract gives it; and after
// every event comes one of a type the contract does not know. The channel's settings are the
// store's (store/drill.ts), changed by PUT /sandbox/v1/evolution_drill or set by --drill at start.
import type { FastifyInstance } from 'fastify';
import { evolveValue, unknownEventAfter, type DrillSchema, type DrillSettings } from '../domain/evolution-drill.js';
import type { DomainEvent } from '../domain/types.js';
import type { Store } from '../store/index.js';
import { listOperations, resolveRef, type OpenApiDocument } from './document.js';
import type { RouteFacts } from './errors.js';

type Content = { content?: Record<string, { schema?: DrillSchema }> };
/** The keys of a signed envelope that the outbox writes itself; the drill adds its own after them. */
const ENVELOPE_KEYS = new Set(['webhook_delivery_id', 'event_type', 'timestamp', 'data']);

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
    const schema = (item as { post?: { requestBody?: Content } }).post?.requestBody?.content?.['application/json']?.schema;
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

/** The events as a channel under the drill delivers them: each reshaped, and followed by one of an unknown type. */
export function shapeEvents(schemas: Schemas, settings: DrillSettings, events: DomainEvent[], newEventId: () => string): DomainEvent[] {
  return events.flatMap((event) => {
    const envelope = { event_type: event.event_type, ...(event.timestamp !== undefined ? { timestamp: event.timestamp } : {}), data: event.data };
    const evolved = evolveValue(envelope, schemas.envelope(event.event_type), { resolve: schemas.resolve, settings, newValues: true }) as Record<string, unknown>;
    const added = Object.fromEntries(Object.entries(evolved).filter(([key]) => !ENVELOPE_KEYS.has(key)));
    const reshaped: DomainEvent = { ...event, data: evolved.data as Record<string, unknown>, ...(Object.keys(added).length > 0 ? { envelope: added } : {}) };
    return [reshaped, unknownEventAfter(event, objectIdOf(event.data), newEventId())];
  });
}

/**
 * Turns the drill on at the edges: the answers of the contract's operations, as they are sent,
 * and the events every write queues (store.events). A refusal keeps its code (newValues: false).
 */
export function registerEvolutionDrill(app: FastifyInstance, store: Store, contract: OpenApiDocument): void {
  const schemas = drillSchemas(contract);
  store.events.useShaper((channel, events, newEventId) => {
    const settings = store.drill.get(channel);
    return settings.enabled ? shapeEvents(schemas, settings, events, newEventId) : events;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = (request.routeOptions.config as RouteFacts | undefined)?.operationId;
    if (!request.channel || typeof operationId !== 'string' || typeof payload !== 'string') return payload;
    const schema = schemas.answer(operationId, reply.statusCode);
    if (!schema) return payload;
    const settings = store.drill.get(request.channel);
    if (!settings.enabled) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    return JSON.stringify(evolveValue(body, schema, { resolve: schemas.resolve, settings, newValues: reply.statusCode < 400 }));
  });
}
