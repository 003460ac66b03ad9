/**
 * customer.created and customer.updated once carried the whole customer,
 * decrypted CPF/CNPJ included, and the outbox stores event payloads as plain JSON: the document sat in
 * clear in the events table (and went out in webhooks), defeating its sealing. Events now carry the
 * document masked; GET /customers/{id} still returns it whole to the workspace.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('no event stores a customer document in clear', async () => {
  const owner = await signupOwner(ctx.app);
  const api = client(ctx.app, (await createApiKey(ctx.app, owner)).secret, owner.workspaceId);
  const created = await api.post('/v1/sandbox/customers', {
    display_name: 'Ana',
    kind: 'person',
    document_type: 'cpf',
    document_number: '529.982.247-25',
  });
  expect(created.statusCode, created.body).toBe(200);
  const id = created.json().data.id;
  expect((await api.patch(`/v1/sandbox/customers/${id}`, { display_name: 'Ana Maria' })).statusCode).toBe(
    200,
  );
  const { rows } = await ctx.db.query<{ payload: string }>(
    `SELECT payload::text AS payload FROM events WHERE type LIKE 'customer.%'`,
  );
  expect(rows).toHaveLength(2);
  for (const row of rows) expect(row.payload).not.toMatch(/52998224725|529\.982\.247-25/);
  expect((await api.get(`/v1/sandbox/customers/${id}`)).json().data.document_number).toMatch(
    /52998224725|529\.982\.247-25/,
  );
});
