import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, expect, it } from 'vitest';
import { startReceivers } from '../../scripts/soak/receivers.ts';

// random() = 0: a flaky receiver fails every first attempt on purpose.
const receivers = await startReceivers(() => 0);
afterAll(() => receivers.close());

const secret = `whsec_${randomBytes(24).toString('base64')}`;
receivers.register('flaky', 'one', secret);

async function deliver(eventId: string): Promise<number> {
  const body = JSON.stringify({ id: eventId, type: 'payment.completed', data: { object: {} } });
  const at = new Date();
  const signature = new Webhook(secret).sign(eventId, at, body);
  const res = await fetch(receivers.url('flaky', 'one'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  });
  return res.status;
}

it('fails an event on purpose on its first attempt only, not on a re-send after it was acknowledged', async () => {
  const id = 'evt_01';
  expect(await deliver(id)).toBe(500);
  expect(await deliver(id)).toBe(200);
  // The sender did not see that answer (a timeout, a database down when it recorded it): it sends again.
  expect(await deliver(id)).toBe(200);
  // Another event on the same receiver still meets a first attempt.
  expect(await deliver('evt_02')).toBe(500);
  expect(receivers.counts.failedOnPurpose).toBe(2);
  expect([...receivers.acknowledged('flaky', 'one')]).toEqual([id]);
});
