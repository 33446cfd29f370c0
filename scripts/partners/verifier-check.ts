// Runs a row's webhook verifier on a real delivery, and on three that must be refused: a body
// changed by one byte, the wrong secret, and a signature header without its v0 entry.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Delivery } from './deliveries.js';
import type { Row, RowContext } from './row.js';

export async function checkVerifier(row: Row, ctx: RowContext, delivery: Delivery, secret: string): Promise<void> {
  const genuine = path.join(ctx.workDir, 'delivery.body');
  writeFileSync(genuine, delivery.body);
  const tampered = path.join(ctx.workDir, 'delivery-tampered.body');
  // One digit changed: the body stays valid JSON, so only the signature can refuse it.
  const changed = Buffer.from(delivery.body);
  const at = changed.findIndex((byte) => byte >= 0x30 && byte <= 0x39);
  if (at < 0) throw new Error('the delivery has no digit to change');
  changed[at] = changed[at] === 0x31 ? 0x32 : 0x31;
  writeFileSync(tampered, changed);

  const accepted = await row.verify(ctx, { bodyFile: genuine, signatureHeader: delivery.signatureHeader, secret });
  if (accepted.status !== 0) throw new Error(`the verifier refused a genuine delivery (exit ${accepted.status}):\n${accepted.output}`);
  // It reads the verified body: it names the event the delivery carries.
  const eventType = String(JSON.parse(delivery.body.toString('utf8')).event_type);
  if (!accepted.output.includes(`verified ${eventType}`)) throw new Error(`the verifier accepted the delivery but did not print "verified ${eventType}":\n${accepted.output}`);
  const refusals: Array<[string, Awaited<ReturnType<Row['verify']>>]> = [
    ['a body changed by one byte', await row.verify(ctx, { bodyFile: tampered, signatureHeader: delivery.signatureHeader, secret })],
    ['the wrong secret', await row.verify(ctx, { bodyFile: genuine, signatureHeader: delivery.signatureHeader, secret: `${secret}x` })],
    ['a header without v0', await row.verify(ctx, { bodyFile: genuine, signatureHeader: delivery.signatureHeader.replace(/,?v0=[0-9a-f]+/g, ''), secret })],
  ];
  const wronglyAccepted = refusals.filter(([, result]) => result.status === 0).map(([name]) => name);
  if (wronglyAccepted.length > 0) throw new Error(`the verifier accepted ${wronglyAccepted.join(', ')}`);
}
