// The evolution drill: the sandbox plays a later version of the service, which adds what the
// evolution policy lets it add without a new version (the Versioning and evolution guide), so that
// a partner rehearses that future against their own integration:
// - a property the contract does not declare, `added_later`, in every object of every answer and
//   delivery where the contract lets an object grow;
// - in every open enum of a resource (an answer that is not a refusal, and every delivery), a value
//   the contract does not list: `added_later` in the style of the enum's own values;
// - `service_fee` as a JSON number instead of a string (or the other way round);
// - an event type the contract does not know, after every event (deliveryOfUnknownType).
// A refusal keeps its code: a code tells the partner what to do next, so the drill answers an
// unlisted code only where a test asks for it (the faults helper). Pure: the schemas come in.

/** A channel's drill: whether it plays the later version, and how it writes service_fee. */
export interface DrillSettings {
  enabled: boolean;
  service_fee: 'number' | 'string';
}

/** The property the drill adds, and the word its new values are made of. */
export const ADDED_PROPERTY = 'added_later';
export const ADDED_PROPERTY_VALUE = Object.freeze({
  note: 'A property a later version of the service adds: read what you know, ignore the rest.',
});
/** The event type the drill delivers after every event: one no version of the contract lists. */
export const UNKNOWN_EVENT_TYPE = 'added_later';

/**
 * The value the drill puts in an open enum, in the style of its documented values: `Added Later`
 * beside `Partially Refunded`, `AddedLater` beside `SessionCaptured`, `added.later` beside
 * `dispute.created`, and `added_later` otherwise.
 */
export function laterValue(known: readonly string[]): string {
  if (known.some((value) => value.includes(' '))) return 'Added Later';
  if (known.length > 0 && known.every((value) => /^[A-Z][A-Za-z0-9]*$/.test(value))) return 'AddedLater';
  if (known.length > 0 && known.every((value) => value.includes('.'))) return 'added.later';
  return 'added_later';
}

/** A JSON Schema as the drill reads it: only the keywords it follows. */
export interface DrillSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, DrillSchema>;
  additionalProperties?: boolean | DrillSchema;
  items?: DrillSchema;
  allOf?: DrillSchema[];
  anyOf?: DrillSchema[];
  oneOf?: DrillSchema[];
}

/** The known values of an open enum (`anyOf` of a string `enum` and any string), or undefined. */
export function openEnumOf(schema: DrillSchema): string[] | undefined {
  const branches = schema.anyOf;
  if (branches?.length !== 2 || !branches.every((branch) => branch.type === 'string')) return undefined;
  const known = branches.filter((branch) => Array.isArray(branch.enum));
  return known.length === 1 ? (known[0]!.enum as string[]) : undefined;
}

/** A value the document allows as a string or as a number (ServiceFee): `anyOf`/`oneOf` of exactly those two types. */
function isStringOrNumber(schema: DrillSchema): boolean {
  const branches = schema.anyOf ?? schema.oneOf;
  const types = branches?.map((branch) => branch.type).sort();
  return types?.length === 2 && types[0] === 'number' && types[1] === 'string';
}

export interface EvolveOptions {
  /** Follows a `$ref` of the document. */
  resolve: (ref: string) => DrillSchema;
  settings: DrillSettings;
  /** Whether enum values change: in resources, not in a refusal's body (its code stays). */
  newValues: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The schema behind its references (a reference that leads back to one already followed stops there). */
function deref(schema: DrillSchema, options: EvolveOptions): DrillSchema {
  let at = schema;
  const followed = new Set<string>();
  while (at.$ref !== undefined && !followed.has(at.$ref)) {
    followed.add(at.$ref);
    at = options.resolve(at.$ref);
  }
  return at;
}

/**
 * What an object's schema says of its properties: the declared ones (through allOf and the branch that fits) and
 * whether others may be added.
 */
function objectShape(
  schema: DrillSchema,
  value: Record<string, unknown>,
  options: EvolveOptions,
): { properties: Record<string, DrillSchema>; extra: DrillSchema | undefined; open: boolean } {
  const properties: Record<string, DrillSchema> = {};
  let extra: DrillSchema | undefined;
  let open = true;
  const visit = (part: DrillSchema) => {
    const resolved = deref(part, options);
    Object.assign(properties, resolved.properties ?? {});
    if (resolved.additionalProperties === false) open = false;
    else if (isObject(resolved.additionalProperties)) {
      extra = resolved.additionalProperties;
      open = false; // a typed map: a property of another type would break it
    }
    for (const sub of resolved.allOf ?? []) visit(sub);
    const branch = (resolved.anyOf ?? resolved.oneOf)
      ?.map((sub) => deref(sub, options))
      .find((sub) => fitsObject(sub, value));
    if (branch) visit(branch);
  };
  visit(schema);
  return { properties, extra, open };
}

/** Whether a branch of a composition describes this object: an object schema whose required properties it has. */
function fitsObject(schema: DrillSchema & { required?: string[] }, value: Record<string, unknown>): boolean {
  const objectLike = schema.type === 'object' || schema.properties !== undefined || schema.allOf !== undefined;
  return objectLike && (schema.required ?? []).every((name) => name in value);
}

/**
 * The value as the later version sends it, walking it with its schema. Leaves the input alone.
 * A value the schema does not describe (an undeclared field, a free-form map) is kept as it is.
 */
export function evolveValue(value: unknown, schema: DrillSchema | undefined, options: EvolveOptions): unknown {
  if (schema === undefined) return value;
  const resolved = deref(schema, options);
  if (typeof value === 'string' || typeof value === 'number') {
    // The schema itself, or a branch of it (a nullable field is `anyOf` of the enum and null).
    for (const candidate of [
      resolved,
      ...[...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].map((sub) => deref(sub, options)),
    ]) {
      if (isStringOrNumber(candidate)) return otherRepresentation(value, options.settings.service_fee);
      const known = openEnumOf(candidate);
      if (known)
        return options.newValues && typeof value === 'string' && known.includes(value) ? laterValue(known) : value;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const items =
      resolved.items ??
      [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].map((sub) => deref(sub, options)).find((sub) => sub.items)
        ?.items;
    return value.map((item) => evolveValue(item, items, options));
  }
  if (!isObject(value)) return value;
  const { properties, extra, open } = objectShape(resolved, value, options);
  const evolved: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value))
    evolved[key] = evolveValue(field, properties[key] ?? extra, options);
  if (open && !(ADDED_PROPERTY in evolved)) evolved[ADDED_PROPERTY] = { ...ADDED_PROPERTY_VALUE };
  return evolved;
}

/** A decimal that the document allows as a string or a number, written the way the drill's settings say. */
function otherRepresentation(value: string | number, as: DrillSettings['service_fee']): string | number {
  if (as === 'string') return typeof value === 'number' ? value.toFixed(2) : value;
  if (typeof value === 'number') return value;
  const parsed = Number(value);
  return value.trim() !== '' && Number.isFinite(parsed) ? parsed : value;
}

/**
 * The event of a type no contract lists, which the drill delivers after `about`: it names the object the event was
 * about.
 */
export function unknownEventAfter(
  about: { event_type: string; data: Record<string, unknown> },
  objectId: string | undefined,
  eventId: string,
): { event_type: string; data: Record<string, unknown> } {
  return {
    event_type: UNKNOWN_EVENT_TYPE,
    data: {
      id: eventId,
      object: UNKNOWN_EVENT_TYPE,
      after_event_type: about.event_type,
      ...(objectId !== undefined ? { object_id: objectId } : {}),
      [ADDED_PROPERTY]: { ...ADDED_PROPERTY_VALUE },
    },
  };
}
