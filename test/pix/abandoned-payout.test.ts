import { afterAll, describe, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { startWorld } from '../support/world.ts';
import { workspaceWithPayout } from './support.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('a payout whose send job was parked', () => {
  it('is failed by the reconciliation sweep when the provider never saw it, and its money returns', async () => {
    const { ws, payout } = await workspaceWithPayout(world);
    expect(await ws.balances()).toMatchObject({ available: '7900', locked: '2100' });
    // Every attempt to hand it to the provider failed: the job runner parked the job.
    await world.db.query(
      `UPDATE jobs SET done_at = now(), failed_at = now() WHERE payload->>'paymentId' = $1`,
      [payout.id],
    );

    await pixTransfers.reconcile(world.deps);
    expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('created');

    // Not while an attempt could still be in flight: only 10 minutes after the job was parked.
    world.clock.advance(6 * 60_000);
    await pixTransfers.reconcile(world.deps);
    expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('created');
    world.clock.advance(5 * 60_000);
    await pixTransfers.reconcile(world.deps);
    const after = (await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data;
    expect(after).toMatchObject({ status: 'failed', failure_reason: 'provider_unreachable' });
    expect(await ws.balances()).toMatchObject({ available: '10000', locked: '0' });
  });

  it('is left alone while its send job is still live', async () => {
    const { ws, payout } = await workspaceWithPayout(world);
    world.clock.advance(6 * 60_000);
    await pixTransfers.reconcile(world.deps);
    expect((await ws.api.get(`/v1/sandbox/payments/${payout.id}`)).json().data.status).toBe('created');
  });
});
