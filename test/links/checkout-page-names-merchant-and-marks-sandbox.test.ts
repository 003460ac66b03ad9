/**
 * The checkout page says whom the payer pays (the workspace's display name, escaped) and, on a
 * sandbox link only, that it is a test: a live page carries no test mark.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey, enableProduction } from '../support/world.ts';
import { type LinksWorkspace, linksWorkspace } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx, 'Empório <Sabiá> & Cia');
});
afterAll(() => ctx.close());

const page = (slug: string, language = 'pt-BR') =>
  ctx.app.inject({ method: 'GET', url: `/pay/${slug}`, headers: { 'accept-language': language } });

it('a sandbox page names the merchant and carries the test mark', async () => {
  const link = await ws.createLink({ amount_minor: '1000', title: 'Pão' });
  const res = await page(link.slug);
  expect(res.statusCode).toBe(200);
  expect(res.body).toContain(
    'Pagamento via PIX para <strong id="merchant-name">Empório &lt;Sabiá&gt; &amp; Cia</strong>',
  );
  expect(res.body).toContain('id="test-mark"');
  expect(res.body).toContain('Ambiente de teste: nenhum dinheiro real é cobrado.');
  expect((await page(link.slug, 'en')).body).toContain('Test environment: no real money is charged.');
});

it('a sandbox link that takes no payment still says it is a test, and whose it is', async () => {
  const link = await ws.createLink({ amount_minor: '1000', title: 'Fora de linha' });
  await ws.api.patch(`/v1/sandbox/payment-links/${link.id}`, { status: 'inactive' });
  const res = await page(link.slug);
  expect(res.statusCode).toBe(410);
  expect(res.body).toContain('id="merchant-name"');
  expect(res.body).toContain('id="test-mark"');
});

it('a live page names the merchant and has no test mark', async () => {
  await enableProduction(ctx.app, ws.owner);
  const live = client(ctx.app, (await createApiKey(ctx.app, ws.owner, 'live')).secret, ws.owner.workspaceId);
  const created = await live.post('/v1/live/payment-links', { amount_minor: '2500', title: 'Ao vivo' });
  expect(created.statusCode, created.body).toBe(200);
  const res = await page(created.json().data.slug);
  expect(res.statusCode).toBe(200);
  expect(res.body).toContain('id="merchant-name"');
  expect(res.body).not.toContain('id="test-mark"');
});
