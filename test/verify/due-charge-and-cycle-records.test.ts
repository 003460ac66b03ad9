/**
 * `lastro verify` sets a paid due-date charge's payment beside the amount recorded as due that day
 * (and that amount beside its terms), and each paid subscription cycle beside its payment: a record
 * changed behind the service's back is named, though the journals still net.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { addDays, advanceTo, monthly, sandboxToday } from '../subscriptions/support.ts';
import { CPF, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

const flagged = async (check: string) =>
  ((await verifyBooks(world.db, 1000)).checks.find((c) => c.name === check)?.examples ?? []).map(
    (v) => v.subject,
  );

describe('the due-date charge and subscription cycle records', () => {
  it('passes on a due charge paid late, and names one whose payment or recorded amount was changed', async () => {
    const ws = await world.workspace('Due records');
    const today = await sandboxToday(ws);
    const created = await ws.api.post('/v1/sandbox/pix/due-charges', {
      amount_minor: '10000',
      due_date: addDays(today, 2),
      debtor: { name: 'Bia', document: CPF },
      fine: { modality: 2, percent: '2.00' },
      interest: { modality: 1, value_minor: '7' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as string;
    await ws.api.post('/v1/sandbox/test-clock/advance', { days: 5 });
    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/pay`, {});
    // 3 days late: 10000 + 2 % fine (200) + 3 × 7 interest.
    expect(paid.json().data.amount_minor).toBe('10221');
    expect((await verifyBooks(world.db, 1000)).ok).toBe(true);

    const scope = [ws.owner.workspaceId, id];
    await world.db.query(
      'UPDATE pix_due_charges SET amount_due_minor = 10000 WHERE workspace_id = $1 AND payment_id = $2',
      scope,
    );
    expect(await flagged('due_charge_payment')).toContain(id);
    expect(await flagged('due_charge_amount')).toContain(id);
    await world.db.query(
      'UPDATE pix_due_charges SET amount_due_minor = NULL WHERE workspace_id = $1 AND payment_id = $2',
      scope,
    );
    expect(await flagged('due_charge_payment')).toContain(id);
    await world.db.query(
      'UPDATE pix_due_charges SET amount_due_minor = 10221 WHERE workspace_id = $1 AND payment_id = $2',
      scope,
    );
    expect(await flagged('due_charge_payment')).not.toContain(id);
    await world.db.query(
      `UPDATE pix_due_charges SET terms = terms - 'interest' WHERE workspace_id = $1 AND payment_id = $2`,
      scope,
    );
    expect(await flagged('due_charge_amount')).toContain(id);
    // The next test starts from books verify finds whole.
    await world.db.query(
      `UPDATE pix_due_charges SET terms = terms || '{"interest": {"modality": 1, "value_minor": "7"}}'::jsonb
        WHERE workspace_id = $1 AND payment_id = $2`,
      scope,
    );
    expect((await verifyBooks(world.db, 1000)).ok).toBe(true);
  });

  it('names a paid cycle payment whose cycle is no longer paid, and a paid cycle of another amount than its payment', async () => {
    const ws = await world.workspace('Cycle records');
    const start = addDays(await sandboxToday(ws), 7);
    const sub = (await ws.api.post('/v1/sandbox/subscriptions', monthly(start))).json().data;
    await ws.api.post(`/v1/sandbox/simulate/subscriptions/${sub.id}/authorise`, { approve: true });
    await advanceTo(world, ws, addDays(start, 1));
    const { rows } = await world.db.query<{ payment_id: string }>(
      `SELECT payment_id FROM subscription_cycles WHERE workspace_id = $1 AND status = 'paid'`,
      [ws.owner.workspaceId],
    );
    expect(rows).toHaveLength(1);
    const before = await verifyBooks(world.db, 1000);
    expect(before.checks.filter((c) => c.violations > 0)).toEqual([]);

    await world.db.query(
      `UPDATE subscription_cycles SET status = 'cancelled' WHERE workspace_id = $1 AND payment_id = $2`,
      [ws.owner.workspaceId, rows[0]!.payment_id],
    );
    expect(await flagged('subscription_cycle_payment')).toContain(rows[0]!.payment_id);
    await world.db.query(
      `UPDATE subscription_cycles SET status = 'paid', amount_minor = 3600 WHERE workspace_id = $1 AND payment_id = $2`,
      [ws.owner.workspaceId, rows[0]!.payment_id],
    );
    expect(await flagged('subscription_cycle_payment')).toContain(`${sub.id}#1`);
  });
});
