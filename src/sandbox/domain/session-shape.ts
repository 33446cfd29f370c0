// The shape of a stored session document has a version. A database outlives an upgrade of the
// sandbox, so a document is brought to the current shape when it is read; it is stored in the
// current shape at its next write. Add a step here whenever Session changes.
import type { Session } from './types.js';

export const SESSION_SHAPE_VERSION = 2;

type StoredDocument = Record<string, unknown> & { shape_version?: number };

/** Shape 1: documents written before shapes were stamped. */
function fromShape1(document: StoredDocument): StoredDocument {
  const request = (document.request ?? {}) as { customer_email?: string; customer_name?: string };
  const items = (document.items as Array<Record<string, unknown>> | undefined) ?? [];
  return {
    ...document,
    // The earliest documents kept refunded units instead of cents taken by lost disputes.
    items: items.map(({ refunded_quantity: _units, ...item }) => ({ ...item, disputed: item.disputed ?? 0 })),
    // …and took the customer from the request alone; a charge with a token has none in the request.
    ...(document.customer_email === undefined &&
    document.payment_token === undefined &&
    request.customer_email !== undefined
      ? { customer_email: request.customer_email }
      : {}),
    ...(document.customer_name === undefined &&
    document.payment_token === undefined &&
    request.customer_name !== undefined
      ? { customer_name: request.customer_name }
      : {}),
    shape_version: 2,
  };
}

const UPGRADES: Record<number, (document: StoredDocument) => StoredDocument> = { 1: fromShape1 };

/** A stored document in the current shape; refuses one newer than this sandbox knows. */
export function upgradeSession(stored: StoredDocument): Session {
  let document = stored;
  for (
    let version = document.shape_version ?? 1;
    version < SESSION_SHAPE_VERSION;
    version = document.shape_version ?? version + 1
  ) {
    const upgrade = UPGRADES[version];
    if (!upgrade) throw new Error(`No upgrade of a session document from shape ${version}`);
    document = upgrade(document);
  }
  if ((document.shape_version ?? 1) > SESSION_SHAPE_VERSION) {
    throw new Error(
      `A session document of shape ${document.shape_version} was written by a newer sandbox (this one knows ` +
        `${SESSION_SHAPE_VERSION}).`,
    );
  }
  return document as unknown as Session;
}
