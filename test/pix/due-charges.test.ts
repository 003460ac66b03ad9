/**
 * PIX charges with a due date in sandbox: paid on the due day, late (fine once, interest per day)
 * and early (discount), each credits exactly the amount due on the sandbox clock's day; past its last
 * payable day it cannot be paid and expires.
 */
import { hasError, parsePix } from 'pix-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { expireSandboxDueCharges } from '../../src/modules/pix/due-charge-tasks.ts';
import { startWorld } from '../support/world.ts';
import { advanceDays, createDue, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());

/** R$ 100.00 due in 10 days: 2 % fine, 3 % a month interest, R$ 5.00 off until day 5, R$ 1.00 rebate. */
const terms = () => ({
  amount_minor: '10000',
  due_date: spDate(10),
  days_valid_after_due: 30,
  fine: { modality: 2, percent: '2.00' },
  interest: { modality: 3, percent: '3.00' },
  rebate: { modality: 1, value_minor: '100' },
  discount: { modality: 1, dates: [{ date: spDate(5), value_minor: '500' }] },
});

async function payAfter(days: number, expected: string) {
  const ws = await world.workspace();
  const charge = await createDue(ws.api, terms());
  expect(charge).toMatchObject({ status: 'created', amount_minor: '10000', due_date: spDate(10) });
  expect(charge.pix_qr_code).toMatch(/^000201/);
  if (days > 0) await advanceDays(ws.api, days);
  const shown = (await ws.api.get(`${DUE}/${charge.id}`)).json().data;
  expect(shown.amount_due_today_minor).toBe(expected);
  const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
  expect(paid.statusCode, paid.body).toBe(200);
  expect(paid.json().data).toMatchObject({
    status: 'completed',
    amount_minor: expected,
    kind: 'pix_cash_in',
  });
  expect(await ws.balances()).toMatchObject({ available: expected });
  expect((await ws.api.get(`${DUE}/${charge.id}`)).json().data).toMatchObject({
    status: 'completed',
    amount_minor: expected,
    amount_due_today_minor: '0',
  });
  return { ws, shown };
}

describe('due-date charges in sandbox', () => {
  it('the BR Code fixes no amount: a payer is asked the day’s amount due, not the original', async () => {
    const ws = await world.workspace();
    const charge = await createDue(ws.api, terms());
    const pix = parsePix(charge.pix_qr_code);
    expect(hasError(pix)).toBe(false);
    // Field 54 (the amount) is absent: the amount of a charge with a due date is the day's.
    expect(charge.pix_qr_code).not.toContain('5406100.00');
    expect((pix as { transactionAmount?: number }).transactionAmount ?? 0).toBe(0);
    expect(charge.amount_due_today_minor).toBe('9400');
  });

  it('on the due day: the original less the rebate, no fine, no discount', async () => {
    const { shown } = await payAfter(10, '9900');
    expect(shown.amount_due_today).toEqual({
      original_minor: '10000',
      fine_minor: '0',
      interest_minor: '0',
      rebate_minor: '100',
      discount_minor: '0',
    });
  });

  it('7 days late: the fine once (200) and 7 days of 3 % a month (70)', async () => {
    const { shown } = await payAfter(17, '10170');
    expect(shown.amount_due_today).toMatchObject({
      fine_minor: '200',
      interest_minor: '70',
      rebate_minor: '100',
    });
  });

  it('early, before the discount date: R$ 5.00 off', async () => {
    const { shown } = await payAfter(2, '9400');
    expect(shown.amount_due_today).toMatchObject({ discount_minor: '500' });
  });

  it('after the discount date but before the due date: no discount', async () => {
    await payAfter(7, '9900');
  });

  it('a fee is taken from what is paid, not from the original', async () => {
    const ws = await world.workspace();
    await world.db.query(
      `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_cash_in', 10, 100)`,
      [ws.owner.workspaceId],
    );
    const charge = await createDue(ws.api, terms());
    await advanceDays(ws.api, 17);
    const paid = (await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`)).json().data;
    // 10 + ceil(10170 × 1 %) = 112.
    expect(paid).toMatchObject({ amount_minor: '10170', fee_minor: '112' });
    expect(await ws.balances()).toMatchObject({ available: String(10170 - 112) });
    expect(await ws.feeRevenue()).toBe(112n);
  });

  it('past due_date + days_valid_after_due it cannot be paid, shows 0 due, and expires by the sandbox clock', async () => {
    const ws = await world.workspace();
    const charge = await createDue(ws.api, { ...terms(), days_valid_after_due: 5 });
    expect(charge.last_payable_date).toBe(spDate(15));
    await advanceDays(ws.api, 15);
    expect((await ws.api.get(`${DUE}/${charge.id}`)).json().data.amount_due_today_minor).not.toBe('0');
    await advanceDays(ws.api, 1);
    expect((await ws.api.get(`${DUE}/${charge.id}`)).json().data.amount_due_today_minor).toBe('0');
    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(paid.statusCode).toBe(422);
    expect(paid.json().error).toBe('invalid_state');
    expect(await ws.balances()).toMatchObject({ available: '0' });
    await expireSandboxDueCharges(world.deps);
    expect((await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data.status).toBe('expired');
  });

  it('a sandbox charge that cannot be expired is set aside, and the others still expire', async () => {
    const ws = await world.workspace();
    const stuck = await createDue(ws.api, {
      ...terms(),
      discount: undefined,
      due_date: spDate(1),
      days_valid_after_due: 0,
    });
    const other = await createDue(ws.api, {
      ...terms(),
      discount: undefined,
      due_date: spDate(2),
      days_valid_after_due: 0,
    });
    await advanceDays(ws.api, 5);
    // The first in the round cannot change, whatever the reason: here a trigger refuses it.
    await world.db.exec(`CREATE FUNCTION refuse_stuck_charge() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = '${stuck.id}' THEN RAISE EXCEPTION 'stuck charge'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_stuck_charge BEFORE UPDATE ON payments
        FOR EACH ROW EXECUTE FUNCTION refuse_stuck_charge();`);
    try {
      await expect(expireSandboxDueCharges(world.deps)).rejects.toThrow(/stuck charge/);
    } finally {
      await world.db.exec(`DROP TRIGGER refuse_stuck_charge ON payments;
        DROP FUNCTION refuse_stuck_charge();`);
    }
    const statusOf = async (id: string) =>
      (await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data.status;
    expect(await statusOf(other.id)).toBe('expired');
    expect(await statusOf(stuck.id)).toBe('created');
    // Set aside, it is not tried again before its retry is due.
    await expireSandboxDueCharges(world.deps);
    expect(await statusOf(stuck.id)).toBe('created');
  });

  it('a charge of another workspace is not found, and a plain charge is not a due-date charge', async () => {
    const ws = await world.workspace();
    const other = await world.workspace('Other Ltda');
    const charge = await createDue(ws.api, terms());
    expect((await other.api.get(`${DUE}/${charge.id}`)).statusCode).toBe(404);
    const plain = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '500' })).json().data;
    expect((await ws.api.get(`${DUE}/${plain.id}`)).statusCode).toBe(404);
  });

  it('the payment carries the debtor masked, and the charge shows it masked', async () => {
    const ws = await world.workspace();
    const charge = await createDue(ws.api, terms());
    expect(charge.debtor).toEqual({
      name: 'Francisco da Silva',
      document: '*********25',
      document_type: 'cpf',
    });
    const payment = (await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data;
    expect(payment.counterparty).toMatchObject({ document: '*********25' });
  });
});
