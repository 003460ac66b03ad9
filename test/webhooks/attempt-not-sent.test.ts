/**
 * A delivery whose attempt fails before anything is sent (its endpoint's signing secret cannot be
 * opened) is recorded as a failed attempt with its error and follows the retry schedule to its end,
 * like a receiver that is down; it is never claimed again after every lease with nothing recorded.
 */
import { afterAll, expect, it } from 'vitest';
import { deliveries, dispatch, emit, receiverEndpoint, startWebhookWorld } from './helpers.ts';

const world = await startWebhookWorld({ timeoutMs: 1000 });
afterAll(() => world.close());

it('an attempt that cannot be signed is recorded failed, retried on the schedule, then the delivery fails', async () => {
  const broken = await receiverEndpoint(world, '/unsigned');
  const healthy = await receiverEndpoint(world, '/healthy');
  await world.ctx.db.query(`UPDATE webhook_endpoints SET secret_enc = $2 WHERE id = $1`, [
    broken.id,
    'bm90.YSBzZWFsZWQ.dmFsdWU',
  ]);
  await emit(world.ctx, world.owner.workspaceId);

  // The round does not throw: the bad item is recorded and the others go on.
  expect(await dispatch(world)).toBe(2);
  expect(world.receiver.received('/healthy')).toHaveLength(1);
  const [first] = await deliveries(world.api, `?endpoint_id=${broken.id}`);
  expect(first).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
  expect(first!.last_error).toMatch(/signing secret/);
  expect(first!.next_attempt_at).not.toBeNull();
  // Not due again before its next step, however many leases pass.
  expect(await dispatch(world)).toBe(0);

  for (let attempt = 2; attempt <= 8; attempt++) {
    const [before] = await deliveries(world.api, `?endpoint_id=${broken.id}`);
    world.ctx.clock.advance(Date.parse(before!.next_attempt_at!) - world.ctx.clock.now().getTime() + 1);
    expect(await dispatch(world)).toBe(1);
  }
  const [last] = await deliveries(world.api, `?endpoint_id=${broken.id}`);
  expect(last).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
  world.ctx.clock.advance(48 * 3600_000);
  expect(await dispatch(world)).toBe(0);

  const detail = await world.api.get(`/v1/sandbox/webhooks/deliveries/${last!.id}`);
  const history = detail.json().data.attempt_history as Array<{ status_code: number | null; error: string }>;
  expect(history).toHaveLength(8);
  expect(history.every((a) => a.status_code === null && /signing secret/.test(a.error))).toBe(true);
  expect(world.receiver.received('/unsigned')).toHaveLength(0);
  expect(healthy.status).toBe('enabled');
});
