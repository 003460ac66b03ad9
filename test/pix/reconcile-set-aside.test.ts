/**
 * The reconciliation sweep looks at the oldest stuck transfers first. One whose reconciliation throws
 * every time (a provider answer that cannot be read) must not stop it for every later transfer: it
 * is set aside, recorded and counted, and retried on its own backoff.
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { SetAsideError, setAsideTotal } from '../../src/platform/set-aside.ts';
import type { PixProvider } from '../../src/providers/pix/provider.ts';
import { runJobs } from '../../src/worker.ts';
import { sandboxPsp, useSandboxPix } from '../support/providers.ts';
import { startWorld } from '../support/world.ts';

const SOURCE = 'pix-reconcile';
const world = await startWorld({ sandboxSettleMs: 10 * 60_000 });
afterAll(() => world.close());

const counted = async () =>
  (await setAsideTotal.get()).values.find((v) => v.labels.source === SOURCE)?.value ?? 0;

it('a transfer whose reconciliation fails is set aside and later transfers of other tenants are settled', async () => {
  const sandbox = sandboxPsp(world.deps);
  let unreadable: string | undefined;
  const asked: string[] = [];
  const psp: PixProvider = {
    name: 'sandbox-with-one-bad-answer',
    createCharge: (input) => sandbox.createCharge(input),
    sendRefund: (input) => sandbox.sendRefund(input),
    sendPayout: (input) => sandbox.sendPayout(input),
    getStatus: async (id) => {
      asked.push(id);
      if (id === unreadable) throw new SyntaxError('Unexpected token < in JSON at position 0');
      return sandbox.getStatus(id);
    },
  };
  useSandboxPix(world.deps, psp);

  const alice = await world.workspace('Alice', { settlementKey: true, fund: '10000' });
  const bob = await world.workspace('Bob', { settlementKey: true, fund: '10000' });
  const first = await alice.payout('2000', { pix_key: '52998224725' });
  await runJobs(world.deps, ['pix.send']);
  world.clock.advance(1000);
  const second = await bob.payout('3000', { pix_key: '52998224725' });
  await runJobs(world.deps, ['pix.send']);
  // Both poll jobs were lost (a restart); both transfers settle at the PSP.
  await world.db.query('UPDATE jobs SET done_at = now() WHERE subject_id = ANY($1)', [[first.id, second.id]]);
  world.clock.advance(11 * 60_000);
  unreadable = first.id;
  const before = await counted();

  const ended = await pixTransfers.reconcile(world.deps).catch((error: unknown) => error);
  const status = async (ws: typeof alice, id: string) =>
    (await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status;
  expect(await status(bob, second.id)).toBe('completed');
  expect(await bob.balances()).toMatchObject({ available: '6900', locked: '0' });
  expect(await status(alice, first.id)).toBe('processing');
  expect(await alice.balances()).toMatchObject({ available: '7900', locked: '2100' });
  expect(ended).toBeInstanceOf(SetAsideError);
  expect((ended as SetAsideError).items).toEqual([expect.objectContaining({ key: first.id })]);
  const { rows } = await world.db.query<{ item_key: string; workspace_id: string; error: string }>(
    'SELECT item_key, workspace_id, error FROM set_aside_items WHERE source = $1 AND resolved_at IS NULL',
    [SOURCE],
  );
  expect(rows).toEqual([
    { item_key: first.id, workspace_id: alice.owner.workspaceId, error: expect.stringContaining('JSON') },
  ]);
  expect(await counted()).toBe(before + 1);

  // Not asked about again before its retry is due; then, the PSP answering again, it is settled.
  asked.length = 0;
  await pixTransfers.reconcile(world.deps);
  expect(asked).not.toContain(first.id);
  unreadable = undefined;
  world.clock.advance(61_000);
  await pixTransfers.reconcile(world.deps);
  expect(await status(alice, first.id)).toBe('completed');
  expect(await alice.balances()).toMatchObject({ available: '7900', locked: '0' });
  const open = await world.db.query(
    'SELECT 1 FROM set_aside_items WHERE source = $1 AND resolved_at IS NULL',
    [SOURCE],
  );
  expect(open.rows).toEqual([]);
});
