// Runs a row's webhook verifier on a real delivery, and on the same delivery re-signed during a
// secret rotation (two v0 entries, the valid one second), which it must accept; and on four it must
// refuse: a body changed by one digit, the wrong secret, a header without its v0 entry, and a
// genuine signature ten minutes old (a replay). A delivery of an event type the contract does not
// know (the evolution drill's) it must accept, and say that it ignores; one it knows, it must not.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Delivery } from './deliveries.js';
import type { Row, RowContext } from './row.js';

const IGNORED = 'ignored unknown event type';

/** The verifier on a genuine delivery of an event type the contract does not know: accepted (a 204), and ignored. */
export async function checkUnknownEvent(row: Row, ctx: RowContext, delivery: Delivery, secret: string): Promise<void> {
  const file = path.join(ctx.workDir, 'delivery-unknown.body');
  writeFileSync(file, delivery.body);
  const eventType = String(JSON.parse(delivery.body.toString('utf8')).event_type);
  const result = await row.verify(ctx, { bodyFile: file, signatureHeader: delivery.signatureHeader, secret });
  if (result.status !== 0)
    throw new Error(
      `the verifier refused a genuine delivery of the unknown event type ${eventType} (exit ${result.status}); a receiver answers 204 and ignores it:\n${result.output}`,
    );
  if (!result.output.includes(`${IGNORED} ${eventType}`))
    throw new Error(
      `the verifier accepted the ${eventType} delivery but did not print "${IGNORED} ${eventType}":\n${result.output}`,
    );
}

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
  if (accepted.status !== 0)
    throw new Error(`the verifier refused a genuine delivery (exit ${accepted.status}):\n${accepted.output}`);
  // It reads the verified body: it names the event the delivery carries.
  const eventType = String(JSON.parse(delivery.body.toString('utf8')).event_type);
  if (!accepted.output.includes(`verified ${eventType}`))
    throw new Error(
      `the verifier accepted the delivery but did not print "verified ${eventType}":\n${accepted.output}`,
    );
  if (accepted.output.includes(IGNORED))
    throw new Error(`the verifier ignored ${eventType}, an event type of the contract:\n${accepted.output}`);
  const sign = (t: number) => createHmac('sha256', secret).update(`${t}.`).update(delivery.body).digest('hex');
  const now = Math.floor(Date.now() / 1000);
  const rotation = `t=${now},v0=${'0'.repeat(64)},v0=${sign(now)}`;
  const rotated = await row.verify(ctx, { bodyFile: genuine, signatureHeader: rotation, secret });
  if (rotated.status !== 0)
    throw new Error(
      `the verifier refused a delivery signed during a rotation (two v0 entries, the second valid):\n${rotated.output}`,
    );
  const refusals: Array<[string, Awaited<ReturnType<Row['verify']>>]> = [
    [
      'a body changed by one byte',
      await row.verify(ctx, { bodyFile: tampered, signatureHeader: delivery.signatureHeader, secret }),
    ],
    [
      'the wrong secret',
      await row.verify(ctx, { bodyFile: genuine, signatureHeader: delivery.signatureHeader, secret: `${secret}x` }),
    ],
    [
      'a header without v0',
      await row.verify(ctx, {
        bodyFile: genuine,
        signatureHeader: delivery.signatureHeader.replace(/,?v0=[0-9a-f]+/g, ''),
        secret,
      }),
    ],
    [
      'a signature ten minutes old',
      await row.verify(ctx, { bodyFile: genuine, signatureHeader: `t=${now - 600},v0=${sign(now - 600)}`, secret }),
    ],
  ];
  const wronglyAccepted = refusals.filter(([, result]) => result.status === 0).map(([name]) => name);
  if (wronglyAccepted.length > 0) throw new Error(`the verifier accepted ${wronglyAccepted.join(', ')}`);
}
