/**
 * A revision and a payment of one sandbox due-date charge arriving together: the payment credits the
 * terms that stand when it holds the charge, never the ones a revision replaced while it waited.
 * PostgreSQL only (PGlite runs one statement at a time).
 */
import { afterAll, expect, it } from 'vitest';
import { onRealPostgres } from '../support/database.ts';
import { startWorld } from '../support/world.ts';
import { createDue, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());

/** Waits until `n` sessions of this database wait on a lock. */
async function untilWaiting(n: number): Promise<void> {
  let waiting = 0;
  for (let i = 0; i < 200 && waiting < n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const { rows } = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    waiting = rows[0]!.n;
  }
  expect(waiting).toBe(n);
}

it.skipIf(!onRealPostgres())(
  'a payment queued behind a revision is paid what the revised charge asks',
  async () => {
    const ws = await world.workspace('Cobranca Revista Paga');
    const charge = await createDue(ws.api, {
      amount_minor: '10000',
      due_date: spDate(10),
      days_valid_after_due: 5,
      rebate: { modality: 1, value_minor: '100' },
    });
    // Hold the charge so that the revision, then the payment, queue on it in that order.
    let revised: ReturnType<typeof ws.api.patch> | undefined;
    let paid: ReturnType<typeof ws.api.post> | undefined;
    await world.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM payments WHERE workspace_id = $1 AND id = $2 FOR UPDATE', [
        ws.owner.workspaceId,
        charge.id,
      ]);
      revised = ws.api.patch(`${DUE}/${charge.id}`, { amount_minor: '15000' });
      await untilWaiting(1);
      paid = ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
      await untilWaiting(2);
    });
    const [revision, payment] = await Promise.all([revised!, paid!]);
    expect(revision.statusCode, revision.body).toBe(200);
    expect(revision.json().data).toMatchObject({ amount_minor: '15000', amount_due_today_minor: '14900' });
    expect(payment.statusCode, payment.body).toBe(200);
    expect(payment.json().data).toMatchObject({ status: 'completed', amount_minor: '14900' });
    expect(await ws.balances()).toMatchObject({ available: '14900' });
  },
);

it.skipIf(!onRealPostgres())(
  'two revisions queued together both stand: the later keeps the earlier',
  async () => {
    const ws = await world.workspace('Cobranca Duas Revisoes');
    const charge = await createDue(ws.api, {
      amount_minor: '10000',
      due_date: spDate(10),
      days_valid_after_due: 5,
    });
    let first: ReturnType<typeof ws.api.patch> | undefined;
    let second: ReturnType<typeof ws.api.patch> | undefined;
    await world.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM payments WHERE workspace_id = $1 AND id = $2 FOR UPDATE', [
        ws.owner.workspaceId,
        charge.id,
      ]);
      first = ws.api.patch(`${DUE}/${charge.id}`, { amount_minor: '15000' });
      await untilWaiting(1);
      second = ws.api.patch(`${DUE}/${charge.id}`, { due_date: spDate(20) });
      await untilWaiting(2);
    });
    const answers = await Promise.all([first!, second!]);
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect((await ws.api.get(`${DUE}/${charge.id}`)).json().data).toMatchObject({
      revision: 2,
      amount_minor: '15000',
      due_date: spDate(20),
      amount_due_today_minor: '15000',
    });
  },
);
