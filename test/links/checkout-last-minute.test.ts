/**
 * A link less than a minute from its expiry takes no checkout (a charge lives at least a minute and
 * must not outlive its link), so its page shows it expired rather than a form whose pay is refused.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { CPF, checkoutTrace, type LinksWorkspace, linksWorkspace, payer, startCheckout } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx, 'Última Hora');
});
afterAll(() => ctx.close());

it('a link in its last minute shows the expired page, as its checkout refuses', async () => {
  const soon = await ws.createLink({
    amount_minor: '900',
    title: 'Relâmpago',
    expires_at: new Date(ctx.clock.now().getTime() + 90_000).toISOString(),
  });
  const open = await ctx.app.inject({ method: 'GET', url: `/pay/${soon.slug}` });
  expect(open.statusCode).toBe(200);
  expect(open.body).toContain('checkout-form');

  ctx.clock.advance(45_000);
  try {
    const page = await ctx.app.inject({ method: 'GET', url: `/pay/${soon.slug}` });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('expirou');
    expect(page.body).not.toContain('checkout-form');
    const pay = await startCheckout(ctx, soon.slug, payer(CPF));
    expect(pay.statusCode).toBe(422);
    expect(pay.json()).toMatchObject({
      error: 'invalid_state',
      message: 'This payment link is expired and takes no payments.',
    });
    expect(await checkoutTrace(ctx, ws.owner.workspaceId)).toEqual({ records: 0, payments: 0 });
  } finally {
    ctx.clock.advance(-45_000);
  }
});
