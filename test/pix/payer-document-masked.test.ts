/**
 * A payer's CPF/CNPJ leaves Lastro masked to its last two characters on every path: the charge's
 * answer, its reads and lists, the statement, the events and the webhooks they become, for charges
 * made through the API and the sandbox cash-in alike (the checkout always masked it).
 */
import { afterAll, expect, it } from 'vitest';
import { CPF } from '../support/world.ts';
import { dispatch, emit, receiverEndpoint, startWebhookWorld } from '../webhooks/helpers.ts';

const world = await startWebhookWorld();
afterAll(() => world.close());
const MASKED = `*********${CPF.slice(-2)}`;

it('a payer document is masked in answers, lists, statement, events and webhooks', async () => {
  const { api } = world;
  await receiverEndpoint(world, '/documents');
  const payer = { name: 'Bia', document: '529.982.247-25' };
  const created = await api.post('/v1/sandbox/pix/charges', { amount_minor: '1000', payer });
  expect(created.statusCode, created.body).toBe(200);
  expect(created.json().data.counterparty).toEqual({ name: 'Bia', document: MASKED, document_type: 'cpf' });
  const id: string = created.json().data.id;
  expect((await api.post(`/v1/sandbox/simulate/payments/${id}/pay`)).statusCode).toBe(200);

  const cashIn = await api.post('/v1/sandbox/simulate/pix/cash-in', {
    amount_minor: '700',
    payer: { name: 'Caio', document: CPF },
  });
  expect(cashIn.statusCode, cashIn.body).toBe(200);
  expect(cashIn.json().data.counterparty).toEqual({ name: 'Caio', document: MASKED });

  const read = await api.get(`/v1/sandbox/payments/${id}`);
  expect(read.json().data.counterparty.document).toBe(MASKED);
  await dispatch(world);

  const seen = [
    read.body,
    (await api.get('/v1/sandbox/payments?limit=100')).body,
    (await api.get('/v1/sandbox/statement?limit=100')).body,
    (await api.get('/v1/sandbox/events?limit=100')).body,
    JSON.stringify(world.receiver.received('/documents').map((r) => r.payload)),
  ].join('\n');
  expect(seen).toContain(MASKED);
  expect(seen).not.toContain(CPF);
  const types = world.receiver.received('/documents').map((r) => r.payload.type);
  expect(types).toEqual(expect.arrayContaining(['payment.created', 'payment.completed']));
  // Not in the payments table either, for the next reader.
  const stored = await world.ctx.db.query<{ counterparty: string }>(
    'SELECT counterparty::text AS counterparty FROM payments WHERE id = ANY($1)',
    [[id, cashIn.json().data.id]],
  );
  for (const row of stored.rows) expect(row.counterparty).not.toContain(CPF);
});

it('a document stored in clear before masking (an old event, an old stored answer) still leaves masked', async () => {
  const { api } = world;
  await receiverEndpoint(world, '/old-documents');
  const clear = { name: 'Duda', document: CPF, document_type: 'cpf' };
  // An event written before payments were stored masked: its payload kept the document whole.
  const event = await emit(world.ctx, world.owner.workspaceId, 'payment.completed', {
    id: '0190f0aa-0000-7000-8000-000000000001',
    kind: 'pix_cash_in',
    counterparty: clear,
  });
  // A stored answer of the same age, replayed to a re-sent request with its key.
  const headers = { 'idempotency-key': 'old-answer-1' };
  const body = { amount_minor: '1000', payer: { name: 'Duda', document: CPF } };
  const first = await api.post('/v1/sandbox/pix/charges', body, headers);
  expect(first.statusCode, first.body).toBe(200);
  const oldAnswer = { ...first.json().data, counterparty: clear };
  await world.ctx.db.query(`UPDATE idempotency_keys SET response = $2 WHERE key = $1`, [
    'old-answer-1',
    JSON.stringify({ sealed: world.ctx.deps.sealer.seal(JSON.stringify(oldAnswer)) }),
  ]);
  const replayed = await api.post('/v1/sandbox/pix/charges', body, headers);
  expect(replayed.headers['idempotency-replayed']).toBe('true');
  await dispatch(world);

  const seen = [
    replayed.body,
    (await api.get(`/v1/sandbox/events/${event.id}`)).body,
    (await api.get('/v1/sandbox/events?limit=100')).body,
    JSON.stringify(world.receiver.received('/old-documents').map((r) => r.payload)),
  ];
  for (const text of seen) {
    expect(text).toContain(MASKED);
    expect(text).not.toContain(CPF);
  }
});
