/**
 * Two defects of the public checkout:
 * - a checkout charge lived 30 minutes whatever the link's expires_at, so a link that had expired
 *   (its page answering 410) could still be paid through a charge started just before;
 * - the payer's CPF/CNPJ from the public checkout was stored in clear in payments.counterparty and in
 *   the payment events (the outbox keeps payloads in clear), though the checkout record seals it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { linksWorkspace, payer, startCheckout } from '../links/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('a checkout charge expires with its link', async () => {
  const shop = await linksWorkspace(ctx, 'Expira');
  const expiresAt = new Date(ctx.clock.now().getTime() + 120_000).toISOString();
  const link = await shop.createLink({ title: 'Curto', amount_minor: '5000', expires_at: expiresAt });
  const started = await startCheckout(ctx, link.slug, payer('529.982.247-25'));
  expect(started.statusCode, started.body).toBe(200);
  ctx.clock.advance(10 * 60_000);
  const paid = await shop.api.post(`/v1/sandbox/simulate/payments/${started.json().data.id}/pay`, {});
  expect(paid.statusCode).toBe(422);
  expect(paid.json().error).toBe('invalid_state');

  const soon = await shop.createLink({
    title: 'Quase',
    amount_minor: '5000',
    expires_at: new Date(ctx.clock.now().getTime() + 30_000).toISOString(),
  });
  const refused = await startCheckout(ctx, soon.slug, payer('529.982.247-25'));
  expect(refused.statusCode).toBe(422);
  expect(refused.json().error).toBe('invalid_state');
});

it('the payer document is never stored in clear outside the sealed checkout record', async () => {
  const shop = await linksWorkspace(ctx, 'Sigilo');
  const link = await shop.createLink({ title: 'Doc', amount_minor: '5000' });
  const started = await startCheckout(ctx, link.slug, payer('529.982.247-25'));
  expect(started.statusCode, started.body).toBe(200);
  const id = started.json().data.id;
  expect((await shop.api.post(`/v1/sandbox/simulate/payments/${id}/pay`, {})).statusCode).toBe(200);
  const events = await ctx.db.query<{ payload: string }>(
    'SELECT payload::text AS payload FROM events WHERE workspace_id = $1',
    [shop.owner.workspaceId],
  );
  for (const row of events.rows) expect(row.payload).not.toMatch(/52998224725/);
  const payments = await ctx.db.query<{ counterparty: string }>(
    'SELECT counterparty::text AS counterparty FROM payments WHERE id = $1',
    [id],
  );
  expect(payments.rows[0]!.counterparty).not.toMatch(/52998224725/);
});
