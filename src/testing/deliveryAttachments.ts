/**
 * Webhook deliveries as the report shows them: one attachment per delivery, the request as the store sent it
 * (headers, body, signature) and each attempt with its time, status or error and the receiver's answer, so a
 * reader sees what was checked, not only that a check passed.
 */
import type { TestInfo } from '@playwright/test';
import type { DeliveryRecord } from '../twins/store/webhookOutbox.ts';

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** One delivery as text: the POST, then its attempts. */
export function deliveryText(delivery: DeliveryRecord): string {
  const lines = [`POST ${delivery.url}`, ...Object.entries(delivery.headers).map(([name, value]) => `${name}: ${value}`), '', delivery.body, ''];
  lines.push(`event at ${iso(delivery.eventAt)} (store clock); state ${delivery.state}`);
  for (const attempt of delivery.attempts) {
    const outcome = attempt.skipped ? 'skipped' : attempt.status !== null ? `HTTP ${attempt.status}` : 'no answer';
    const after = attempt.durationMs === null ? '' : ` in ${attempt.durationMs} ms`;
    lines.push(`attempt ${attempt.attempt} at ${iso(attempt.at)}: ${outcome}${after}${attempt.error ? ` (${attempt.error})` : ''}`);
    if (attempt.answer?.body) lines.push(`  answered: ${attempt.answer.body.replace(/\n/g, '\n  ')}`);
  }
  if (delivery.nextAttemptAt !== null) lines.push(`next attempt at ${iso(delivery.nextAttemptAt)}`);
  return lines.join('\n');
}

/** Attaches each delivery (without a step: see httpAttachments.ts attachQuietly) and the JSON record for tools. */
export function attachDeliveries(testInfo: TestInfo, deliveries: readonly DeliveryRecord[]): void {
  deliveries.forEach((delivery, i) => {
    testInfo.attachments.push({
      name: `webhook ${i + 1}: ${delivery.event} → ${delivery.state} (${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? '' : 's'})`,
      contentType: 'text/plain',
      body: Buffer.from(deliveryText(delivery)),
    });
  });
  if (deliveries.length > 0)
    testInfo.attachments.push({ name: 'webhook deliveries.json', contentType: 'application/json', body: Buffer.from(JSON.stringify(deliveries, null, 2)) });
}
