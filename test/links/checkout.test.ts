/**
 * The public checkout: the hosted page (HTML, escaping, colours, languages, security headers), the
 * JSON it calls (start a charge, follow it), every refusal with no trace, and the per-IP limit.
 */
import fc from 'fast-check';
import { hasError, parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import {
  CNPJ,
  CPF,
  checkout,
  checkoutTrace,
  type Link,
  type LinksWorkspace,
  linksWorkspace,
  payer,
  startCheckout,
} from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;
let fixed: Link;
let open: Link;

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx);
  fixed = await ws.createLink({ amount_minor: '5000', title: 'Camiseta', description: 'Algodão, tamanho M' });
  open = await ws.createLink({
    allow_custom_amount: true,
    title: 'Doação',
    design: { brand_color: '#AA3300' },
  });
});
afterAll(() => ctx.close());

const page = (slug: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: `/pay/${slug}`, headers });

function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cache-control']).toBe('no-store');
  expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
}

describe('GET /pay/{slug}: the page', () => {
  it('is HTML in Portuguese with the title, description, amount and labelled payer fields', async () => {
    const res = await page(fixed.slug);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<html lang="pt-BR">');
    expect(res.body).toContain('<h1>Camiseta</h1>');
    expect(res.body).toContain('Algodão, tamanho M');
    expect(res.body).toContain('R$ 50,00');
    expect(res.body).toContain('<label for="payer-name">Nome completo</label>');
    expect(res.body).toContain('<label for="payer-document">CPF ou CNPJ</label>');
    expect(res.body).not.toContain('id="amount"');
  });

  it('speaks English when Accept-Language prefers it', async () => {
    const en = await page(fixed.slug, { 'accept-language': 'en-US,en;q=0.9,pt-BR;q=0.5' });
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('R$50.00');
    expect(en.body).toContain('Full name');
    const pt = await page(fixed.slug, { 'accept-language': 'fr, pt;q=0.8, en;q=0.5' });
    expect(pt.body).toContain('<html lang="pt-BR">');
  });

  it('an open-amount link asks for the amount', async () => {
    const res = await page(open.slug);
    expect(res.body).toMatch(/<label for="amount">Valor \(R\$\)<\/label>\s*<input id="amount"/);
  });

  it('sends the security headers; only the page’s own nonce-bearing style and script may run', async () => {
    const res = await page(fixed.slug);
    expectSecurityHeaders(res.headers);
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain(`style-src 'nonce-${nonce}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const tags = [...res.body.matchAll(/<(script|style)\b([^>]*)>/g)];
    for (const [, tag, attributes] of tags) {
      if (attributes!.includes('application/json')) continue;
      expect(attributes, tag).toContain(`nonce="${nonce}"`);
    }
    expect((await page(fixed.slug)).headers['content-security-policy']).not.toBe(csp);
  });

  it('escapes the merchant’s text: no markup of theirs reaches the page', async () => {
    const hostile = await ws.createLink({
      amount_minor: '100',
      title: '<script>alert(1)</script>',
      description: '"><img src=x onerror=alert(2)> </script><script>x()</script>',
    });
    const res = await page(hostile.slug);
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).not.toContain('</script><script>x()');
  });

  it('puts only #rrggbb colours into the CSS, with readable text on them', async () => {
    const res = await page(open.slug);
    expect(res.body).toContain('--brand:#aa3300;--brand-fg:#ffffff;');
    // A value that slipped past the API (written straight into the table) still cannot reach the CSS.
    const sneaky = await ws.createLink({ amount_minor: '100' });
    await ctx.db.query(`UPDATE payment_links SET design = $2 WHERE id = $1`, [
      sneaky.id,
      JSON.stringify({ brand_color: 'red}</style><script>alert(1)</script>', background_color: '#ffff00' }),
    ]);
    const body = (await page(sneaky.slug)).body;
    expect(body).not.toContain('alert(1)');
    expect(body).toContain('--brand:#00695c;');
    expect(body).toContain('--bg:#ffff00;--fg:#000000');
  });

  it('unknown, inactive and expired links show a clear page and no form', async () => {
    const unknown = await page('no-such-link');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('Este link de pagamento não existe');
    expectSecurityHeaders(unknown.headers);

    const inactive = await ws.createLink({ amount_minor: '100', title: 'Pausado' });
    await ws.api.patch(`/v1/sandbox/payment-links/${inactive.id}`, { status: 'inactive' });
    const paused = await page(inactive.slug, { 'accept-language': 'en' });
    expect(paused.statusCode).toBe(410);
    expect(paused.body).toContain('not taking payments');

    const soon = await ws.createLink({
      amount_minor: '100',
      expires_at: new Date(ctx.clock.now().getTime() + 60_000).toISOString(),
    });
    ctx.clock.advance(60_000);
    try {
      const gone = await page(soon.slug);
      expect(gone.statusCode).toBe(410);
      expect(gone.body).toContain('expirou');
      for (const res of [unknown, paused, gone]) expect(res.body).not.toContain('checkout-form');
    } finally {
      ctx.clock.advance(-60_000);
    }
  });
});

describe('POST /pay/{slug}/checkout', () => {
  it('charges the fixed amount: a BR Code that parses, its QR image, the public view only', async () => {
    const res = await startCheckout(ctx, fixed.slug, payer('529.982.247-25'));
    expect(res.statusCode, res.body).toBe(200);
    expectSecurityHeaders(res.headers);
    const charge = res.json().data;
    expect(Object.keys(charge).sort()).toEqual(
      ['amount_minor', 'currency', 'expires_at', 'id', 'pix_qr_code', 'qr_code_png', 'status'].sort(),
    );
    expect(charge).toMatchObject({ status: 'created', amount_minor: '5000', currency: 'BRL' });
    expect(charge.qr_code_png).toMatch(/^data:image\/png;base64,/);
    const parsed = parsePix(charge.pix_qr_code);
    expect(hasError(parsed)).toBe(false);
    expect((parsed as { transactionAmount: number }).transactionAmount).toBe(50);
    // The workspace sees the payment, owned by the link's party, with the payer; 30 minutes to pay.
    const payment = (await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data;
    expect(payment.expires_at).toBe(charge.expires_at);
    expect(Date.parse(charge.expires_at) - Date.parse(payment.created_at)).toBe(30 * 60_000);
    expect(payment).toMatchObject({
      kind: 'pix_cash_in',
      party_id: ws.owner.defaultPartyId,
      description: 'Camiseta',
    });
    expect(payment.counterparty).toMatchObject({ name: 'João da Silva', document_type: 'cpf' });
  });

  it('an open-amount link charges the buyer’s amount; a CNPJ pays too', async () => {
    const charge = await checkout(ctx, open.slug, { amount_minor: '1234', ...payer(CNPJ, 'Empresa Ltda') });
    expect(charge.amount_minor).toBe('1234');
  });

  it('keeps the payer’s document sealed: the checkout record holds no document in clear', async () => {
    const charge = await checkout(ctx, fixed.slug, payer('529.982.247-25', 'Maria'));
    const { rows } = await ctx.db.query('SELECT * FROM payment_link_payments WHERE payment_id = $1', [
      charge.id,
    ]);
    const row = rows[0] as Record<string, unknown>;
    expect(row.payer_name).toBe('Maria');
    expect(JSON.stringify(row)).not.toContain(CPF);
    expect(ctx.deps.sealer.open(row.payer_document_sealed as string)).toBe(CPF);
  });

  it('refuses with the documented code and leaves no payment or record', async () => {
    const inactive = await ws.createLink({ amount_minor: '100' });
    await ws.api.patch(`/v1/sandbox/payment-links/${inactive.id}`, { status: 'inactive' });
    const soon = await ws.createLink({
      amount_minor: '100',
      expires_at: new Date(ctx.clock.now().getTime() + 60_000).toISOString(),
    });
    const cases: [string, string, unknown, number, string][] = [
      ['unknown link', 'no-such-link', payer(CPF), 404, 'not_found'],
      ['inactive link', inactive.slug, payer(CPF), 422, 'invalid_state'],
      ['bad check digits', fixed.slug, payer('529.982.247-24'), 400, 'invalid_request'],
      ['not a document', fixed.slug, payer('hello'), 400, 'invalid_request'],
      ['blank name', fixed.slug, payer(CPF, '   '), 400, 'invalid_request'],
      ['no payer', fixed.slug, {}, 400, 'invalid_request'],
      [
        'another amount on a fixed link',
        fixed.slug,
        { amount_minor: '1', ...payer(CPF) },
        400,
        'invalid_amount',
      ],
      ['no amount on an open link', open.slug, payer(CPF), 400, 'invalid_amount'],
      ['zero on an open link', open.slug, { amount_minor: '0', ...payer(CPF) }, 400, 'invalid_amount'],
      ['a number, not a string', open.slug, { amount_minor: 100, ...payer(CPF) }, 400, 'invalid_amount'],
      [
        'above a BR Code',
        open.slug,
        { amount_minor: '9999999999999999', ...payer(CPF) },
        400,
        'invalid_amount',
      ],
    ];
    const before = await checkoutTrace(ctx, ws.owner.workspaceId);
    for (const [name, slug, body, status, code] of cases) {
      const res = await startCheckout(ctx, slug, body as Record<string, unknown>);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().error, name).toBe(code);
      expectSecurityHeaders(res.headers);
    }
    ctx.clock.advance(60_000);
    try {
      const expired = await startCheckout(ctx, soon.slug, payer(CPF));
      expect(expired.statusCode).toBe(422);
      expect(expired.json().error).toBe('invalid_state');
    } finally {
      ctx.clock.advance(-60_000);
    }
    expect(await checkoutTrace(ctx, ws.owner.workspaceId)).toEqual(before);
  });
});

describe('GET /pay/{slug}/payments/{id}', () => {
  it('answers status and amount only, and follows the payment to completed', async () => {
    const charge = await checkout(ctx, fixed.slug, payer(CPF));
    const url = `/pay/${fixed.slug}/payments/${charge.id}`;
    const before = await ctx.app.inject({ method: 'GET', url });
    expect(before.statusCode).toBe(200);
    expectSecurityHeaders(before.headers);
    expect(before.json().data).toEqual({
      id: charge.id,
      status: 'created',
      amount_minor: '5000',
      currency: 'BRL',
    });
    await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`, {});
    expect((await ctx.app.inject({ method: 'GET', url })).json().data.status).toBe('completed');
  });

  it('404 for a payment of another link, a charge not made on a link, and an unknown id', async () => {
    const charge = await checkout(ctx, fixed.slug, payer(CPF));
    const plain = (await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '300' })).json().data;
    for (const url of [
      `/pay/${open.slug}/payments/${charge.id}`,
      `/pay/${fixed.slug}/payments/${plain.id}`,
      `/pay/${fixed.slug}/payments/01890000-0000-7000-8000-000000000000`,
      `/pay/no-such-link/payments/${charge.id}`,
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const badId = await ctx.app.inject({ method: 'GET', url: `/pay/${fixed.slug}/payments/not-a-uuid` });
    expect(badId.statusCode).toBe(400);
  });
});

