/**
 * GET /v1/{env}/reports/daily, the overview charts' source: per day in America/Sao_Paulo the BRL in,
 * out and fees of completed payments and the available balance at the day's end, as strings of
 * minor units; a bad range is 400 with the field named.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localDateOf } from '../../src/platform/time-zone.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Client, cashIn, client, createApiKey, drainJobs, signupOwner } from '../support/world.ts';

let ctx: TestContext;
let api: Client;
let today: string;
let yesterday: string;

beforeAll(async () => {
  ctx = await startTestApp();
  const owner = await signupOwner(ctx.app, 'Relatórios');
  const key = await createApiKey(ctx.app, owner, 'sandbox');
  api = client(ctx.app, key.secret, owner.workspaceId);
  today = localDateOf(ctx.clock.now(), 'America/Sao_Paulo');
  yesterday = localDateOf(new Date(ctx.clock.now().getTime() - 86_400_000), 'America/Sao_Paulo');
});
afterAll(() => ctx.close());

const report = async (from: string, to: string) => {
  const res = await api.get(`/v1/sandbox/reports/daily?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

it('a day with no payments is there, all zero', async () => {
  const data = await report(yesterday, today);
  expect(data).toMatchObject({ currency: 'BRL', time_zone: 'America/Sao_Paulo' });
  expect(data.days).toEqual([
    { day: yesterday, in_minor: '0', out_minor: '0', fees_minor: '0', balance_minor: '0' },
    { day: today, in_minor: '0', out_minor: '0', fees_minor: '0', balance_minor: '0' },
  ]);
});

it('sums the day’s cash-ins, fees and refunds, and ends the day at the available balance', async () => {
  const first = await cashIn(api, '10000');
  const second = await cashIn(api, '5000');
  const fees = BigInt(first.fee_minor) + BigInt(second.fee_minor);
  const refund = await api.post(`/v1/sandbox/payments/${first.id}/refund`, { amount_minor: '700' });
  expect(refund.statusCode, refund.body).toBe(200);
  await drainJobs(ctx);
  const status = (await api.get(`/v1/sandbox/payments/${refund.json().data.id}`)).json().data.status;
  const data = await report(yesterday, today);
  const balances = (await api.get('/v1/sandbox/balances')).json().data;
  const available = balances.find(
    (row: { kind: string; currency: string }) => row.kind === 'available' && row.currency === 'BRL',
  );
  expect(data.days[0]).toEqual({
    day: yesterday,
    in_minor: '0',
    out_minor: '0',
    fees_minor: '0',
    balance_minor: '0',
  });
  expect(data.days[1]).toMatchObject({
    day: today,
    in_minor: '15000',
    out_minor: status === 'completed' ? '700' : '0',
    balance_minor: available.balance_minor,
  });
  expect(BigInt(data.days[1].fees_minor)).toBeGreaterThanOrEqual(fees);
});

it('refuses a range backwards or longer than 366 days, and a malformed date, naming the field', async () => {
  const backwards = await api.get(`/v1/sandbox/reports/daily?from=${today}&to=${yesterday}`);
  expect(backwards.statusCode).toBe(400);
  expect(backwards.json()).toMatchObject({
    error: 'invalid_request',
    details: [{ field: 'querystring.to' }],
  });
  const long = await api.get('/v1/sandbox/reports/daily?from=2025-01-01&to=2026-06-30');
  expect(long.statusCode).toBe(400);
  expect(long.json().details).toEqual([{ field: 'querystring.to', issue: 'out of range' }]);
  const malformed = await api.get('/v1/sandbox/reports/daily?from=2026-13-45&to=2026-12-01');
  expect(malformed.statusCode).toBe(400);
  expect(malformed.json().error).toBe('invalid_request');
});
