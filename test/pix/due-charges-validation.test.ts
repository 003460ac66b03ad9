/**
 * A due-date charge's request is checked against the standard's modalities: each fault answers 400
 * with its code and the field at fault, and nothing is created.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';
import { DEBTOR, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace();
const base = () => ({ amount_minor: '10000', due_date: spDate(10), debtor: DEBTOR });

const cases: [string, Record<string, unknown>, string, string][] = [
  ['amount zero', { amount_minor: '0' }, 'invalid_amount', 'body.amount_minor'],
  ['due date not a date', { due_date: '2026-02-30' }, 'invalid_request', 'body.due_date'],
  ['due date yesterday', { due_date: spDate(-1) }, 'invalid_request', 'body.due_date'],
  [
    'debtor document with bad check digits',
    { debtor: { name: 'X', document: '52998224724' } },
    'invalid_request',
    'body.debtor.document',
  ],
  ['no debtor', { debtor: undefined }, 'invalid_request', 'body.debtor'],
  ['negative validity', { days_valid_after_due: -1 }, 'invalid_request', 'body.days_valid_after_due'],
  ['fine modality 3', { fine: { modality: 3, percent: '2.00' } }, 'invalid_request', 'body.fine.modality'],
  [
    'fine percentage without percent',
    { fine: { modality: 2, value_minor: '100' } },
    'invalid_request',
    'body.fine.percent',
  ],
  [
    'interest on business days',
    { interest: { modality: 6, percent: '1.00' } },
    'invalid_request',
    'body.interest.modality',
  ],
  [
    'interest percent with three decimals',
    { interest: { modality: 2, percent: '1.005' } },
    'invalid_request',
    'body.interest.percent',
  ],
  [
    'rebate of the whole amount',
    { rebate: { modality: 1, value_minor: '10000' } },
    'invalid_request',
    'body.rebate.value_minor',
  ],
  [
    'rebate of 100 %',
    { rebate: { modality: 2, percent: '100.00' } },
    'invalid_request',
    'body.rebate.percent',
  ],
  [
    'discount on business days',
    { discount: { modality: 4, value_minor: '10' } },
    'invalid_request',
    'body.discount.modality',
  ],
  [
    'fixed-date discount without dates',
    { discount: { modality: 1 } },
    'invalid_request',
    'body.discount.dates',
  ],
  [
    'fixed-date discount with a value outside dates',
    { discount: { modality: 1, value_minor: '5', dates: [{ date: spDate(1), value_minor: '5' }] } },
    'invalid_request',
    'body.discount.value_minor',
  ],
  [
    'discount date after the due date',
    { discount: { modality: 2, dates: [{ date: spDate(11), percent: '1.00' }] } },
    'invalid_request',
    'body.discount.dates.0.date',
  ],
  [
    'discount date twice',
    {
      discount: {
        modality: 1,
        dates: [
          { date: spDate(1), value_minor: '5' },
          { date: spDate(1), value_minor: '4' },
        ],
      },
    },
    'invalid_request',
    'body.discount.dates.1.date',
  ],
  [
    'four discount dates',
    { discount: { modality: 1, dates: [1, 2, 3, 4].map((d) => ({ date: spDate(d), value_minor: '5' })) } },
    'invalid_request',
    'body.discount.dates',
  ],
  [
    'per-day discount with dates',
    { discount: { modality: 3, value_minor: '5', dates: [{ date: spDate(1), value_minor: '5' }] } },
    'invalid_request',
    'body.discount.dates',
  ],
  ['unknown field', { juros: { modalidade: 1 } }, 'invalid_request', 'body.juros'],
];

describe('due-date charge validation', () => {
  it.each(cases)('%s: 400 and nothing created', async (_name, change, code, field) => {
    const before = await ws.paymentCount('pix_cash_in');
    const res = await ws.api.post(DUE, { ...base(), ...change });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.error).toBe(code);
    expect(JSON.stringify(body.details ?? []), res.body).toContain(field);
    expect(await ws.paymentCount('pix_cash_in')).toBe(before);
  });

  it('a sandbox key on the live route is refused with 403', async () => {
    const res = await ws.api.post('/v1/live/pix/due-charges', base());
    expect(res.statusCode).toBe(403);
  });
});