describe('rate limit per IP on the public routes', () => {
  it('429 rate_limited with Retry-After past the allowance; another address is still served', async () => {
    const limited = await startTestApp({ checkoutRateLimitMax: 3 });
    try {
      const shop = await linksWorkspace(limited);
      const link = await shop.createLink();
      const from = (remoteAddress: string) =>
        limited.app.inject({ method: 'GET', url: `/pay/${link.slug}`, remoteAddress });
      for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).statusCode).toBe(200);
      const over = await from('203.0.113.7');
      expect(over.statusCode).toBe(429);
      expect(over.json().error).toBe('rate_limited');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expectSecurityHeaders(over.headers);
      expect((await from('203.0.113.8')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('fuzzing the public routes', () => {
  it('no slug, id or body gives a 500, and every answer carries the security headers', async () => {
    const slug = fc.oneof(fc.constant(fixed.slug), fc.constant(open.slug), fc.string({ minLength: 1 }));
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record(
        { amount_minor: fc.oneof(fc.string(), fc.integer()), payer: fc.jsonValue() },
        { requiredKeys: [] },
      ),
      fc.record({ payer: fc.record({ name: fc.string(), document: fc.string() }) }),
    );
    await fc.assert(
      fc.asyncProperty(slug, body, fc.oneof(fc.uuid(), fc.string()), async (name, payload, id) => {
        const at = encodeURIComponent(name);
        for (const res of [
          await ctx.app.inject({ method: 'GET', url: `/pay/${at}` }),
          await ctx.app.inject({
            method: 'POST',
            url: `/pay/${at}/checkout`,
            payload: JSON.stringify(payload),
            headers: { 'content-type': 'application/json' },
          }),
          await ctx.app.inject({ method: 'GET', url: `/pay/${at}/payments/${encodeURIComponent(id)}` }),
        ]) {
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.headers['x-content-type-options']).toBe('nosniff');
        }
      }),
      { numRuns: 150 },
    );
  });
});
