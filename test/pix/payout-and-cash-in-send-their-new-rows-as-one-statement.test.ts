/**
 * A payout and a cash-in send their new rows (the payment, its event and deliveries, the
 * Idempotency-Key's record) in one statement: a statement costs the server the same whatever it
 * does. The statements each group-committed request sends are recorded on the batch's transaction.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database, Tx } from '../../src/db/types.ts';
import { startTestAppOn, type TestContext } from '../support/app.ts';
import { createTestDatabase } from '../support/database.ts';
import { recordingTransaction } from '../support/recording-transaction.ts';
import { CPF, openWorkspace, type Workspace } from '../support/world.ts';

const sent: string[] = [];
let ctx: TestContext;
let ws: Workspace;
beforeAll(async () => {
  const db: Database = await createTestDatabase();
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (tx: Tx) => Promise<unknown>, options) =>
    transaction((tx) => fn(recordingTransaction(tx, sent)), options)) as Database['transaction'];
  ctx = await startTestAppOn(db);
  ws = await openWorkspace(ctx, 'Held Writes', { settlementKey: true });
}, 60_000);
afterAll(() => ctx?.close());

const paymentStatement = () => {
  const found = sent.filter((text) => text.includes('INSERT INTO payments'));
  expect(found).toHaveLength(1);
  return found[0]!;
};

it('a cash-in sends its payment, event, deliveries and key record in one statement', async () => {
  sent.length = 0;
  const res = await ws.api.post(
    '/v1/sandbox/simulate/pix/cash-in',
    { amount_minor: '50000' },
    { 'idempotency-key': 'cash-in-1' },
  );
  expect(res.statusCode, res.body).toBe(200);
  const statement = paymentStatement();
  expect(statement).toContain('INSERT INTO events');
  expect(statement).toContain('idempotency_keys');
});

it('a payout sends its payment, event, deliveries and key record in one statement', async () => {
  await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '50000' });
  // The party's first payout makes its locked account, a statement of its own, between the two.
  const first = await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1000', pix_key: CPF });
  expect(first.statusCode, first.body).toBe(200);
  sent.length = 0;
  const res = await ws.api.post(
    '/v1/sandbox/pix/payouts',
    { amount_minor: '1000', pix_key: CPF },
    { 'idempotency-key': 'payout-1' },
  );
  expect(res.statusCode, res.body).toBe(200);
  const statement = paymentStatement();
  expect(statement).toContain('INSERT INTO events');
  expect(statement).toContain('idempotency_keys');
});

it('a cash-in on an account posted before sends its journal and debt check with its batch’s on PostgreSQL, alone on PGlite', async () => {
  await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '100' });
  const before = BigInt((await ws.balances()).available!);
  sent.length = 0;
  const res = await ws.api.post('/v1/sandbox/simulate/pix/cash-in', { amount_minor: '700' });
  expect(res.statusCode, res.body).toBe(200);
  // On PostgreSQL; on PGlite, where a statement costs no round trip, each request sends its own.
  const gathered = ctx.db.kind === 'postgres';
  expect(sent.filter((text) => text.includes('ledger_post_journals('))).toHaveLength(gathered ? 1 : 0);
  expect(sent.filter((text) => text.includes('pix_no_owed_returns('))).toHaveLength(gathered ? 1 : 0);
  expect(
    sent.filter((text) => text.includes('ledger_post(') || text.includes('FROM pix_med_returns')),
  ).toHaveLength(gathered ? 0 : 2);
  expect(await ws.balances()).toMatchObject({ available: String(before + 700n) });
});
