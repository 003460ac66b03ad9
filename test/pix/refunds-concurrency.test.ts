/**
 * Two refunds of one charge completing at the same moment (the worker runs a claim's jobs side by
 * side) still mark the charge `refunded`. markRefundedWhenWhole sums the completed refunds in the
 * statement that locks the original, whose snapshot predates any lock wait; it is right because both
 * completions first queue on the party's locked balance in ledger_post, so the second one's locking
 * statement starts after the first committed. This test holds if that order ever changes.
 * PostgreSQL only (PGlite runs one statement at a time).
 */
import { afterAll, expect, it } from 'vitest';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { onRealPostgres } from '../support/database.ts';
import { CPF, startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

it.skipIf(!onRealPostgres())('two refunds completing together mark the charge refunded', async () => {
  const ws = await world.workspace('Dois Reembolsos');
  const created = await ws.api.post('/v1/sandbox/pix/charges', {
    amount_minor: '10000',
    payer: { name: 'Bia', document: CPF },
  });
  const chargeId: string = created.json().data.id;
  expect((await ws.api.post(`/v1/sandbox/simulate/payments/${chargeId}/pay`)).statusCode).toBe(200);
  const refundIds: string[] = [];
  for (const amount of ['4000', '6000']) {
    const res = await ws.api.post(`/v1/sandbox/payments/${chargeId}/refund`, { amount_minor: amount });
    expect(res.statusCode, res.body).toBe(200);
    refundIds.push(res.json().data.id);
  }

  // Hold the charge's row so that both completions are under way (one waiting on that row, the
  // other on the balance they share) before either commits.
  let completions: Promise<void>[] = [];
  await world.db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM payments WHERE workspace_id = $1 AND id = $2 FOR UPDATE', [
      ws.owner.workspaceId,
      chargeId,
    ]);
    completions = refundIds.map((paymentId) =>
      pixTransfers.recordOutcome(
        world.deps,
        { paymentId, workspaceId: ws.owner.workspaceId, environment: 'sandbox' },
        { status: 'completed' },
      ),
    );
    let waiting = 0;
    for (let i = 0; i < 200 && waiting < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const { rows } = await world.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      waiting = rows[0]!.n;
    }
    expect(waiting).toBe(2);
  });
  await Promise.all(completions);

  const statusOf = async (id: string) => (await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status;
  expect(await Promise.all(refundIds.map(statusOf))).toEqual(['completed', 'completed']);
  expect(await statusOf(chargeId)).toBe('refunded');
});
